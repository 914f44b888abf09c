// Answers to requests the API core never sees: those node's parser refuses, CONNECT (node hands
// it over as a tunnel request) and an Expect other than 100-continue. Each is JSON like every
// other answer, so a client never gets an empty body or a silently closed connection.
import { bodyBuffer, bodyByteLength } from '../api/body.ts';
import { STATUS_CODES, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { detail } from '../api/respond.ts';

const CLIENT_ERRORS: Record<string, [number, string]> = {
  HPE_HEADER_OVERFLOW: [431, 'Request line or header fields too large.'],
  HPE_CHUNK_EXTENSIONS_OVERFLOW: [413, 'Request chunk extensions too large.'],
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'Request timeout.'],
};

/**
 * A head past MAX_HEAD_BYTES (head-size.ts), parsed: answered as node's parser answers one past
 * maxHeaderSize (431 and close), in its turn among the connection's answers.
 */
export function answerHeadTooLarge(res: ServerResponse): void {
  const [status, message] = CLIENT_ERRORS.HPE_HEADER_OVERFLOW;
  const body = JSON.stringify({ detail: message });
  res.shouldKeepAlive = false;
  res.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': String(Buffer.byteLength(body)), 'X-Content-Type-Options': 'nosniff', Connection: 'close' });
  res.end(body);
}

/** `clientError`: `answered` when the request was answered and only its ignored body is late. */
export function answerClientError(error: NodeJS.ErrnoException, socket: Duplex, answered: boolean): void {
  // as node's default: answer only when no response has started on this socket (and not at all
  // when the request was answered and only its ignored body is late)
  const pending = (socket as { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  if (error.code !== 'ECONNRESET' && socket.writable && !pending?.headersSent && !answered) {
    const [status, message] = CLIENT_ERRORS[error.code ?? ''] ?? [400, 'Bad request.'];
    const body = JSON.stringify({ detail: message });
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
        `X-Content-Type-Options: nosniff\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy();
}

/** `connect`: the API tunnels nothing; a 405 as for any other method it does not allow, then close. */
export function answerConnect(_req: IncomingMessage, socket: Duplex): void {
  const answer = detail(405, 'Method "CONNECT" not allowed.');
  const body = bodyBuffer(answer.body);
  const headers = Object.entries({ ...answer.headers, 'Content-Length': String(body.length), Connection: 'close' })
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('');
  socket.on('error', () => {});
  socket.end(Buffer.concat([Buffer.from(`HTTP/1.1 405 ${STATUS_CODES[405]}\r\n${headers}\r\n`), body]));
}

/** `checkExpectation`: any Expect but 100-continue (which node answers itself). */
export function answerExpectation(_req: IncomingMessage, res: ServerResponse): void {
  const answer = detail(417, 'Expectation failed: only "Expect: 100-continue" is supported.');
  res.shouldKeepAlive = false;
  res.writeHead(417, { ...answer.headers, 'Content-Length': String(bodyByteLength(answer.body)) });
  res.end(bodyBuffer(answer.body));
}
