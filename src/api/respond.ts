// The response type of the API core and the headers every answer carries.
import type { ApiBody } from './body.ts';

export interface ApiRequest {
  method: string;
  /** the path without the base URL's path prefix, e.g. `/v1/cms/event/` */
  path: string;
  /** the raw query string, without `?` */
  query: string;
  headers: { accept?: string; 'if-none-match'?: string };
}

export interface ApiResponse {
  status: number;
  headers: Record<string, string>;
  /** text, or bytes, or byte chunks where the answer is joined from stored UTF-8 (events): see body.ts */
  body: ApiBody;
  /**
   * `headers` as node's flat [name, value, …] list, when the core made it with the answer (its
   * finished answers have it): a server writes it as it is, with no per-request header work.
   */
  headerList?: readonly string[];
}

export const ALLOW = 'GET, HEAD, OPTIONS';

/** A request target (`/path?query`) as the core takes it: path and query split, both undecoded. */
export function splitTarget(target: string): { path: string; query: string } {
  const q = target.indexOf('?');
  return q === -1 ? { path: target, query: '' } : { path: target.slice(0, q), query: target.slice(q + 1) };
}

/** What an adapter answers when the core throws: a bug, so nothing about it goes to the client. */
export const SERVER_ERROR_BODY = '{"detail":"A server error occurred."}';

/** Headers of every API answer, as the reference stack sends them. */
export function baseHeaders(contentType = 'application/json'): Record<string, string> {
  return {
    'Content-Type': contentType,
    Vary: 'Accept',
    Allow: ALLOW,
    'X-Frame-Options': 'DENY',
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'same-origin',
  };
}

export function json(status: number, body: ApiBody, extra: Record<string, string> = {}): ApiResponse {
  return { status, headers: { ...baseHeaders(), ...extra }, body };
}

export function detail(status: number, message: string, extra: Record<string, string> = {}): ApiResponse {
  return json(status, JSON.stringify({ detail: message }), extra);
}

export const notFound = () => detail(404, 'Not found.');
/** DRF's 405 for `method` (a route's; a public file's names what it allows in `Allow`). */
export const methodNotAllowed = (method: string, extra: Record<string, string> = {}) => detail(405, `Method "${method}" not allowed.`, extra);
export const notAcceptable = () => detail(406, 'Could not satisfy the request Accept header.');

/**
 * The answer to a request that would need more work than one request may do (query/work-budget.ts):
 * a 400 naming what was too expensive and the limit, never a partial result. Counted work, so the
 * same request gets it on every machine and in every runtime.
 */
export function tooExpensive(what: string, limit: number, extra: Record<string, string> = {}): ApiResponse {
  return detail(
    400,
    `Too expensive: ${what} needs more work than one request may do (${limit} units). Narrow the query: add a filter, give a pattern a longer literal text, or ask for fewer results.`,
    extra,
  );
}

/** A 400 in django-filter's shape: parameter name → messages. */
export function invalid(errors: Readonly<Record<string, readonly string[]>>, extra: Record<string, string> = {}): ApiResponse {
  return json(400, JSON.stringify(errors), extra);
}

/** Whether an If-None-Match header names the tag (weak comparison, as RFC 9110 asks for GET/HEAD). */
export function matchesEtag(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === '*') return true;
  const opaque = etag.replace(/^W\//, '');
  return header.split(',').some((t) => t.trim().replace(/^W\//, '') === opaque);
}

/** `X-Ignored-Parameters`: the parameters a route did not use, so a typo does not pass silently. */
export function ignoredHeader(names: readonly string[]): Record<string, string> {
  // (a parameter without a name, `?=5` or `?+=5`, is ignored too, but there is no name to tell:
  // a header of white space alone goes out empty, HTTP trims a value's ends)
  const named = names.filter((n) => n.trim() !== '');
  return named.length ? { 'X-Ignored-Parameters': [...new Set(named)].join(', ') } : {};
}
