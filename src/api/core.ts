// The API core: one pure function from a request to a response over a loaded dataset. The build
// calls it to write the static pages, the server calls it for every request, so a static page
// and the server's answer for the same URL are the same bytes.
import type { Dataset } from '../store/dataset.ts';
import { renderHtml } from './html.ts';
import { metadataBody } from './metadata.ts';
import { describeRoutes } from './metadata.ts';
import { negotiate } from './negotiate.ts';
import { QueryParams } from './query.ts';
import {
  baseHeaders, detail, etagOf, json, matchesEtag, notAcceptable, notFound,
  type ApiRequest, type ApiResponse,
} from './respond.ts';
import { matchRoute, routes } from './router.ts';

export interface ApiOptions {
  /** Cache-Control of successful answers */
  cacheControl?: string;
}

export const DEFAULT_CACHE_CONTROL = 'public, max-age=60';

export type Api = (request: ApiRequest) => ApiResponse;

function decodePath(path: string): string | null {
  try {
    return decodeURIComponent(path);
  } catch {
    return null;
  }
}

/** The path below the base URL's own path prefix, when the request still carries it. */
function basePath(baseUrl: string): string {
  try {
    return new URL(baseUrl).pathname.replace(/\/+$/, '');
  } catch {
    return '';
  }
}

export function createApi(ds: Dataset, options: ApiOptions = {}): Api {
  const table = routes(describeRoutes);
  const prefix = basePath(ds.baseUrl);
  const cacheControl = options.cacheControl ?? DEFAULT_CACHE_CONTROL;

  function finish(request: ApiRequest, response: ApiResponse): ApiResponse {
    const headers = { ...response.headers };
    let { status, body } = response;
    if (status === 200) {
      headers.ETag = etagOf(body);
      headers['Cache-Control'] = cacheControl;
      if (matchesEtag(request.headers['if-none-match'], headers.ETag)) {
        return { status: 304, headers: pick(headers, ['ETag', 'Cache-Control', 'Vary', 'X-Ignored-Parameters']), body: '' };
      }
    }
    headers['Content-Length'] = String(Buffer.byteLength(body));
    if (request.method === 'HEAD') body = '';
    return { status, headers, body };
  }

  return function handle(request: ApiRequest): ApiResponse {
    const decoded = decodePath(request.path);
    if (decoded === null) return finish(request, notFound());
    const path = prefix && decoded.startsWith(`${prefix}/`) ? decoded.slice(prefix.length) : decoded;
    const found = matchRoute(table, path);
    if (!found) {
      // Django's APPEND_SLASH: a known path missing its slash is redirected, query kept.
      if (!path.endsWith('/') && matchRoute(table, `${path}/`)) {
        const location = `${request.path}/${request.query ? `?${request.query}` : ''}`;
        return finish(request, { status: 301, headers: { ...baseHeaders(), Location: location }, body: '' });
      }
      return finish(request, notFound());
    }
    if (!['GET', 'HEAD', 'OPTIONS'].includes(request.method)) {
      return finish(request, detail(405, `Method "${request.method}" not allowed.`));
    }
    const params = QueryParams.parse(request.query);
    const negotiated = negotiate(params.get('format'), request.headers.accept);
    if (!negotiated.ok) return finish(request, negotiated.status === 404 ? notFound() : notAcceptable());
    const { route, match } = found;
    const response =
      request.method === 'OPTIONS'
        ? json(200, metadataBody(route.name, route.describe()))
        : route.handle(ds, params, match);
    if (negotiated.renderer === 'html') {
      const requestLine = `${request.path}${request.query ? `?${request.query}` : ''}`;
      const page = renderHtml(response, { name: route.name, requestLine, params });
      return finish(request, { status: response.status, headers: { ...response.headers, 'Content-Type': 'text/html; charset=utf-8' }, body: page });
    }
    return finish(request, response);
  };
}

function pick(headers: Record<string, string>, names: readonly string[]): Record<string, string> {
  return Object.fromEntries(names.filter((n) => n in headers).map((n) => [n, headers[n]]));
}
