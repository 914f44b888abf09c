// What a front server needs to know about the static pages of the default event list, read from
// dist/manifest.json, plus the request conditions under which a page file is the exact answer.
import { EVENT_LIST_PATH } from '../api/events/list.ts';
import type { Manifest } from '../store/format/manifest.ts';
import { isOriginOnly, plainBasePath } from '../util/base-path.ts';

export interface StaticPages {
  /** the base URL's path without a trailing slash: '' or e.g. '/api' (only PLAIN's characters, so as links and rules write it) */
  prefix: string;
  /** the public path of the list, e.g. '/api/v1/cms/event/' */
  listPath: string;
  /** the page size the pages were cut with */
  limit: number;
  /** the first page's file, rooted at dist/: '/v1/cms/event/index.json' */
  first: string;
  /** offsets of every further page, ascending (L, 2L, …) */
  offsets: number[];
  /** a further page's file, rooted at dist/; `offset` may be a placeholder like `:offset` */
  further(offset: number | string): string;
}

// Only characters that mean nothing special in any of the config languages written from these
// values (no quoting, no `*`/`:`/`(` patterns, no percent-encoding); others never occur in
// practice and would each need escaping per target (the base URL's: util/base-path.ts).
const SAFE_FILE = /^[A-Za-z0-9._/-]+(\{offset\}[A-Za-z0-9._/-]*)?$/;

export function staticPages(manifest: Manifest): StaticPages {
  const { first, further, limit } = manifest.event_list;
  if (!SAFE_FILE.test(first) || !SAFE_FILE.test(further) || !further.includes('{offset}')) {
    throw new Error(`manifest event_list paths are not plain relative paths: ${first}, ${further}`);
  }
  if (!Number.isInteger(limit) || limit < 1) throw new Error(`manifest event_list.limit is not a page size: ${limit}`);
  // (site.yaml and --base-url refuse such paths: only a hand-made manifest gets here with one)
  const prefix = plainBasePath(new URL(manifest.base_url));
  if (prefix === null) throw new Error(`base URL path has characters a routing config cannot hold: ${new URL(manifest.base_url).pathname}`);
  const pages = Math.max(1, manifest.counts.event_list_pages);
  return {
    prefix,
    listPath: `${prefix}${EVENT_LIST_PATH}`,
    limit,
    first: `/${first}`,
    offsets: Array.from({ length: pages - 1 }, (_, i) => (i + 1) * limit),
    further: (offset) => `/${further.replace('{offset}', String(offset))}`,
  };
}

/** The upstream as `scheme://host[:port]`: the bundled server wants the original path, so none may be added. */
export function upstreamOrigin(upstream: string): string {
  const url = new URL(upstream);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(`upstream must be http(s): ${upstream}`);
  if (!isOriginOnly(url)) {
    throw new Error(`upstream must be an origin only (scheme://host:port), the request path is passed unchanged: ${upstream}`);
  }
  return url.origin;
}

/** A range `range` (a regex) among the comma-separated members of the whole header. */
const member = (range: string) => `(?:.*,)? *${range} *(?:,.*)?$`;

/**
 * An Accept header under which the server answers JSON (src/api/negotiate.ts), written so that
 * it can only err towards "ask the server": with no parameters every range has q=1, and then the
 * range naming a type most specifically decides, JSON at a tie: application/json; application
 * with any subtype unless text/html is named; any type unless text/html or text with any subtype is.
 * Anything with a `;` (q-values, charset), other spacing or case is left to the server.
 * Works as PCRE (nginx) and as a JavaScript RegExp (Vercel); the empty header is separate.
 */
export const JSON_ACCEPT = `^(?!.*;)(?:(?=${member('application/json')})|(?=${member('application/[*]')})(?!${member('text/html')})|(?=${member('[*]/[*]')})(?!${member('text/(?:html|[*])')})).*$`;


/** Absent or blank: the server treats it as `*\/*`, i.e. JSON. (nginx: the empty string key, as
 * nginx neither tries regexes on an empty value nor keeps the blanks around a header value) */
export const NO_ACCEPT = '^ *$';
