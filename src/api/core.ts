// The API core: one pure function from a request to a response over a loaded dataset. The build
// calls it to write the static pages, the server calls it for every request, so a static page
// and the server's answer for the same URL are the same bytes.
import type { Dataset } from '../query/dataset.ts';
import { ResponseCache, type CacheLimits } from './cache.ts';
import { renderHtml } from './html.ts';
import { describeRoutes, metadataBody } from './metadata.ts';
import { negotiate } from './negotiate.ts';
import { QueryParams } from '../query/query-dict.ts';
import { bodyByteLength } from './body.ts';
import { datasetTag, etagFor } from './etag.ts';
import {
  baseHeaders, json, matchesEtag, methodNotAllowed, notAcceptable, notFound, tooExpensive,
  type ApiRequest, type ApiResponse,
} from './respond.ts';
import { DEFAULT_WORK_LIMIT, metered, unmetered, WorkLimitExceeded, WorkMeter } from '../query/work-budget.ts';
import { DEFAULT_CACHE_CONTROL } from '../defaults.ts';
import { matchRoute, routes } from './router.ts';
import { sendableHeaderValue } from '../util/header-value.ts';

export interface ApiOptions {
  /** Cache-Control of successful answers */
  cacheControl?: string;
  /** bounds of the in-memory cache of finished answers */
  cacheLimits?: CacheLimits;
  /**
   * The cache keeps its bodies on the page pool and gives them back when it drops them (see
   * api/cache.ts): only for a caller that pins a cached body while a write of it is under way and
   * keeps no body past that (the server, server/transport.ts).
   */
  pooledCache?: boolean;
  /**
   * Units of work one request may do (query/work-budget.ts; default DEFAULT_WORK_LIMIT, about
   * 20 ms of one core). A request that needs more is answered 400 "Too expensive".
   */
  workLimit?: number;
}

export { DEFAULT_CACHE_CONTROL };

export interface Api {
  (request: ApiRequest): ApiResponse;
  /**
   * The answer when the core keeps it (a cache hit), else undefined: an answer with no work left
   * to do, which a server sends at once, without judging or counting its cost (it has none).
   */
  kept?(request: ApiRequest): ApiResponse | undefined;
}

/** X-Ignored-Parameters repeats the request: capped so proxies' header buffers (nginx: 4–8 KB) hold it. */
const MAX_IGNORED_HEADER = 1024;

/**
 * Header values go on the wire as bytes, and node refuses anything outside latin-1 or any control
 * character: what a header reflects from the request (parameter names, the path) is written as
 * printable ASCII, everything else percent-encoded as UTF-8.
 */
/** Header values that need no rewriting: printable ASCII, short enough (every header the core makes itself). */
const PLAIN_HEADER = /^[\x20-\x7e]{0,1024}$/;

/** The values of the headers every answer carries (baseHeaders): written as they are, without a test. */
const BASE_VALUES = new Set([...Object.values(baseHeaders()), ...Object.values(baseHeaders('text/html; charset=utf-8'))]);

function headerValue(name: string, value: string): string {
  if (PLAIN_HEADER.test(value)) return value;
  let v = value.replace(/[^\x20-\x7e]/gu, (c) => Array.from(Buffer.from(c), (b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`).join(''));
  if (name === 'X-Ignored-Parameters' && v.length > MAX_IGNORED_HEADER) {
    const cut = v.lastIndexOf(', ', MAX_IGNORED_HEADER - 5);
    v = `${v.slice(0, cut > 0 ? cut : MAX_IGNORED_HEADER - 5)}, ...`;
  }
  return v;
}

/** The route's answer, or the 400 of a request that needs more work than it may do (then shown as HTML to a browser, as other 400s are). */
function refusedWhenTooExpensive(work: () => ApiResponse): ApiResponse {
  try {
    return work();
  } catch (e) {
    if (e instanceof WorkLimitExceeded) return tooExpensive(e.what, e.limit);
    throw e;
  }
}

/** The request's absolute URL under the base URL, as JSON: what a browser follows from a page too large to show whole. */
function jsonUrl(baseUrl: string, path: string, params: QueryParams): string {
  const pairs = params.pairs.filter(([k]) => k !== 'format');
  pairs.push(['format', 'json']);
  return `${baseUrl}${path}?${pairs.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&')}`;
}

function decodePath(path: string): string | null {
  if (!path.includes('%')) return path;
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

/** The manifest without its public files and how they were compressed, as JSON. */
function describedText(manifest: Dataset['manifest']): string {
  const { public_files: _files, precompressed: _compressed, ...described } = manifest;
  return JSON.stringify(described);
}

export function createApi(ds: Dataset, options: ApiOptions = {}): Api {
  const table = routes(describeRoutes);
  const prefix = basePath(ds.baseUrl);
  // refused here, once: a value Node will not send made every successful answer a 500
  const cacheControl = sendableHeaderValue('cacheControl', options.cacheControl ?? DEFAULT_CACHE_CONTROL);
  const cache = new ResponseCache(options.cacheLimits, options.pooledCache);
  // Answers depend on the data the manifest describes, not on its list of public files or how
  // they were compressed: those (most of a large dist's manifest) are left out of the tag. The
  // build's id is a digest of the same (manifest.ts): where there is one, the tag is made of it,
  // not of the manifest's text again, on every start of a process or an isolate.
  const manifestText = ds.manifest.build_id ?? describedText(ds.manifest);
  const tag = datasetTag(manifestText, ds.baseUrl);
  // which build answered, for checking a rolling deploy (dists from before build_id: a digest of the manifest)
  const build = ds.manifest.build_id ?? datasetTag(manifestText, '');
  const workLimit = options.workLimit ?? DEFAULT_WORK_LIMIT;

  /** The answer, computed under the request's work limit. */
  function budgeted(request: ApiRequest): ApiResponse {
    return refusedWhenTooExpensive(() => metered(new WorkMeter(workLimit), () => answer(request)));
  }

  /** Adds what depends only on the answer itself: validator, caching policy, length. */
  function complete(response: ApiResponse, key: string): Finished {
    // the header object and node's flat list of it, made in one pass
    const headers: Record<string, string> = {};
    const list: string[] = [];
    const add = (name: string, value: string) => {
      headers[name] = value;
      list.push(name, value);
    };
    for (const name in response.headers) {
      const value = response.headers[name];
      add(name, BASE_VALUES.has(value) ? value : headerValue(name, value));
    }
    if (response.status === 200) {
      add('ETag', etagFor(tag, key));
      add('Cache-Control', cacheControl);
    }
    add('X-Aula-Build', build);
    add('Content-Length', String(bodyByteLength(response.body)));
    return finished(response.status, headers, response.body, list);
  }

  /** Adds what depends on the request: a 304 for a matching validator, no body for HEAD. */
  function deliver(request: ApiRequest, response: Finished): ApiResponse {
    const etag = response.headers.ETag;
    const conditional = request.headers['if-none-match'];
    if (conditional !== undefined && etag && matchesEtag(conditional, etag)) {
      // made once per answer: a cached answer revalidated over and over costs a lookup
      return (response.notModified ??= finished(304, pick(response.headers, ['ETag', 'Cache-Control', 'Vary', 'X-Ignored-Parameters', 'X-Aula-Build']), ''));
    }
    return request.method === 'HEAD' ? (response.head ??= finished(response.status, response.headers, '', response.headerList)) : response;
  }

  function answer(request: ApiRequest): ApiResponse {
    const decoded = decodePath(request.path);
    if (decoded === null) return notFound();
    const path = prefix && decoded.startsWith(`${prefix}/`) ? decoded.slice(prefix.length) : decoded;
    const found = matchRoute(table, path);
    if (!found) {
      // Django's APPEND_SLASH: a known path missing its slash is redirected, query kept.
      if (!path.endsWith('/') && matchRoute(table, `${path}/`)) {
        const location = `${request.path}/${request.query ? `?${request.query}` : ''}`;
        return { status: 301, headers: { ...baseHeaders(), Location: location }, body: '' };
      }
      return notFound();
    }
    if (request.method !== 'GET' && request.method !== 'HEAD' && request.method !== 'OPTIONS') {
      return methodNotAllowed(request.method);
    }
    const params = QueryParams.parse(request.query);
    const { route, match } = found;
    const format = params.get('format');
    // (own keys only: `?format=__proto__` or `constructor` names no format)
    const routeFormat = format !== undefined && route.formats !== undefined && Object.hasOwn(route.formats, format) ? route.formats[format] : undefined;
    if (routeFormat && request.method !== 'OPTIONS') return refusedWhenTooExpensive(() => routeFormat(ds, params));
    // OPTIONS describes the route in JSON whatever format its GET would answer in (`?format=ics`)
    const negotiated = negotiate(routeFormat ? undefined : format, request.headers.accept);
    if (!negotiated.ok) return negotiated.status === 404 ? notFound() : notAcceptable();
    const response =
      request.method === 'OPTIONS' ? json(200, metadataBody(route.name, route.describe())) : refusedWhenTooExpensive(() => route.handle(ds, params, match));
    if (negotiated.renderer === 'html') {
      const requestLine = `${request.path}${request.query ? `?${request.query}` : ''}`;
      const info = { name: route.name, requestLine, params, jsonUrl: jsonUrl(ds.baseUrl, path, params) };
      let shown = response;
      let page: string;
      try {
        page = renderHtml(response, info);
      } catch (e) {
        if (!(e instanceof WorkLimitExceeded)) throw e;
        // the refusal is a short page, made outside the request's spent budget
        shown = tooExpensive(e.what, e.limit, pick(response.headers, ['X-Ignored-Parameters']));
        page = unmetered(() => renderHtml(shown, info));
      }
      return { status: shown.status, headers: { ...shown.headers, 'Content-Type': 'text/html; charset=utf-8' }, body: page };
    }
    return response;
  }

  // GET and HEAD share one entry: HEAD is GET without the body.
  const cacheable = (request: ApiRequest) => request.method === 'GET' || request.method === 'HEAD';
  const keyOf = (request: ApiRequest, cached: boolean) => `${cached ? '' : `${request.method} `}${request.path}?${request.query}\n${request.headers.accept ?? ''}`;

  // The server asks kept() and, on a miss, the core itself for the same request object: the key
  // kept() made is used again, not built and hashed a second time. A hit found meanwhile (an
  // answer queued by cheap-first while another kept it) is still found: only the key is reused.
  let missed: ApiRequest | undefined;
  let missedKey = '';

  const handle: Api = (request) => {
    const cached = cacheable(request);
    const key = cached && request === missed ? missedKey : keyOf(request, cached);
    missed = undefined;
    let response = cached ? (cache.get(key) as Finished | undefined) : undefined;
    if (!response) {
      // the key holds all an answer depends on besides the dataset: its tag is the answer's ETag
      response = complete(budgeted(request.method === 'HEAD' ? { ...request, method: 'GET' } : request), key);
      if (cached) cache.offer(key, response);
    }
    return deliver(request, response);
  };
  handle.kept = (request) => {
    if (!cacheable(request)) return undefined;
    const key = keyOf(request, true);
    const hit = cache.get(key) as Finished | undefined;
    if (hit !== undefined) return deliver(request, hit);
    missed = request;
    missedKey = key;
    return undefined;
  };
  return handle;
}

/** A finished answer: its header list made once, and its HEAD and 304 forms once each when asked for. */
interface Finished extends ApiResponse {
  headerList: readonly string[];
  head?: ApiResponse;
  notModified?: ApiResponse;
}

function finished(status: number, headers: Record<string, string>, body: ApiResponse['body'], list?: readonly string[]): Finished {
  let headerList = list;
  if (!headerList) {
    const flat: string[] = [];
    for (const name in headers) flat.push(name, headers[name]);
    headerList = flat;
  }
  return { status, headers, body, headerList };
}

function pick(headers: Record<string, string>, names: readonly string[]): Record<string, string> {
  return Object.fromEntries(names.filter((n) => n in headers).map((n) => [n, headers[n]]));
}
