// Front-server configs that answer the default event list's URLs from the static page files in
// dist/ and send every other request to the bundled server. A page file is the server's exact
// answer only for the exact query it was cut for, so each target matches as exactly as its
// rule language allows and says plainly where it cannot.
import { DEFAULT_CACHE_CONTROL } from '../defaults.ts';
import { baseHeaders } from '../api/respond.ts';
import type { Manifest } from '../store/format/manifest.ts';
import { JSON_ACCEPT, NO_ACCEPT, staticPages, upstreamOrigin } from './static-pages.ts';
import { IMMUTABLE_CACHE_CONTROL, IMMUTABLE_FILE_NAMES, isImmutableFile, isScriptedMediaType, MEDIA_DIR, MEDIA_SANDBOX, mediaHeaders, mediaPath, PUBLIC_FILE_NAMES, PUBLIC_TYPES, type MediaFile } from '../store/format/public-files.ts';

/** The public files of a dist/ besides the event pages: what the rules route to files. */
export interface PublicFiles {
  /** relative to dist/, each matching PUBLIC_FILE */
  files: readonly string[];
  media: readonly MediaFile[];
}

const NO_PUBLIC_FILES: PublicFiles = { files: [], media: [] };

/** nginx reads the dist/ folder from this variable, which the including server {} sets. */
export const NGINX_ROOT_VARIABLE = '$aula_root';

export interface NginxOptions {
  /** the bundled server, e.g. http://127.0.0.1:8000 */
  upstream: string;
  /** Cache-Control of the static answers; should equal `aula serve --cache-control` */
  cacheControl?: string;
  /** the public files and media files to answer from dist/ */
  publicFiles?: PublicFiles;
}

export interface NginxSnippets {
  /** for the http {} context: the maps */
  http: string;
  /** for the http {} context: the upstream group `aula`, one server with idle connections kept */
  upstream: string;
  /** for a server {} block */
  server: string;
}

/**
 * The upstream group the generated locations proxy to. `aula nginx` and the build write one with
 * the --upstream server in it; several replicas are a group of this name the operator writes.
 */
export const NGINX_UPSTREAM = 'aula';

/**
 * Idle connections to the server each nginx worker keeps: without them every proxied request
 * opens a TCP connection of its own. Closed by nginx after 4 s idle, before the server's own 5 s
 * keep-alive timeout (src/server/http.ts) could close one nginx is about to reuse.
 */
const KEEPALIVE = ['    keepalive 16;', '    keepalive_timeout 4s;'];

/**
 * nginx's gzip level for a page without a .gz: such pages are asked for seldom and compressed per
 * request, so a level a little above nginx's default 1 buys fewer bytes for little CPU.
 */
const DYNAMIC_GZIP_LEVEL = 5;

/** A path nginx never finds, so try_files falls through to the server. */
const NO_PAGE = '/.aula-no-static-page';

export function nginxString(value: string): string {
  // `$` would be read as a variable and `\`/`"` as escapes; none occur in a sane dist path
  if (/["\\$\n\r]/.test(value)) throw new Error(`cannot put ${JSON.stringify(value)} into an nginx config`);
  return `"${value}"`;
}

export function nginxConfig(manifest: Manifest, options: NginxOptions): NginxSnippets {
  const pages = staticPages(manifest);
  const upstream = upstreamOrigin(options.upstream);
  const { media } = options.publicFiles ?? NO_PUBLIC_FILES;
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

# aula: the media files copied into dist/, by the URL the API gives them.
map $uri $aula_media_file {
    default ${NO_PAGE};
${media.map((m) => `    ${mediaPath(pages.prefix, m.id)} /${m.file};`).join('\n')}
}

# aula: the ${MEDIA_SANDBOX.name} of the media files a browser runs scripts in (HTML, SVG), by
# the file try_files sends ($aula_media_file); none for the rest.
map $aula_media_file $aula_media_policy {
    default "";
${media.filter(isScripted).map((m) => `    /${m.file} ${MEDIA_SANDBOX.value};`).join('\n')}
}
`;
  // Nothing of one build goes into these files (not its X-Aula-Build): nginx reads them once, at
  // start or reload, and must serve every later build of the same site as it is.
  // Vary: one line naming Accept-Encoding on every answer of a page file, which nginx sends
  // compressed or not by the client's Accept-Encoding (gzip_vary would add a second Vary line)
  const headers = Object.entries({ ...baseHeaders(), 'Cache-Control': options.cacheControl ?? DEFAULT_CACHE_CONTROL, Vary: `${baseHeaders().Vary}, Accept-Encoding` })
    .filter(([name]) => name !== 'Content-Type')
    .map(([name, value]) => `    add_header ${name} ${nginxString(value)} always;`);
  const { protocol, hostname, host } = new URL(upstream);
  const tls = protocol === 'https:' ? ['    proxy_ssl_server_name on;', `    proxy_ssl_name ${hostname};`] : [];
  const proxy = [
    `    proxy_pass ${protocol}//${NGINX_UPSTREAM};`,
    '    # HTTP/1.1 without `Connection: close`, so the upstream keepalive connections are reused',
    '    proxy_http_version 1.1;',
    '    proxy_set_header Connection "";',
    '    proxy_set_header Host $host;',
    '    proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;',
    '    proxy_set_header X-Forwarded-Proto $scheme;',
    ...tls,
  ];
  const upstreamBlock = [
    `# aula: the aula server the locations of nginx-server.conf proxy to (aula build --upstream ${upstream}).`,
    `# For several replicas, leave this file out and write your own \`upstream ${NGINX_UPSTREAM} {}\` with them.`,
    `upstream ${NGINX_UPSTREAM} {`,
    `    server ${host.includes(':') && !host.endsWith(']') ? host : `${host}:${protocol === 'https:' ? 443 : 80}`};`,
    ...KEEPALIVE,
    '}',
    '',
  ].join('\n');
  const prefixRegex = pages.prefix.replace(/[.~]/g, '\\$&');
  const plainHeaders = [
    `    add_header Cache-Control ${nginxString(options.cacheControl ?? DEFAULT_CACHE_CONTROL)} always;`,
    '    add_header X-Content-Type-Options "nosniff" always;',
  ];
  // nginx names a type by extension; media files keep theirs, which is what their type was read from
  const mediaTypes = new Map<string, string>();
  for (const m of media) {
    const ext = m.file.slice(m.file.lastIndexOf('/') + 1).split('.').slice(1).pop();
    if (ext && !mediaTypes.has(ext)) mediaTypes.set(ext, m.mimetype);
  }
  const server = [
    `# aula: the default event list and the public files of dist/ from files, everything else from the`,
    `# aula server. Include this in a server {} block that first sets ${NGINX_ROOT_VARIABLE} to where dist/ is:`,
    `#     set ${NGINX_ROOT_VARIABLE} /srv/site/dist;`,
    `location = ${pages.listPath} {`,
    `    root ${NGINX_ROOT_VARIABLE};`,
    '    # the headers the server sends with this answer (add_header here hides server-level ones)',
    '    types { }',
    '    default_type application/json;',
    ...headers,
    '    # for clients that accept gzip: <page>.json.gz where the build wrote one (the first pages),',
    '    # else the page compressed here (deeper pages have no twins: precompress.ts, pageHasTwins)',
    '    gzip_static on;',
    '    gzip on;',
    '    gzip_types application/json;',
    `    gzip_comp_level ${DYNAMIC_GZIP_LEVEL};`,
    '    gzip_vary off;',
    '    try_files $aula_event_page @aula;',
    '}',
    // first: regex locations are tried in order, and the next one matches these names too
    '# the content-hashed autocomplete module and index: their bytes never change under that name',
    `location ~ "^${prefixRegex}/(${IMMUTABLE_FILE_NAMES})$" {`,
    ...publicFileLocation([`    add_header Cache-Control ${nginxString(IMMUTABLE_CACHE_CONTROL)} always;`, plainHeaders[1]]),
    '# the calendar, the OpenAPI document, the JSON Schemas, the autocomplete module and its index',
    `location ~ "^${prefixRegex}/(${PUBLIC_FILE_NAMES})$" {`,
    ...publicFileLocation(plainHeaders),
    '# media files, at the URL the API gives them (their file name comes from the map)',
    `location ~ "^${prefixRegex}/cms/media/[0-9]+/$" {`,
    `    root ${NGINX_ROOT_VARIABLE};`,
    `    types { ${[...mediaTypes].map(([ext, type]) => `${nginxString(type)} ${ext};`).join(' ')} }`,
    '    default_type application/octet-stream;',
    ...plainHeaders,
    '    # an empty value (every media file but HTML and SVG) sends no header',
    `    add_header ${MEDIA_SANDBOX.name} $aula_media_policy always;`,
    '    try_files $aula_media_file @aula;',
    '}',
    `location ${pages.prefix}/v1/ {`,
    ...proxy,
    '}',
    'location @aula {',
    ...proxy,
    '}',
    '',
  ].join('\n');
  return { http, upstream: upstreamBlock, server };
}

/** The body of an nginx location answering public files from dist/ (the name is its first capture). */
function publicFileLocation(headers: string[]): string[] {
  return [
    `    root ${NGINX_ROOT_VARIABLE};`,
    `    types { ${Object.entries(PUBLIC_TYPES).map(([ext, type]) => `${type.split(';')[0]} ${ext};`).join(' ')} }`,
    '    charset utf-8;',
    `    charset_types ${Object.values(PUBLIC_TYPES).filter((t) => t.includes('charset')).map((t) => t.split(';')[0]).join(' ')};`,
    ...headers,
    // as the server names it on every public file's answer: one line, which gzip_vary would add
    // beside another only where a .gz twin exists
    '    add_header Vary "Accept-Encoding" always;',
    '    gzip_static on;',
    '    gzip_vary off;',
    '    try_files /$1 @aula;',
    '}',
  ];
}

const isScripted = (m: MediaFile) => isScriptedMediaType(m.mimetype);

/**
 * The file names a static host may answer as a document that runs scripts (HTML, XHTML, XML with a
 * stylesheet, SVG), by its own table of extensions: such a media file is sandboxed whatever type
 * the build gives it, in case a host keeps its own Content-Type.
 */
const SCRIPTABLE_NAME = /\.(?:x?html?|xht|shtml|xml|xslt?|svgz?|mht(?:ml)?)$/i;

/**
 * The headers a static host must send with a media file, at its URL and at the file's own path in
 * dist/ (which the host publishes too): `aula serve`'s (mediaHeaders) but its Cache-Control, which
 * stays the host's. The type is the one the build gives it, not the one the host's extension
 * table would (a `.htm` file aula types application/octet-stream is text/html there): the host
 * does not know the type a rewritten path is answered with; the build does. The sandbox goes with
 * a document a browser runs scripts in, by the build's type or by the host's reading of the name.
 */
function hostMediaHeaders(m: MediaFile): [string, string][] {
  const { 'Cache-Control': _hosts, ...headers } = mediaHeaders(m.mimetype, '');
  if (SCRIPTABLE_NAME.test(m.file)) headers[MEDIA_SANDBOX.name] = MEDIA_SANDBOX.value;
  return Object.entries(headers);
}

/** Per media file, its URL and its file's path with its headers (hostMediaHeaders): Netlify's rules cannot match a list of ids. */
function mediaRules(prefix: string, publicFiles: PublicFiles): { path: string; headers: [string, string][] }[] {
  return publicFiles.media.flatMap((m) => {
    const headers = hostMediaHeaders(m);
    return [mediaPath(prefix, m.id), `/${m.file}`].map((path) => ({ path, headers }));
  });
}

/**
 * The longest `source`, and `has` value, vercel.json takes (its schema's maxLength): a list of
 * values alternated in one is split over as few rules as hold it. Vercel counts every rewrite and
 * header rule of a deployment against one cap (2,048 routes), so lists go into alternations, not
 * a rule per value.
 */
export const VERCEL_SOURCE_MAX = 4096;
/** Vercel's cap on one deployment's routes: its rewrites, redirects and header rules together. */
export const VERCEL_MOST_ROUTES = 2048;

/** `values` joined by `|`, in as few alternations as there are when each may have `room` characters. */
function alternations(values: readonly (number | string)[], room: number): string[] {
  const out: string[] = [];
  let current = '';
  for (const value of values) {
    const text = String(value);
    if (current !== '' && current.length + 1 + text.length > room) {
      out.push(current);
      current = '';
    }
    current = current === '' ? text : `${current}|${text}`;
  }
  if (current !== '') out.push(current);
  return out;
}

/**
 * Vercel header rules for the media files: one per set of headers (the type, and the sandbox),
 * matching the URL and the file of every id that has it (`:id(7|9)`, split where a source would
 * pass VERCEL_SOURCE_MAX), at the URL below the base path and at the file at the root.
 */
function vercelMediaRules(prefix: string, publicFiles: PublicFiles): { source: string; headers: [string, string][] }[] {
  const groups = new Map<string, { headers: [string, string][]; ids: number[] }>();
  for (const m of publicFiles.media) {
    const headers = hostMediaHeaders(m);
    const key = JSON.stringify(headers);
    let group = groups.get(key);
    if (!group) groups.set(key, (group = { headers, ids: [] }));
    group.ids.push(m.id);
  }
  const bases = [...new Set([`${prefix}/${MEDIA_DIR}/`, `/${MEDIA_DIR}/`])];
  const room = VERCEL_SOURCE_MAX - Math.max(...bases.map((b) => b.length)) - ':id()/:file(.*)'.length;
  const rules: { source: string; headers: [string, string][] }[] = [];
  for (const { headers, ids } of groups.values()) {
    for (const alternatives of alternations(ids.sort((a, b) => a - b), room)) {
      for (const base of bases) rules.push({ source: `${base}:id(${alternatives})/:file(.*)`, headers });
    }
  }
  return rules;
}

/**
 * Netlify `_headers`: the year-long Cache-Control of the content-hashed files, at their URLs, and
 * the media files' type, no sniffing and sandbox (mediaRules).
 */
export function netlifyHeaders(manifest: Manifest, publicFiles: PublicFiles = NO_PUBLIC_FILES): string {
  const { prefix } = staticPages(manifest);
  const lines = ['# aula: the content-hashed files never change under their name; regenerate with every build.'];
  for (const rel of publicFiles.files.filter(isImmutableFile)) lines.push(`${prefix}/${rel}`, `  Cache-Control: ${IMMUTABLE_CACHE_CONTROL}`);
  if (publicFiles.media.length > 0) lines.push('# aula: media files with their type, unsniffed; HTML and SVG ones sandboxed; at their URL and at their file alike.');
  for (const { path, headers } of mediaRules(prefix, publicFiles)) lines.push(path, ...headers.map(([name, value]) => `  ${name}: ${value}`));
  return `${lines.join('\n')}\n`;
}

/**
 * Netlify `_redirects`: one rule per further page, then the proxy. Netlify's query conditions
 * cannot say "and nothing else", which the header comment spells out for whoever deploys it.
 */
export function netlifyRedirects(manifest: Manifest, upstream: string, publicFiles: PublicFiles = NO_PUBLIC_FILES): string {
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
    ...fileRewrites(pages.prefix, publicFiles).map(([from, to]) => `${from}  ${to}  200`),
    `${pages.prefix}/v1/*  ${origin}${pages.prefix}/v1/:splat  200`,
  ];
  return `${lines.join('\n')}\n`;
}

/**
 * [public URL path, file] of the files a static host must rewrite: the public files when the
 * base URL has a path (dist/ is published at the root), and every media file (its URL names a folder).
 */
function fileRewrites(prefix: string, publicFiles: PublicFiles): [string, string][] {
  const rewrites: [string, string][] = [];
  if (prefix !== '') for (const rel of publicFiles.files) rewrites.push([`${prefix}/${rel}`, `/${rel}`]);
  for (const m of publicFiles.media) rewrites.push([mediaPath(prefix, m.id), `/${m.file}`]);
  return rewrites;
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
export function vercelConfig(manifest: Manifest, upstream: string, knownParams: Iterable<string>, publicFiles: PublicFiles = NO_PUBLIC_FILES): string {
  const pages = staticPages(manifest);
  const origin = upstreamOrigin(upstream);
  const others = [...new Set(knownParams)].filter((name) => name !== 'limit' && name !== 'offset').sort();
  const notJson: VercelCondition = { type: 'header', key: 'accept', value: `^(?!(?:${NO_ACCEPT.slice(1, -1)}|${JSON_ACCEPT.slice(1, -1)})$).*$` };
  const missing = (...names: string[]): VercelCondition[] => [...[...names, ...others].map((key) => ({ type: 'query' as const, key })), notJson];
  const limit: VercelCondition = { type: 'query', key: 'limit', value: `^${pages.limit}$` };
  const rewrites: VercelRewrite[] = [];
  // a site of more than about 700 pages has its offsets in several rules (VERCEL_SOURCE_MAX)
  for (const offsets of alternations(pages.offsets, VERCEL_SOURCE_MAX - '^(?<offset>)$'.length)) {
    rewrites.push({
      source: pages.listPath,
      has: [limit, { type: 'query', key: 'offset', value: `^(?<offset>${offsets})$` }],
      missing: missing(),
      destination: pages.further(':offset'),
    });
  }
  const headers = [
    ...publicFiles.files.filter(isImmutableFile).map((rel) => ({ source: `${pages.prefix}/${rel}`, headers: [{ key: 'Cache-Control', value: IMMUTABLE_CACHE_CONTROL }] })),
    ...vercelMediaRules(pages.prefix, publicFiles).map(({ source, headers: list }) => ({ source, headers: list.map(([key, value]) => ({ key, value })) })),
  ];
  const files = fileRewrites(pages.prefix, publicFiles).map(([source, destination]) => ({ source, destination }));
  // A media file's URL names its record, not its file, so each takes a rewrite of its own; where
  // they would pass Vercel's cap (and the deployment fail), the media URLs go to the server,
  // which answers them from dist/ with the same headers.
  const proxied = rewrites.length + 3 + files.length + headers.length > VERCEL_MOST_ROUTES;
  const media = `${pages.prefix}/${MEDIA_DIR}/`;
  rewrites.push(
    { source: pages.listPath, has: [limit], missing: missing('offset'), destination: pages.first },
    { source: pages.listPath, missing: missing('limit', 'offset'), destination: pages.first },
    ...(proxied ? [...files.filter((f) => !f.source.startsWith(media)), { source: `${media}:id(\\d+)/`, destination: `${origin}${media}:id/` }] : files),
    // a named group keeps the trailing slash, which `:path*` would drop (and the server redirect back)
    { source: `${pages.prefix}/v1/:path(.*)`, destination: `${origin}${pages.prefix}/v1/:path` },
  );
  return `${JSON.stringify({ $schema: 'https://openapi.vercel.sh/vercel.json', rewrites, ...(headers.length ? { headers } : {}) }, null, 2)}\n`;
}
