// Front-server configs that answer the default event list's URLs from the static page files in
// dist/ and send every other request to the bundled server. A page file is the server's exact
// answer only for the exact query it was cut for, so each target matches as exactly as its
// rule language allows and says plainly where it cannot.
import { DEFAULT_CACHE_CONTROL } from '../api/core.ts';
import { baseHeaders } from '../api/respond.ts';
import type { Manifest } from '../store/manifest.ts';
import { JSON_ACCEPT, NO_ACCEPT, staticPages, upstreamOrigin } from './pages.ts';

export interface NginxOptions {
  /** the bundled server, e.g. http://127.0.0.1:8000 */
  upstream: string;
  /** the dist/ folder on the nginx host */
  root: string;
  /** Cache-Control of the static answers; should equal `aula serve --cache-control` */
  cacheControl?: string;
}

export interface NginxSnippets {
  /** for the http {} context */
  http: string;
  /** for a server {} block */
  server: string;
}

/** A path nginx never finds, so try_files falls through to the server. */
const NO_PAGE = '/.aula-no-static-page';

function nginxString(value: string): string {
  // `$` would be read as a variable and `\`/`"` as escapes; none occur in a sane dist path
  if (/["\\$\n\r]/.test(value)) throw new Error(`cannot put ${JSON.stringify(value)} into an nginx config`);
  return `"${value}"`;
}

export function nginxConfig(manifest: Manifest, options: NginxOptions): NginxSnippets {
  const pages = staticPages(manifest);
  const upstream = upstreamOrigin(options.upstream);
  const L = pages.limit;
  // Map strings match case-insensitively in nginx, but query names are case-sensitive for the
  // server (`LIMIT=20` is an unknown parameter echoed in the links), hence regexes throughout.
  const http = `# aula: static pages of ${pages.listPath} (page size ${L}), generated from dist/manifest.json.
# A page file answers only GET/HEAD with exactly no query, \`limit=${L}\` or \`limit=${L}&offset=<n>\`,
# asking for JSON; anything else, and offsets without a file, go to the aula server.
map $http_accept $aula_accepts_json {
    default 0;
    "" 1;
    "~*${JSON_ACCEPT}" 1;
}

map "$request_method $aula_accepts_json $args" $aula_event_page {
    default ${NO_PAGE};
    "~^(?:GET|HEAD) 1 (?:limit=${L})?$" ${pages.first};
    "~^(?:GET|HEAD) 1 limit=${L}&offset=(?<aula_offset>[1-9][0-9]*)$" ${pages.further('${aula_offset}')};
}
`;
  const headers = Object.entries({ ...baseHeaders(), 'Cache-Control': options.cacheControl ?? DEFAULT_CACHE_CONTROL })
    .filter(([name]) => name !== 'Content-Type')
    .map(([name, value]) => `    add_header ${name} ${nginxString(value)} always;`);
  const proxy = [
    `    proxy_pass ${upstream};`,
    '    proxy_set_header Host $host;',
    '    proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;',
    '    proxy_set_header X-Forwarded-Proto $scheme;',
  ];
  const server = [
    '# aula: the default event list from files, everything else from the aula server.',
    `location = ${pages.listPath} {`,
    `    root ${nginxString(options.root)};`,
    '    # the headers the server sends with this answer (add_header here hides server-level ones)',
    '    types { }',
    '    default_type application/json;',
    ...headers,
    '    # <page>.json.gz, when the build wrote one, for clients that accept gzip',
    '    gzip_static on;',
    '    gzip_vary on;',
    '    try_files $aula_event_page @aula;',
    '}',
    `location ${pages.prefix}/v1/ {`,
    ...proxy,
    '}',
    'location @aula {',
    ...proxy,
    '}',
    '',
  ].join('\n');
  return { http, server };
}

/**
 * Netlify `_redirects`: one rule per further page, then the proxy. Netlify's query conditions
 * cannot say "and nothing else", which the header comment spells out for whoever deploys it.
 */
export function netlifyRedirects(manifest: Manifest, upstream: string): string {
  const pages = staticPages(manifest);
  const origin = upstreamOrigin(upstream);
  const L = pages.limit;
  const lines = [
    `# aula: static pages of ${pages.listPath} (page size ${L}), generated from dist/manifest.json; regenerate with every build.`,
    '#',
    '# LIMITATION: a Netlify rule with query conditions also matches when the request carries MORE',
    `# parameters. \`?title__icontains=a&limit=${L}&offset=${L}\` would get the unfiltered static page, not`,
    '# the filtered answer. Use these rules only if every client that filters (or uses expand, fields,',
    `# omit, format) sends such requests straight to the server, or never pairs them with limit=${L} and an`,
    '# offset of a page boundary; otherwise delete the page rules and let the proxy answer everything.',
    '# For the same reason the bare list URL (no query at all) cannot be told apart from a filtered one',
    '# and always goes to the server, and browsers asking for HTML get the JSON page, not the browsable API.',
    // Literal values (not `limit=:limit offset=:offset`): a placeholder would take any limit and
    // serve a page of the wrong size, and an offset off a page boundary would hit a missing file.
    ...pages.offsets.map((offset) => `${pages.listPath}  limit=${L}  offset=${offset}  ${pages.further(offset)}  200`),
    `${pages.prefix}/v1/*  ${origin}${pages.prefix}/v1/:splat  200`,
  ];
  return `${lines.join('\n')}\n`;
}

interface VercelCondition {
  type: 'query' | 'header';
  key: string;
  value?: string;
}

interface VercelRewrite {
  source: string;
  has?: VercelCondition[];
  missing?: VercelCondition[];
  destination: string;
}

/**
 * vercel.json: the pages under `has` (limit, offset) and `missing` (every other known parameter,
 * and an Accept header under which the server would not answer JSON) conditions, then the proxy.
 * Parameters the API does not know cannot be excluded (Vercel has no "no other parameters"
 * condition); the server would echo them in the `next`/`previous` links.
 */
export function vercelConfig(manifest: Manifest, upstream: string, knownParams: Iterable<string>): string {
  const pages = staticPages(manifest);
  const origin = upstreamOrigin(upstream);
  const others = [...new Set(knownParams)].filter((name) => name !== 'limit' && name !== 'offset').sort();
  const notJson: VercelCondition = { type: 'header', key: 'accept', value: `^(?!(?:${NO_ACCEPT.slice(1, -1)}|${JSON_ACCEPT.slice(1, -1)})$).*$` };
  const missing = (...names: string[]): VercelCondition[] => [...[...names, ...others].map((key) => ({ type: 'query' as const, key })), notJson];
  const limit: VercelCondition = { type: 'query', key: 'limit', value: `^${pages.limit}$` };
  const rewrites: VercelRewrite[] = [];
  if (pages.offsets.length > 0) {
    rewrites.push({
      source: pages.listPath,
      has: [limit, { type: 'query', key: 'offset', value: `^(?<offset>${pages.offsets.join('|')})$` }],
      missing: missing(),
      destination: pages.further(':offset'),
    });
  }
  rewrites.push(
    { source: pages.listPath, has: [limit], missing: missing('offset'), destination: pages.first },
    { source: pages.listPath, missing: missing('limit', 'offset'), destination: pages.first },
    // a named group keeps the trailing slash, which `:path*` would drop (and the server redirect back)
    { source: `${pages.prefix}/v1/:path(.*)`, destination: `${origin}${pages.prefix}/v1/:path` },
  );
  return `${JSON.stringify({ $schema: 'https://openapi.vercel.sh/vercel.json', rewrites }, null, 2)}\n`;
}
