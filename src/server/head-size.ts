// A bound on a request head as it was sent: its request line and every header line with their
// separators. node's `maxHeaderSize` counts only the target and the headers' names and values, so
// 16,300 empty headers (65 KB on the wire) passed it. node's parser hands the head over as it
// read it (method, target, version, each name and value, byte for byte in latin1), so the head's
// size is counted from that, once it is parsed. Reading the wire's bytes in JavaScript instead
// would take every request off node's native parsing path: 15-30 % more CPU for a small answer.
//
// Whitespace node's parser skips (around a header's value, empty lines before a request line) is
// not seen here: it is parsed at native speed, held nowhere, and the head must still arrive within
// the headers timeout.
import type { IncomingMessage } from 'node:http';

/** The most bytes a request head may have: request line, header lines and the empty line. */
export const MAX_HEAD_BYTES = 16 * 1024;

/**
 * The most headers node keeps of one request: a header line takes at least 4 bytes (`a:` CR LF),
 * so a head with more cannot be within MAX_HEAD_BYTES, and one more than that is enough to tell.
 */
export const MAX_HEADERS_KEPT = MAX_HEAD_BYTES / 4 + 1;

/** `:` and CR LF: a header line's bytes besides its name and value */
const SEPARATORS = 3;

/** The bytes `req`'s head took at the least: what the parser saw of it, and the separators between. */
export function headBytes(req: IncomingMessage): number {
  let bytes = (req.method ?? '').length + 1 + (req.url ?? '').length + ' HTTP/1.1\r\n'.length + '\r\n'.length;
  const raw = req.rawHeaders;
  for (let i = 0; i < raw.length; i += 2) bytes += raw[i].length + raw[i + 1].length + SEPARATORS;
  return bytes;
}
