// The HTTP adapter: node:http in front of the API core. Everything an answer says comes from the
// core; this layer only moves bytes and keeps the connection hygiene (timeouts, limits).
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createApi, type Api, type ApiOptions } from '../api/core.ts';
import { loadDataset } from '../store/dataset.ts';

export interface ServeOptions extends ApiOptions {
  dist: string;
  port: number;
  host: string;
  baseUrl?: string;
}

export interface RunningServer {
  server: Server;
  /** http://host:port of the listening socket */
  url: string;
  close(): Promise<void>;
}

const header = (value: string | string[] | undefined) => (Array.isArray(value) ? value.join(', ') : value);

export function requestHandler(api: () => Api) {
  return (req: IncomingMessage, res: ServerResponse) => {
    const raw = req.url ?? '/';
    // absolute-form request targets (`GET http://host/path`) carry the path after the authority
    const target = /^https?:\/\//i.test(raw) ? raw.replace(/^https?:\/\/[^/?#]*/i, '') || '/' : raw;
    const q = target.indexOf('?');
    const path = q === -1 ? target : target.slice(0, q);
    const query = q === -1 ? '' : target.slice(q + 1);
    try {
      const response = api()({
        method: req.method ?? 'GET',
        path,
        query,
        headers: { accept: header(req.headers.accept), 'if-none-match': header(req.headers['if-none-match']) },
      });
      res.writeHead(response.status, response.headers);
      res.end(response.body);
    } catch (e) {
      console.error(e);
      const body = '{"detail":"A server error occurred."}';
      res.writeHead(500, { 'Content-Type': 'application/json', 'Content-Length': String(body.length) });
      res.end(body);
    }
    // a body sent with GET is not read; drain it so the connection stays usable
    req.resume();
  };
}

export async function startServer(options: ServeOptions): Promise<RunningServer> {
  const api = createApi(loadDataset(options.dist, { baseUrl: options.baseUrl }), options);
  const server = createServer({ requestTimeout: 30_000, headersTimeout: 10_000, maxHeaderSize: 16 * 1024 }, requestHandler(() => api));
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((ok, fail) => {
    server.once('error', fail);
    server.listen(options.port, options.host, () => ok());
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    server,
    url: `http://${host}:${address.port}`,
    close: () =>
      new Promise<void>((ok) => {
        server.close(() => ok());
        server.closeIdleConnections();
      }),
  };
}
