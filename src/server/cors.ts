// Cross-origin access (`serve --cors`), off unless asked for: a static site on another origin may
// call the API. The API is read-only and sends no credentials, so a listed origin (or `*`) may
// read every answer; preflights are answered here without reaching the core. With a list, every
// answer varies on Origin, so a shared cache keeps the variants apart.

import { ALLOW } from '../api/respond.ts';

export type CorsOrigins = '*' | readonly string[];

/** what a client may read beyond the CORS-safelisted headers */
const EXPOSE = 'ETag, X-Ignored-Parameters, X-Aula-Build, X-Calendar-Truncated';
const MAX_AGE = '86400';
const DEFAULT_ALLOW_HEADERS = 'Accept, Accept-Language, If-None-Match';

/** `*` or a comma list of origins (`https://site.example`, `http://localhost:3000`); throws on anything else. */
export function parseCorsOrigins(value: string): CorsOrigins {
  if (value.trim() === '*') return '*';
  const origins = value.split(',').map((o) => o.trim()).filter((o) => o !== '');
  if (origins.length === 0) throw new Error('expected * or a comma-separated list of origins');
  return origins.map((origin) => {
    let url: URL;
    try {
      url = new URL(origin);
    } catch {
      throw new Error(`not an origin: ${origin} (expected e.g. https://site.example)`);
    }
    if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.origin !== origin.replace(/\/$/, '')) {
      throw new Error(`not an origin: ${origin} (expected scheme://host[:port], nothing after it)`);
    }
    return url.origin;
  });
}

export interface Cors {
  /** headers of a preflight's 204, or null when the request is no preflight from an allowed origin */
  preflight(method: string, origin: string | undefined, requestMethod: string | undefined, requestHeaders: string | undefined): Record<string, string> | null;
  /** the headers with what CORS adds for this request's Origin */
  withHeaders(headers: Record<string, string>, origin: string | undefined): Record<string, string>;
}

export function cors(origins: CorsOrigins): Cors {
  const any = origins === '*';
  const listed = new Set(any ? [] : origins);
  const allowOrigin = (origin: string | undefined) => (any ? '*' : origin !== undefined && listed.has(origin) ? origin : null);
  /** per answer's headers and allowed origin: made once, as the answers themselves are cached */
  const merged = new WeakMap<Record<string, string>, Map<string, Record<string, string>>>();

  return {
    preflight(method, origin, requestMethod, requestHeaders) {
      if (method !== 'OPTIONS' || origin === undefined || requestMethod === undefined) return null;
      const allowed = allowOrigin(origin);
      if (allowed === null) return null;
      // a header list of tokens is echoed (the API ignores request headers it does not know)
      const headers = requestHeaders !== undefined && /^[\w-]+(?:\s*,\s*[\w-]+)*$/.test(requestHeaders.trim()) ? requestHeaders.trim() : DEFAULT_ALLOW_HEADERS;
      return {
        'Access-Control-Allow-Origin': allowed,
        'Access-Control-Allow-Methods': ALLOW,
        'Access-Control-Allow-Headers': headers,
        'Access-Control-Max-Age': MAX_AGE,
        Vary: any ? 'Access-Control-Request-Headers' : 'Origin, Access-Control-Request-Headers',
        'Content-Length': '0',
      };
    },
    withHeaders(headers, origin) {
      const allowed = allowOrigin(origin) ?? '';
      let forms = merged.get(headers);
      if (!forms) merged.set(headers, (forms = new Map()));
      let result = forms.get(allowed);
      if (!result) {
        result = { ...headers };
        if (allowed) {
          result['Access-Control-Allow-Origin'] = allowed;
          result['Access-Control-Expose-Headers'] = EXPOSE;
        }
        if (!any) result.Vary = result.Vary ? `${result.Vary}, Origin` : 'Origin';
        forms.set(allowed, result);
      }
      return result;
    },
  };
}
