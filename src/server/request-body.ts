// Whether a request carries a body: the API reads none, but one that is sent must be drained for
// the connection to stay usable, and only then is there anything to drain.
import type { IncomingMessage } from 'node:http';

/** Whether the request announces a body (RFC 9112 §6.3: Transfer-Encoding, or a Content-Length above 0). */
export function hasBody(req: IncomingMessage): boolean {
  const length = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}
