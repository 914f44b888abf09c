// The HTTP adapter: node:http in front of the API core. Everything an answer says comes from the
// core; this file only wires the server's concerns together — connection bounds, protocol-level
// refusals, live data and reloads, CORS, the access log, health checks, draining on shutdown —
// each in its own module beside it.
import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import type { ApiOptions } from '../api/core.ts';
import type { Dataset } from '../query/dataset.ts';
import type { AccessEntry } from './access-log.ts';
import type { PublicSource } from './static-files.ts';
import { cheapFirst } from './cheap-first.ts';
import { connectionBounds } from './connection-bounds.ts';
import { cors, type CorsOrigins } from './cors.ts';
import { listen } from './listen.ts';
import { liveData } from './live-data.ts';
import { remoteData } from './remote-data.ts';
import { isOtherUrl, isRemoteDist } from '../store/read/remote-source.ts';
import { DistError } from '../store/format/manifest.ts';
import type { RowsVerifierOptions } from './rows-verifier.ts';
import { answerClientError, answerConnect, answerExpectation, answerHeadTooLarge } from './protocol-errors.ts';
import { headBytes, MAX_HEAD_BYTES, MAX_HEADERS_KEPT } from './head-size.ts';
import { hasBody } from './request-body.ts';
import { requestHandler } from './request-handler.ts';
import { drainOnClose } from './shutdown.ts';
import { sendableHeaderValue } from '../util/header-value.ts';
import { printable } from '../util/printable.ts';

export { requestHandler };

export interface ServeOptions extends ApiOptions {
  /** a dist/ folder, or the http(s) URL of one on an origin (then polled, see remote-data.ts) */
  dist: string;
  /** how a dist/ folder's event rows are checked at start (see rows-verifier.ts) */
  rowsCheck?: RowsVerifierOptions;
  /** how often a remote dist's manifest is checked (default 30 s) */
  pollMs?: number;
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
  /** one line per request (see access-log.ts); none when absent */
  accessLog?: (entry: AccessEntry) => void;
  /** allowed cross-origin callers; CORS off when absent */
  cors?: CorsOrigins;
  /** data made in memory (aula dev) to serve at start instead of dist/'s */
  dataset?: Dataset;
  /** … and its public files (default: dist/'s) */
  publicFiles?: PublicSource;
}

export interface RunningServer {
  server: Server;
  /** http://host:port of the listening socket */
  url: string;
  /**
   * loads dist/ again and swaps it in, while the old data answers (with a `baseUrl` other than
   * the dist's, the rows' media URLs are rewritten on this thread, and nothing answers meanwhile,
   * store/read/rebase-rows.ts); the old data keeps answering if the new one is broken, and the load is retried with backoff until the dist is complete.
   * Resolves true when the new data is in.
   */
  reload(): Promise<boolean>;
  /**
   * swaps in data made in memory (aula dev) and its public files (default: dist/'s): one
   * assignment, requests in flight finish on the old data
   */
  use(dataset: Dataset, files?: PublicSource): void;
  /** serving the current dist/: false while a reload fails or lags */
  readonly ready: boolean;
  /** the base URL the answers' links use */
  readonly baseUrl: string;
  /** stops accepting, lets in-flight requests finish (at most `graceMs`), then closes */
  close(graceMs?: number): Promise<void>;
}

export async function startServer(options: ServeOptions): Promise<RunningServer> {
  // before the dist is loaded: the API core refuses it too, but only once the data is read
  if (options.cacheControl !== undefined) sendableHeaderValue('cacheControl', options.cacheControl);
  // escaped here, where every message of a server is made into a line (a reload's problem, a
  // remote manifest's built_at carry bytes of the dist or the origin: control characters, a line
  // break forging a log line), for the CLI's log and a host program's alike
  const given = options.log;
  const log = given ? (line: string) => given(printable(line)) : () => {};
  // `ftp://…` was read as a folder of that name: "ftp:/host/dist/manifest.json: missing"
  if (isOtherUrl(options.dist)) throw new DistError(`${options.dist}: a remote dist must be an http(s) URL`);
  const remote = isRemoteDist(options.dist);
  const data = remote ? await remoteData({ ...options, log }) : await liveData({ ...options, log });
  const headersTimeout = options.headersTimeoutMs ?? 10_000;
  const requestTimeout = Math.max(options.requestTimeoutMs ?? 30_000, headersTimeout);
  const expensive = cheapFirst();
  const handle = requestHandler(() => data.api, {
    expensive,
    cors: options.cors ? cors(options.cors) : undefined,
    accessLog: options.accessLog,
    health: () => ({ ready: data.ready, builtAt: data.dataset.manifest.built_at, problem: data.ready ? undefined : data.problem }),
    // a remote dist's public files are the CDN's to serve (README, "Remote dist")
    files: remote ? undefined : () => data.files,
  });
  /** connections whose request was answered while its (ignored) body is still arriving */
  const answeredEarly = new WeakSet<Duplex>();
  const bounds = connectionBounds((req, res) => {
    handle(req, res);
    // (a request without a body is not complete yet either, until its parse ends in this tick)
    if (!req.complete && hasBody(req)) {
      answeredEarly.add(req.socket);
      req.once('end', () => answeredEarly.delete(req.socket));
    }
  });
  const server: Server = createServer(
    {
      requestTimeout,
      headersTimeout,
      // node checks the two timeouts on this interval (default 30 s, which would stretch them)
      connectionsCheckingInterval: Math.max(10, Math.min(1_000, Math.floor(headersTimeout / 4))),
      // what node's parser counts of a head (target, names, values); headBytes counts the rest
      maxHeaderSize: MAX_HEAD_BYTES,
      keepAliveTimeout: 5_000,
    },
    (req, res) => {
      if (headBytes(req) > MAX_HEAD_BYTES) {
        answerHeadTooLarge(res);
        return;
      }
      if (drain.closing) res.shouldKeepAlive = false;
      bounds.accept(req, res);
    },
  );
  server.maxHeadersCount = MAX_HEADERS_KEPT;
  const drain = drainOnClose(server, (socket) => bounds.busy(socket));
  bounds.onIdle((socket) => {
    if (drain.closing) socket.destroySoon();
  });
  server.on('connection', (socket: Socket) => {
    bounds.track(socket);
    expensive.connected();
  });
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => answerClientError(error, socket, answeredEarly.has(socket)));
  server.on('connect', answerConnect);
  server.on('checkExpectation', answerExpectation);
  try {
    await listen(server, options.port, options.host);
  } catch (e) {
    data.stop();
    throw e;
  }

  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    server,
    url: `http://${host}:${address.port}`,
    reload: () => data.reload(),
    use: (dataset, files) => {
      if (!data.use) throw new Error('a remote dist is not replaced from memory');
      data.use(dataset, files);
    },
    get ready() {
      return data.ready;
    },
    get baseUrl() {
      return data.dataset.baseUrl;
    },
    close(graceMs = 10_000) {
      data.stop();
      return drain.close(graceMs);
    },
  };
}
