// One request → one answer: the API core's, or the server's own for health checks and CORS
// preflights; then CORS headers and an access-log line where configured. An API request whose
// shape the core counted as expensive is answered after the cheap ones waiting (cheap-first.ts).
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Api } from '../api/core.ts';
import { SERVER_ERROR_BODY, type ApiRequest, type ApiResponse } from '../api/respond.ts';
import { metered, WorkMeter } from '../query/work-budget.ts';
import type { AccessEntry } from './access-log.ts';
import { cheapFirst, type CheapFirst } from './cheap-first.ts';
import type { Cors } from './cors.ts';
import { healthAnswer, isHealthPath, type HealthState } from './health.ts';
import type { StaticFiles } from './static-files.ts';
import { hasBody } from './request-body.ts';
import { requestCosts, requestShapes, type RequestCosts, type Shape } from './request-costs.ts';
import { endWith, flatHeaders, releaseWhenWritten, transportForm, type TransportForm } from './transport.ts';

export interface HandlerOptions {
  cors?: Cors;
  accessLog?: (entry: AccessEntry) => void;
  /** answers /healthz and /readyz from this state; without it they are the core's (404) */
  health?: () => HealthState;
  /** dist/'s public files, answered before the API */
  files?: () => StaticFiles;
  /** what each shape of request cost (default: a new bounded record per handler) */
  costs?: RequestCosts;
  /** the queue of expensive answers (default: one per handler); the server tells it of new connections */
  expensive?: CheapFirst;
}

const header = (value: string | string[] | undefined) => (Array.isArray(value) ? value.join(', ') : value);


export function requestHandler(api: () => Api, options: HandlerOptions = {}) {
  const { cors, accessLog, health, files } = options;
  const costs = options.costs ?? requestCosts();
  const shapes = requestShapes();
  const expensive = options.expensive ?? cheapFirst();
  return (req: IncomingMessage, res: ServerResponse) => {
    const started = accessLog ? performance.now() : 0;
    const raw = req.url ?? '/';
    const method = req.method ?? 'GET';
    // absolute-form request targets (`GET http://host/path`) carry the path after the authority
    const target = raw.charCodeAt(0) === 47 ? raw : raw.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i, '') || '/';
    const q = target.indexOf('?');
    const path = q === -1 ? target : target.slice(0, q);
    const origin = cors ? header(req.headers.origin) : undefined;
    let status: number;
    let bytes = 0;
    /** the work the core counted for this request's answer */
    let spent = 0;
    try {
      // cheap tests first: an API request passes each with a comparison or two
      const own = health && isHealthPath(path) ? healthAnswer(method, path, health()) : null;
      const preflight = cors && !own && method === 'OPTIONS' ? cors.preflight(method, origin, header(req.headers['access-control-request-method']), header(req.headers['access-control-request-headers'])) : null;
      // every method: a public file answers GET and HEAD, and any other method with its own 405
      const statics = files && !own && !preflight ? files() : undefined;
      if (own) {
        status = own.status;
        res.writeHead(status, flatHeaders(cors ? cors.withHeaders(own.headers, origin) : own.headers));
        bytes = method === 'HEAD' ? 0 : Buffer.byteLength(own.body);
        res.end(method === 'HEAD' ? undefined : own.body);
      } else if (preflight) {
        status = 204;
        res.writeHead(status, preflight);
        res.end();
      } else if (statics?.mayAnswer(path) && statics.answer({
        method,
        path,
        acceptEncoding: header(req.headers['accept-encoding']),
        ifNoneMatch: header(req.headers['if-none-match']),
        withHeaders: cors ? (headers) => cors.withHeaders(headers, origin) : undefined,
      }, res)) {
        status = res.statusCode;
        bytes = method === 'HEAD' ? 0 : Number(res.getHeader('Content-Length') ?? 0);
      } else {
        const query = q === -1 ? '' : target.slice(q + 1);
        const accept = header(req.headers.accept);
        // HEAD is answered as GET, its body left unsent: its headers are then the GET's as they go
        // out, compressed for the client's Accept-Encoding (length, weak ETag, Vary)
        const request = { method: method === 'HEAD' ? 'GET' : method, path, query, headers: { accept, 'if-none-match': header(req.headers['if-none-match']) } };
        // an answer the core keeps is sent as it is read: no shape to judge, no work to count or queue
        const kept = api().kept?.(request);
        if (kept !== undefined) {
          status = kept.status;
          if (sendAnswer(kept)) return;
        } else {
          const shape = shapes.shapeOf(method, path, query, accept);
          if (costs.expensive(shape)) {
            expensive.later(() => {
              if (res.destroyed) {
                // the connection closed while its answer waited: nobody reads it (logged as nginx
                // logs a client that closed before its answer, 499)
                status = 499;
                done();
                return 0;
              }
              try {
                if (answerApi(request, query, shape)) return spent;
              } catch (e) {
                failed(e);
              }
              done();
              return spent;
            });
            return;
          }
          if (answerApi(request, query, shape)) return;
        }
      }
    } catch (e) {
      failed(e);
    }
    done();

    /** Answers from the API core and records the work it counted; true when the answer is sent later. */
    function answerApi(request: ApiRequest, query: string, shape: Shape): boolean {
      // counts what the core's own meter charges (it nests), including a refused request's work
      const meter = new WorkMeter(Infinity);
      const response = metered(meter, () => api()(request));
      // a name first seen here is known from now on: its cost is the new shape's, not the old one's
      if (shapes.learn(query, response.status, response.headers['X-Ignored-Parameters'])) shape = shapes.shapeOf(method, path, query, request.headers.accept);
      costs.record(shape, meter.used);
      spent = meter.used;
      status = response.status;
      return sendAnswer(response);
    }

    /** Writes the core's answer; true when it is sent later (compressed off the event loop). */
    function sendAnswer(response: ApiResponse): boolean {
      const send = ({ headers, body }: TransportForm) => {
        // the core's answers carry their header list, made once: written as it is
        res.writeHead(status, cors ? flatHeaders(cors.withHeaders(headers, origin)) : headers === response.headers && response.headerList ? (response.headerList as string[]) : flatHeaders(headers));
        bytes = endWith(res, method === 'HEAD' ? undefined : body);
        releaseWhenWritten(res, response.body);
      };
      const form = transportForm(response, header(req.headers['accept-encoding']));
      if (form instanceof Promise) {
        // a large answer compressed off the event loop: sent when it is ready
        form.then(send, (e: unknown) => {
          releaseWhenWritten(res, response.body);
          failed(e);
        }).finally(done);
        return true;
      }
      send(form);
      return false;
    }

    function failed(e: unknown): void {
      console.error(e);
      status = 500;
      bytes = SERVER_ERROR_BODY.length;
      if (res.headersSent) {
        res.destroy();
        return;
      }
      res.writeHead(500, { 'Content-Type': 'application/json', 'Content-Length': String(SERVER_ERROR_BODY.length) });
      res.end(SERVER_ERROR_BODY);
    }

    function done(): void {
      // a body sent with GET is not read; drain it so the connection stays usable (resuming a request
      // that has none costs a stream state change per request: ~7 % of a cached answer's throughput)
      if (hasBody(req)) req.resume();
      accessLog?.({ method, target: raw, status, bytes, ms: performance.now() - started });
    }
  };
}
