// The HTTP adapter: node:http in front of the API core. Everything an answer says comes from the
// core; this layer moves bytes, keeps connection hygiene (timeouts, limits), swaps in a new
// dist/ when it is replaced, and drains in-flight requests on shutdown.
import { createServer, STATUS_CODES, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { unwatchFile, watchFile, type Stats } from 'node:fs';
import type { AddressInfo, Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { join } from 'node:path';
import { createApi, type Api, type ApiOptions } from '../api/core.ts';
import { SERVER_ERROR_BODY, splitTarget, type ApiResponse } from '../api/respond.ts';
import { compressFor, compressible, negotiateEncoding, type Encoding } from '../deploy/compress.ts';
import { loadDataset, warmDataset } from '../store/dataset.ts';
import { nodeDigest } from './digest.ts';

export interface ServeOptions extends ApiOptions {
  dist: string;
  port: number;
  host: string;
  baseUrl?: string;
  /** reload when dist/manifest.json changes (default true) */
  watch?: boolean;
  /** a client must send the request line and headers within this time (default 10 s), else 408 and close */
  headersTimeoutMs?: number;
  /** … and the whole request within this time (default 30 s) */
  requestTimeoutMs?: number;
  log?: (line: string) => void;
  /** the deferred part of the data turned out corrupt after start-up (the CLI exits 1) */
  onFatal?: (error: Error) => void;
}

export interface RunningServer {
  server: Server;
  /** http://host:port of the listening socket */
  url: string;
  /** loads dist/ again and swaps it in; the old data keeps answering if the new one is broken */
  reload(): boolean;
  /** stops accepting, lets in-flight requests finish (at most `graceMs`), then closes */
  close(graceMs?: number): Promise<void>;
}

const header = (value: string | string[] | undefined) => (Array.isArray(value) ? value.join(', ') : value);

/** Encoded bodies of cached answers, so a repeated answer is not re-encoded per request. */
const encoded = new WeakMap<ApiResponse, Buffer>();

/** Compressed bodies, per answer and coding: a cached answer is compressed once. */
const packed = new WeakMap<ApiResponse, Map<Encoding, Buffer | null>>();

function packedBody(response: ApiResponse, encoding: Encoding): Buffer | null {
  let forms = packed.get(response);
  if (!forms) packed.set(response, (forms = new Map()));
  if (!forms.has(encoding)) forms.set(encoding, compressFor(encoding, bodyBytes(response), true));
  return forms.get(encoding)!;
}

/**
 * The bytes to send: compressed when the client allows it. A compressed answer varies on
 * Accept-Encoding and gets a weak ETag (the core matches If-None-Match weakly, so a 304
 * still works for either form).
 */
function transportForm(response: ApiResponse, acceptEncoding: string | undefined): { headers: Record<string, string>; body?: Buffer } {
  if (response.body.length === 0) return { headers: response.headers };
  const body = bodyBytes(response);
  const encoding = compressible(response.headers['Content-Type']) ? negotiateEncoding(acceptEncoding) : null;
  const zipped = encoding && packedBody(response, encoding);
  if (!encoding || !zipped) return { headers: response.headers, body };
  let headers = zippedHeaders.get(zipped);
  if (!headers) {
    headers = { ...response.headers, 'Content-Encoding': encoding, 'Content-Length': String(zipped.length) };
    headers.Vary = `${headers.Vary}, Accept-Encoding`;
    if (headers.ETag && !headers.ETag.startsWith('W/')) headers.ETag = `W/${headers.ETag}`;
    zippedHeaders.set(zipped, headers);
  }
  return { headers, body: zipped };
}

/** Headers of a compressed body, made once per cached answer and coding. */
const zippedHeaders = new WeakMap<Buffer, Record<string, string>>();

/**
 * Headers as node's flat [name, value, …] list, made once per header object: a cached answer
 * is written with no per-request header work beyond node's own.
 */
const flatForms = new WeakMap<Record<string, string>, string[]>();

function flatHeaders(headers: Record<string, string>): string[] {
  let flat = flatForms.get(headers);
  if (!flat) {
    flat = Object.entries(headers).flat();
    flatForms.set(headers, flat);
  }
  return flat;
}

function bodyBytes(response: ApiResponse): Buffer {
  let bytes = encoded.get(response);
  if (!bytes) {
    bytes = typeof response.body === 'string' ? Buffer.from(response.body) : response.body;
    encoded.set(response, bytes);
  }
  return bytes;
}

export function requestHandler(api: () => Api) {
  return (req: IncomingMessage, res: ServerResponse) => {
    const raw = req.url ?? '/';
    // absolute-form request targets (`GET http://host/path`) carry the path after the authority
    const target = raw.charCodeAt(0) === 47 ? raw : raw.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i, '') || '/';
    try {
      const response = api()({
        method: req.method ?? 'GET',
        ...splitTarget(target),
        headers: { accept: header(req.headers.accept), 'if-none-match': header(req.headers['if-none-match']) },
      });
      const { headers, body } = transportForm(response, header(req.headers['accept-encoding']));
      res.writeHead(response.status, flatHeaders(headers));
      res.end(body);
    } catch (e) {
      console.error(e);
      res.writeHead(500, { 'Content-Type': 'application/json', 'Content-Length': String(SERVER_ERROR_BODY.length) });
      res.end(SERVER_ERROR_BODY);
    }
    // a body sent with GET is not read; drain it so the connection stays usable
    req.resume();
  };
}

/** Answers to requests node's parser refuses before they reach the core, as JSON like every other answer. */
const CLIENT_ERRORS: Record<string, [number, string]> = {
  HPE_HEADER_OVERFLOW: [431, 'Request line or header fields too large.'],
  HPE_CHUNK_EXTENSIONS_OVERFLOW: [413, 'Request chunk extensions too large.'],
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'Request timeout.'],
};

function answerClientError(error: NodeJS.ErrnoException, socket: Duplex, answered: boolean): void {
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

export async function startServer(options: ServeOptions): Promise<RunningServer> {
  const log = options.log ?? (() => {});
  const load = (warm: boolean) => {
    const ds = loadDataset(options.dist, { baseUrl: options.baseUrl });
    if (warm) warmDataset(ds);
    return { ds, api: createApi(ds, { digest: nodeDigest, ...options }) };
  };
  let current = load(false);
  let api = current.api;
  const headersTimeout = options.headersTimeoutMs ?? 10_000;
  const requestTimeout = Math.max(options.requestTimeoutMs ?? 30_000, headersTimeout);
  const handle = requestHandler(() => api);
  // Responses not yet handed to the OS, per connection: shutdown waits for them.
  const inFlight = new Map<Socket, number>();
  const connections = new Set<Socket>();
  /** connections whose request was answered while its (ignored) body is still arriving */
  const answeredEarly = new WeakSet<Duplex>();
  let closing = false;
  const server = createServer(
    {
      requestTimeout,
      headersTimeout,
      // node checks the two timeouts on this interval (default 30 s, which would stretch them)
      connectionsCheckingInterval: Math.max(10, Math.min(1_000, Math.floor(headersTimeout / 4))),
      maxHeaderSize: 16 * 1024,
      keepAliveTimeout: 5_000,
    },
    (req, res) => {
      const socket = req.socket;
      inFlight.set(socket, (inFlight.get(socket) ?? 0) + 1);
      if (closing) res.shouldKeepAlive = false;
      res.once('close', () => {
        const left = (inFlight.get(socket) ?? 1) - 1;
        if (left > 0) return void inFlight.set(socket, left);
        inFlight.delete(socket);
        if (closing) socket.destroySoon();
      });
      handle(req, res);
      if (!req.complete) {
        answeredEarly.add(socket);
        req.once('end', () => answeredEarly.delete(socket));
      }
    },
  );
  server.on('connection', (socket: Socket) => {
    connections.add(socket);
    socket.once('close', () => connections.delete(socket));
  });
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => answerClientError(error, socket, answeredEarly.has(socket)));
  // server.close() calls this, and node's own version also cuts connections whose response has
  // been ended but not yet flushed (a large answer to a slow reader): close only the idle ones.
  server.closeIdleConnections = () => {
    for (const socket of connections) if (!inFlight.has(socket)) socket.destroy();
  };
  await new Promise<void>((ok, fail) => {
    server.once('error', fail);
    server.listen(options.port, options.host, () => {
      server.off('error', fail);
      ok();
    });
  });

  // The text columns are deferred to keep the cold start short; read them a moment after
  // listening, so corruption surfaces at start rather than in some later request.
  const warmUp = setTimeout(() => {
    try {
      warmDataset(current.ds);
    } catch (e) {
      log((e as Error).message);
      options.onFatal?.(e as Error);
    }
  }, 1_000);
  warmUp.unref();

  const reload = (): boolean => {
    try {
      current = load(true);
      api = current.api;
      log(`reloaded ${options.dist}/`);
      return true;
    } catch (e) {
      log(`kept serving the previous data: ${(e as Error).message}`);
      return false;
    }
  };
  // Builds replace dist/ by renaming a complete tree into place, so the manifest's inode or
  // mtime changes exactly once per build; stat polling follows that across the rename.
  const manifest = join(options.dist, 'manifest.json');
  const onChange = (now: Stats, before: Stats) => {
    // a zeroed stat means the file is gone for the instant between the two renames of a swap
    if (now.ino !== 0 && (now.ino !== before.ino || now.mtimeMs !== before.mtimeMs)) reload();
  };
  if (options.watch !== false) watchFile(manifest, { interval: 500, persistent: false }, onChange);

  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    server,
    url: `http://${host}:${address.port}`,
    reload,
    close: (graceMs = 10_000) =>
      new Promise<void>((ok) => {
        closing = true;
        clearTimeout(warmUp);
        unwatchFile(manifest, onChange);
        const force = setTimeout(() => server.closeAllConnections(), graceMs);
        force.unref();
        server.close(() => {
          clearTimeout(force);
          ok();
        });
        server.closeIdleConnections();
      }),
  };
}
