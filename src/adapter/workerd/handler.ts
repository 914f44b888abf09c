// The API as a Web-standard fetch handler (Cloudflare Workers / workerd). Like the node server,
// it only moves bytes: every API answer comes from the core, so the edge and `aula serve` agree
// byte for byte; dist/'s public files come from ASSETS under the server's headers
// (public-files.ts). Compression is left to the platform, which negotiates it itself.
import { bodyBuffer, bodyByteLength } from '../../api/body.ts';
import { createApi, type Api } from '../../api/core.ts';
import { answerDocument, isDocument } from '../../api/documents.ts';
import { SERVER_ERROR_BODY, splitTarget, type ApiRequest, type ApiResponse } from '../../api/respond.ts';
import { DEFAULT_CACHE_CONTROL } from '../../defaults.ts';
import { EdgeLoadError, loadEdgeDataset, type AssetFetcher, type EdgeFiles } from './assets.ts';
import { EdgePublicFiles } from './public-files.ts';
import { isHeaderValue } from '../../util/header-value.ts';

export interface Env {
  ASSETS: AssetFetcher;
  /** overrides the default refusal threshold, in bytes of data files */
  AULA_MAX_DATA_BYTES?: string;
  /** as `aula serve --base-url`: the URL links and media URLs use instead of the build's */
  AULA_BASE_URL?: string;
  /** as `aula serve --cache-control`: Cache-Control of successful answers */
  AULA_CACHE_CONTROL?: string;
  /** the site's time zone, as the build that wrote the config checked it: a manifest naming it is not checked again per isolate */
  AULA_CHECKED_ZONE?: string;
}

/**
 * Data files above this are refused with a 503 instead of loaded: an isolate holds every file its
 * answers have read and what it made of them, and a dist of this size stays under the 128 MB
 * limit (docs/edge.md) once its answers have needed every file.
 */
export const DEFAULT_MAX_DATA_BYTES = 40_000_000;

/**
 * The server keeps up to 32 MB of finished answers; in a 128 MB isolate that room belongs to the
 * data, so the edge keeps a small cache (the platform's own cache is in front of it anyway).
 */
export const EDGE_CACHE_LIMITS = { entries: 500, bytes: 8 * 1024 * 1024 };

/** The dataset cannot be loaded in this isolate: the same JSON shape as every other error. */
function unavailable(detail: string): Response {
  return new Response(JSON.stringify({ detail }), { status: 503, headers: { 'Content-Type': 'application/json', 'X-Content-Type-Options': 'nosniff' } });
}

/** The request target as sent: path and query undecoded, as the node server sees `req.url`. */
export function toApiRequest(request: Request): ApiRequest {
  const url = request.url;
  const authority = url.indexOf('//');
  const pathStart = url.indexOf('/', authority + 2);
  const target = pathStart === -1 ? '/' : url.slice(pathStart).replace(/#.*$/s, '');
  return {
    method: request.method,
    ...splitTarget(target),
    headers: {
      accept: request.headers.get('Accept') ?? undefined,
      'if-none-match': request.headers.get('If-None-Match') ?? undefined,
    },
  };
}

export function toResponse(answer: ApiResponse): Response {
  // 304 and HEAD answers carry no body; a 301 has an empty one
  const body = answer.status === 304 || bodyByteLength(answer.body) === 0 ? null : typeof answer.body === 'string' ? answer.body : bodyBuffer(answer.body);
  return new Response(body, { status: answer.status, headers: answer.headers });
}

interface Loaded {
  api: Api;
  /** the data files, fetched as answers first need them */
  data: EdgeFiles;
  /** dist/'s public files, answered before the API as by `aula serve` */
  files: EdgePublicFiles;
}

/** One API per isolate, loaded on the first request; a failed load is retried unless it cannot succeed. */
let loading: Promise<Loaded> | null = null;

function load(env: Env): Promise<Loaded> {
  if (!loading) {
    const maxDataBytes = Number(env.AULA_MAX_DATA_BYTES) || DEFAULT_MAX_DATA_BYTES;
    const options = { maxDataBytes, baseUrl: env.AULA_BASE_URL || undefined, checkedZone: env.AULA_CHECKED_ZONE || undefined };
    const cacheControl = env.AULA_CACHE_CONTROL || undefined;
    // a value no answer could carry: said once, as the other refusals are, not a 500 per request
    if (cacheControl !== undefined && !isHeaderValue(cacheControl)) {
      loading = Promise.reject(new EdgeLoadError('AULA_CACHE_CONTROL cannot be sent as a header value (printable characters only, no line breaks); set it as `aula serve --cache-control` takes it.', true));
      return loading;
    }
    loading = loadEdgeDataset(env.ASSETS, options).then(({ dataset, files }) => {
      // under another base URL than the build's, the documents naming it are made anew, as by `aula serve`
      const rebased = dataset.baseUrl !== dataset.manifest.base_url;
      const document = (rel: string) => (rebased && isDocument(rel) ? files.whenLoaded(() => answerDocument(dataset, rel) ?? null) : undefined);
      return {
        api: createApi(dataset, { cacheControl, cacheLimits: EDGE_CACHE_LIMITS }),
        data: files,
        files: new EdgePublicFiles(env.ASSETS, dataset.baseUrl, cacheControl ?? DEFAULT_CACHE_CONTROL, document),
      };
    });
    loading.catch((e) => {
      if (!(e instanceof EdgeLoadError && e.permanent)) loading = null;
    });
  }
  return loading;
}

export async function handle(request: Request, env: Env): Promise<Response> {
  let loaded: Loaded;
  try {
    loaded = await load(env);
  } catch (e) {
    if (e instanceof EdgeLoadError) return unavailable(e.detail);
    console.error(e);
    return unavailable('The API data could not be loaded.');
  }
  try {
    const apiRequest = toApiRequest(request);
    const file = await loaded.files.answer({ method: apiRequest.method, path: apiRequest.path, ifNoneMatch: apiRequest.headers['if-none-match'] });
    return file ?? toResponse(await loaded.data.whenLoaded(() => loaded.api(apiRequest)));
  } catch (e) {
    // a data file this answer needs could not be fetched, or does not match the manifest
    if (e instanceof EdgeLoadError) return unavailable(e.detail);
    console.error(e);
    // as the node server answers it
    return new Response(SERVER_ERROR_BODY, { status: 500, headers: { 'Content-Type': 'application/json' } });
  }
}
