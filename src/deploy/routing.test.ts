import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { negotiate } from '../api/negotiate.ts';
import { blocksFor } from '../../test/docs/doc-blocks.ts';
import type { Manifest } from '../store/format/manifest.ts';
import { JSON_ACCEPT, staticPages } from './static-pages.ts';
import { netlifyHeaders, netlifyRedirects, nginxConfig, vercelConfig, VERCEL_MOST_ROUTES, VERCEL_SOURCE_MAX } from './routing.ts';

function manifest(baseUrl = 'https://events.example.org', events = 45, limit = 20): Manifest {
  return {
    format: 10,
    version: '0.0.0',
    built_at: '2025-01-01T00:00:00.000Z',
    base_url: baseUrl,
    site: { timezone: 'Europe/Vienna', page_size: limit, max_page_size: 100 },
    counts: { events, pages: 1, categories: 0, media: 0, directory: 0, event_list_pages: Math.max(1, Math.ceil(events / limit)) },
    event_parts: [{ name: '1', rows: events }],
    event_list: { first: 'v1/cms/event/index.json', further: 'v1/cms/event/offset/{offset}.json', limit },
    files: {},
  };
}

const UPSTREAM = 'http://127.0.0.1:8000';

describe('staticPages', () => {
  it('reads prefix, page files and offsets from the manifest', () => {
    const pages = staticPages(manifest('https://example.org/api/', 45));
    expect(pages.prefix).toBe('/api');
    expect(pages.listPath).toBe('/api/v1/cms/event/');
    expect(pages.first).toBe('/v1/cms/event/index.json');
    expect(pages.offsets).toEqual([20, 40]);
    expect(pages.further(40)).toBe('/v1/cms/event/offset/40.json');
  });

  it('has no further pages for a list that fits one page (or is empty)', () => {
    expect(staticPages(manifest(undefined, 20)).offsets).toEqual([]);
    expect(staticPages(manifest(undefined, 0)).offsets).toEqual([]);
  });

  it('refuses what a config could not hold literally', () => {
    expect(() => staticPages(manifest('https://example.org/a b/'))).toThrow(/base URL path/);
    expect(() => staticPages(manifest('https://example.org/:x/'))).toThrow(/base URL path/);
    const odd = manifest();
    odd.event_list.further = 'v1/cms/event/offset/page.json';
    expect(() => staticPages(odd)).toThrow(/event_list/);
  });
});

const PUBLIC = {
  files: ['events.ics', 'openapi.json'],
  media: [
    { id: 7, file: 'cms/media/7/logo.png', mimetype: 'image/png' },
    { id: 9, file: 'cms/media/9/programm.pdf', mimetype: 'application/pdf' },
    { id: 11, file: 'cms/media/11/plan.svg', mimetype: 'image/svg+xml' },
    { id: 12, file: 'cms/media/12/seite.html', mimetype: 'text/html' },
  ],
};

interface VercelConfig {
  headers?: { source: string; headers: { key: string; value: string }[] }[];
}

/**
 * A vercel.json `source` as Vercel matches it (path-to-regexp, strict and case-sensitive): the
 * named groups `:name(pattern)` these rules use, the rest literal.
 */
const sources = new Map<string, RegExp>();
function vercelSource(source: string): RegExp {
  const known = sources.get(source);
  if (known) return known;
  const parts = source.split(/(:[a-z]+\([^()]*\))/);
  const regex = new RegExp(`^${parts.map((p, i) => (i % 2 ? p.slice(p.indexOf('(')) : p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))).join('')}$`);
  sources.set(source, regex);
  return regex;
}

/** The media headers Vercel sends at `path`: every matching rule's, in order. */
function vercelHeadersAt(config: VercelConfig, path: string): [string, string][] {
  return (config.headers ?? [])
    .filter((h) => h.source.includes('/media/') && vercelSource(h.source).test(path))
    .flatMap((h) => h.headers.map(({ key, value }) => [key, value] as [string, string]));
}

describe('public files on static hosts', () => {
  it('Netlify rewrites media URLs to their files, and public files under the base path', () => {
    const rules = netlifyRedirects(manifest('https://example.org/api'), UPSTREAM, PUBLIC).split('\n');
    expect(rules).toContain('/api/events.ics  /events.ics  200');
    expect(rules).toContain('/api/cms/media/7/  /cms/media/7/logo.png  200');
    // before the proxy, which would otherwise take them
    expect(rules.findIndex((r) => r.includes('media/9'))).toBeLessThan(rules.findIndex((r) => r.startsWith('/api/v1/*')));
    // at the root, dist/ is published where the public files' URLs are
    expect(netlifyRedirects(manifest(), UPSTREAM, PUBLIC)).not.toContain('/events.ics');
  });

  it('Vercel has a media header rule per set of headers, not per file: its routes are capped (2,048)', () => {
    const types = ['image/png', 'application/pdf', 'image/svg+xml'];
    const media = Array.from({ length: 3000 }, (_, i) => ({ id: 100_000 + 7 * i, file: `cms/media/${100_000 + 7 * i}/f.${['png', 'pdf', 'svg'][i % 3]}`, mimetype: types[i % 3] }));
    for (const base of ['https://example.org/api', undefined]) {
      const config = JSON.parse(vercelConfig(manifest(base), UPSTREAM, ['format'], { files: [], media }));
      const rules = config.headers.filter((h: { source: string }) => h.source.includes('/media/'));
      // 3 sets of headers, at the URL and the file (one source when they share the root), each
      // split where a source would pass Vercel's 4,096 characters: 6,000 rules before
      expect(rules.length, base).toBeLessThanOrEqual(base ? 12 : 6);
      for (const rule of rules) expect(rule.source.length).toBeLessThanOrEqual(VERCEL_SOURCE_MAX);
      const prefix = base ? '/api' : '';
      for (const [i, m] of media.entries()) {
        const headers: [string, string][] = [['Content-Type', m.mimetype], ['X-Content-Type-Options', 'nosniff'], ...(i % 3 === 2 ? [['Content-Security-Policy', 'sandbox'] as [string, string]] : [])];
        expect(vercelHeadersAt(config, `${prefix}/cms/media/${m.id}/`), m.file).toEqual(headers);
        expect(vercelHeadersAt(config, `/${m.file}`), m.file).toEqual(headers);
      }
    }
  });

  it('Vercel sends the media URLs to the server where a rewrite each would pass its 2,048 routes', () => {
    const media = (n: number) => Array.from({ length: n }, (_, i) => ({ id: 1 + i, file: `cms/media/${1 + i}/f.png`, mimetype: 'image/png' }));
    for (const base of ['https://example.org/api', undefined]) {
      const prefix = base ? '/api' : '';
      const few = JSON.parse(vercelConfig(manifest(base), UPSTREAM, ['format'], { files: PUBLIC.files, media: media(1500) }));
      expect(few.rewrites).toContainEqual({ source: `${prefix}/cms/media/1500/`, destination: '/cms/media/1500/f.png' });
      expect(few.rewrites.length + few.headers.length).toBeLessThanOrEqual(VERCEL_MOST_ROUTES);
      const many = JSON.parse(vercelConfig(manifest(base), UPSTREAM, ['format'], { files: PUBLIC.files, media: media(2100) }));
      expect(many.rewrites.length + many.headers.length).toBeLessThanOrEqual(VERCEL_MOST_ROUTES);
      expect(many.rewrites.filter((r: { source: string }) => r.source.includes('/media/'))).toEqual([
        { source: `${prefix}/cms/media/:id(\\d+)/`, destination: `${new URL(UPSTREAM).origin}${prefix}/cms/media/:id/` },
      ]);
      // the public files keep their rewrites, before the proxy
      if (base) expect(many.rewrites.findIndex((r: { source: string }) => r.source === '/api/openapi.json')).toBeLessThan(many.rewrites.length - 1);
      expect(vercelSource(many.rewrites.find((r: { source: string }) => r.source.includes('/media/')).source).test(`${prefix}/cms/media/2100/`)).toBe(true);
    }
  });

  it('Vercel rewrites the same', () => {
    const { rewrites } = JSON.parse(vercelConfig(manifest('https://example.org/api'), UPSTREAM, ['format'], PUBLIC));
    expect(rewrites).toContainEqual({ source: '/api/openapi.json', destination: '/openapi.json' });
    expect(rewrites).toContainEqual({ source: '/api/cms/media/9/', destination: '/cms/media/9/programm.pdf' });
  });

  it('Netlify and Vercel send every media file\'s type, nosniff, and the sandbox with HTML and SVG ones only, at their URL and their file', () => {
    // a .htm file is application/octet-stream to aula, text/html in the hosts' extension tables
    const media = [...PUBLIC.media, { id: 13, file: 'cms/media/13/alt.htm', mimetype: 'application/octet-stream' }];
    const files = { files: PUBLIC.files, media };
    const expected = media.flatMap((m) => {
      const headers: [string, string][] = [['Content-Type', m.mimetype], ['X-Content-Type-Options', 'nosniff']];
      if ([11, 12, 13].includes(m.id)) headers.push(['Content-Security-Policy', 'sandbox']);
      return [`/api/cms/media/${m.id}/`, `/${m.file}`].map((path) => ({ path, headers }));
    });
    const netlify = netlifyHeaders(manifest('https://example.org/api'), files).split('\n');
    for (const { path, headers } of expected) {
      const at = netlify.indexOf(path);
      expect(netlify.slice(at + 1, at + 1 + headers.length), path).toEqual(headers.map(([name, value]) => `  ${name}: ${value}`));
      expect(netlify[at + 1 + headers.length] ?? '', path).not.toMatch(/^ {2}/);
    }
    expect(netlify.filter((l) => l.includes('Content-Security-Policy'))).toHaveLength(6);
    const vercel = JSON.parse(vercelConfig(manifest('https://example.org/api'), UPSTREAM, ['format'], files));
    for (const { path, headers } of expected) expect(vercelHeadersAt(vercel, path), path).toEqual(headers);
    // a path of no media file gets none of them
    for (const path of ['/api/cms/media/1/', '/api/cms/media/77/', '/cms/media/70/logo.png', '/api/cms/media/7']) expect(vercelHeadersAt(vercel, path), path).toEqual([]);
    // no media file of those types: no sandbox at all
    const plain = { files: PUBLIC.files, media: PUBLIC.media.slice(0, 2) };
    expect(netlifyHeaders(manifest(), plain)).not.toContain('Content-Security-Policy');
    expect(vercelConfig(manifest(), UPSTREAM, ['format'], plain)).not.toContain('Content-Security-Policy');
  });
});

describe('nginxConfig', () => {
  const { http, server } = nginxConfig(manifest('https://example.org/api'), { upstream: UPSTREAM, publicFiles: PUBLIC });

  it('maps exactly the page queries of GET/HEAD JSON requests to page files', () => {
    expect(http).toContain('map "$request_method $aula_accepts_json $args" $aula_event_page {');
    expect(http).toContain('default /.aula-no-static-page;');
    expect(http).toContain('"~^(?:GET|HEAD) 1 (?:limit=20)?$" /v1/cms/event/index.json;');
    expect(http).toContain('"~^(?:GET|HEAD) 1 limit=20&offset=(?<aula_offset>[1-9][0-9]*)$" /v1/cms/event/offset/${aula_offset}.json;');
    // the empty Accept needs the exact key: nginx tries no regex on an empty value
    expect(http).toMatch(/map \$http_accept \$aula_accepts_json \{\n {4}default 0;\n {4}"" 1;\n {4}"~\*\^/);
  });

  it('serves the list location from files with the server headers, else proxies', () => {
    expect(server).toContain('location = /api/v1/cms/event/ {');
    // no path of the build machine: the including server {} sets the root
    expect(server).toContain('root $aula_root;');
    expect(server).not.toMatch(/^\s*root "?\//m);
    expect(server).toContain('try_files $aula_event_page @aula;');
    expect(server).toContain('gzip_static on;');
    // a page without a .gz (past the twinned ones) compressed by nginx: only in the list location
    const list = server.slice(server.indexOf('location = /api/v1/cms/event/ {'));
    expect(list.slice(0, list.indexOf('\n}'))).toMatch(/gzip_static on;\n {4}gzip on;\n {4}gzip_types application\/json;\n {4}gzip_comp_level 5;/);
    expect(server.match(/gzip on;/g)).toHaveLength(1);
    expect(server).toContain('default_type application/json;');
    // one Vary line, naming Accept-Encoding too: gzip_vary would add it as a second line
    expect(server).toContain('add_header Vary "Accept, Accept-Encoding" always;');
    expect(server).not.toContain('gzip_vary on;');
    expect(server).toContain('add_header Cache-Control "public, max-age=60, s-maxage=300, stale-while-revalidate=60, stale-if-error=86400" always;');
    expect(server).toContain('location /api/v1/ {');
    expect(server).toMatch(/location @aula \{\n {4}proxy_pass http:\/\/aula;\n/);
    expect(server).toMatch(/location @aula \{[^}]*proxy_http_version 1\.1;\n {4}proxy_set_header Connection "";\n {4}proxy_set_header Host \$host;/);
    // braces balance, so the snippet can be pasted into a server block
    expect(server.split('{').length).toBe(server.split('}').length);
  });

  it('routes the public files and the media files to dist/, under the base path', () => {
    const hashed = 'autocomplete/(?:autocomplete\\.[0-9a-f]{12}\\.js|index\\.[0-9a-f]{12}\\.json)';
    expect(server).toContain(`location ~ "^/api/(events\\.ics|openapi\\.json|schemas/[a-z0-9-]+\\.schema\\.json|autocomplete/(?:autocomplete\\.js|index\\.json|minisearch\\.json|minisearch-options\\.js)|${hashed})$" {`);
    // the hashed names first (nginx takes the first regex location that matches), cached for a year
    const immutable = server.indexOf(`location ~ "^/api/(${hashed})$" {`);
    expect(immutable).toBeGreaterThan(0);
    expect(immutable).toBeLessThan(server.indexOf('location ~ "^/api/(events'));
    expect(server.slice(immutable, server.indexOf('\n}', immutable))).toContain('add_header Cache-Control "public, max-age=31536000, immutable" always;');
    expect(server).toContain('types { text/calendar ics; application/json json; text/javascript js; }');
    expect(server).toContain('try_files /$1 @aula;');
    expect(server).toContain('location ~ "^/api/cms/media/[0-9]+/$" {');
    expect(server).toContain('types { "image/png" png; "application/pdf" pdf; "image/svg+xml" svg; "text/html" html; }');
    expect(server).toContain('try_files $aula_media_file @aula;');
    expect(http).toContain('map $uri $aula_media_file {\n    default /.aula-no-static-page;\n    /api/cms/media/7/ /cms/media/7/logo.png;\n    /api/cms/media/9/ /cms/media/9/programm.pdf;\n');
  });

  it('sends the sandbox with the HTML and SVG media files only', () => {
    expect(http).toContain('map $aula_media_file $aula_media_policy {\n    default "";\n    /cms/media/11/plan.svg sandbox;\n    /cms/media/12/seite.html sandbox;\n}');
    const media = server.slice(server.indexOf('location ~ "^/api/cms/media/'));
    expect(media.slice(0, media.indexOf('\n}'))).toContain('add_header Content-Security-Policy $aula_media_policy always;');
  });

  it('takes the Cache-Control of the server', () => {
    const { server: s } = nginxConfig(manifest(), { upstream: UPSTREAM, cacheControl: 'no-cache' });
    expect(s).toContain('add_header Cache-Control "no-cache" always;');
    expect(s).toContain('location = /v1/cms/event/ {');
    expect(s).toContain('location /v1/ {');
  });

  it('refuses an upstream with a path and a root nginx would misread', () => {
    expect(() => nginxConfig(manifest(), { upstream: 'http://127.0.0.1:8000/api' })).toThrow(/origin only/);
    expect(() => nginxConfig(manifest(), { upstream: 'unix:/run/aula.sock' })).toThrow(/http/);
    expect(() => nginxConfig(manifest(), { upstream: UPSTREAM, cacheControl: 'max-age=$x' })).toThrow(/nginx/);
  });
});

describe('nginxConfig: the upstream and what a rebuild changes', () => {
  it('defines the upstream group with idle connections kept, which both proxy locations use', () => {
    const { upstream, server } = nginxConfig(manifest(), { upstream: UPSTREAM });
    expect(upstream).toContain('upstream aula {\n    server 127.0.0.1:8000;\n    keepalive 16;\n    keepalive_timeout 4s;\n}\n');
    expect(server.match(/proxy_pass http:\/\/aula;/g)).toHaveLength(2);
    expect(server.match(/proxy_http_version 1\.1;\n {4}proxy_set_header Connection "";/g)).toHaveLength(2);
  });

  it('names the default port, and for https the server name TLS must check', () => {
    expect(nginxConfig(manifest(), { upstream: 'http://aula' }).upstream).toContain('    server aula:80;\n');
    expect(nginxConfig(manifest(), { upstream: 'http://[::1]:8000' }).upstream).toContain('    server [::1]:8000;\n');
    const tls = nginxConfig(manifest(), { upstream: 'https://api.example.org' });
    expect(tls.upstream).toContain('    server api.example.org:443;\n');
    expect(tls.server).toContain('    proxy_pass https://aula;\n');
    expect(tls.server).toContain('    proxy_ssl_server_name on;\n    proxy_ssl_name api.example.org;\n');
  });

  it('holds nothing of one build: another build of the same site writes the same files', () => {
    const one = { ...manifest(), build_id: '0123456789abcdef' };
    const other = { ...manifest(undefined, 90), build_id: 'fedcba9876543210', built_at: '2026-01-01T00:00:00.000Z' };
    const [a, b] = [nginxConfig(one, { upstream: UPSTREAM, publicFiles: PUBLIC }), nginxConfig(other, { upstream: UPSTREAM, publicFiles: PUBLIC })];
    expect(b).toEqual(a);
    expect(Object.values(a).join('')).not.toContain('0123456789abcdef');
  });
});

describe('JSON_ACCEPT', () => {
  const nginxStyle = new RegExp(JSON_ACCEPT, 'i');
  const table: [string, boolean][] = [
    ['*/*', true],
    ['application/json', true],
    ['application/*', true],
    ['application/json, text/plain, */*', true],
    ['text/html, application/json', true], // equal q and specificity: JSON wins
    ['text/html, */*', false], // equal q: the more specific range wins, HTML
    ['text/*, application/*', true],
    ['text/*, */*', false],
    ['application/*, text/html', false],
    ['text/html', false],
    ['text/*', false],
    ['text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8', false],
    ['application/json;q=0.9, text/html', false],
    ['application/json; charset=utf-8', false], // would be JSON, but left to the server
    ['application/jsonx', false],
    ['image/png', false],
  ];
  it.each(table)('%s → static page: %s', (accept, expected) => {
    expect(nginxStyle.test(accept)).toBe(expected);
  });

  it('only ever matches headers the server answers with JSON', () => {
    const range = fc.constantFrom('*/*', 'application/json', 'application/*', 'text/html', 'text/*', 'image/png', 'application/xml', 'APPLICATION/JSON', '*/json');
    const param = fc.constantFrom('', ';q=0', ';q=0.5', ';q=1', '; charset=utf-8', ';level=1');
    const member = fc.tuple(fc.constantFrom('', ' ', '  '), range, param).map(([sp, r, p]) => `${sp}${r}${p}`);
    fc.assert(
      fc.property(fc.array(member, { minLength: 1, maxLength: 5 }), fc.constantFrom(',', ', '), (members, sep) => {
        const accept = members.join(sep);
        if (nginxStyle.test(accept)) expect(negotiate(undefined, accept)).toEqual({ ok: true, renderer: 'json' });
      }),
      { numRuns: 2000 },
    );
  });
});

describe("docs/deploying.md's VCL", () => {
  it('makes application/json of exactly the Accept values the server answers JSON for', () => {
    const [block] = blocksFor('vcl');
    const pattern = /req\.http\.Accept ~ "\(\?i\)([^"]+)"/.exec(block.text)![1];
    expect(pattern).toBe(JSON_ACCEPT);
    const vcl = new RegExp(pattern, 'i');
    const normalized = (accept: string) => (/^ *$/.test(accept) || vcl.test(accept) ? 'application/json' : accept);
    for (const accept of ['', '*/*', 'text/html, application/json', 'application/json, text/html', 'text/*', 'text/html, */*', 'Application/JSON',
      'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8', 'application/json;q=0.9, text/html', 'image/png']) {
      expect(negotiate(undefined, normalized(accept)), accept).toEqual(negotiate(undefined, accept));
    }
  });
});

describe('netlifyRedirects', () => {
  const text = netlifyRedirects(manifest('https://example.org/api', 65), 'https://aula.example.org');
  const rules = text.split('\n').filter((l) => l && !l.startsWith('#'));

  it('names the limitation at the top', () => {
    expect(text.startsWith('# aula:')).toBe(true);
    expect(text).toMatch(/LIMITATION: a Netlify rule with query conditions also matches when the request carries MORE\n# parameters/);
  });

  it('rewrites each further page with literal query values, then proxies the rest', () => {
    expect(rules).toEqual([
      '/api/v1/cms/event/  limit=20  offset=20  /v1/cms/event/offset/20.json  200',
      '/api/v1/cms/event/  limit=20  offset=40  /v1/cms/event/offset/40.json  200',
      '/api/v1/cms/event/  limit=20  offset=60  /v1/cms/event/offset/60.json  200',
      '/api/v1/*  https://aula.example.org/api/v1/:splat  200',
    ]);
  });
});

describe('vercelConfig', () => {
  const config = JSON.parse(vercelConfig(manifest(undefined, 65), 'https://aula.example.org/', ['title', 'title__icontains', 'expand', 'limit', 'offset', 'title']));
  const [further, limited, bare, proxy] = config.rewrites;
  const accept = (rule: { missing: { type: string; key: string; value?: string }[] }) => rule.missing.find((m) => m.type === 'header')!;

  it('rewrites further pages under exact limit/offset values and no other known parameter', () => {
    expect(further.source).toBe('/v1/cms/event/');
    expect(further.destination).toBe('/v1/cms/event/offset/:offset.json');
    expect(further.has).toEqual([
      { type: 'query', key: 'limit', value: '^20$' },
      { type: 'query', key: 'offset', value: '^(?<offset>20|40|60)$' },
    ]);
    const offset = new RegExp(further.has[1].value);
    expect(['20', '40', '60'].every((v) => offset.test(v))).toBe(true);
    expect(['0', '7', '200', '020', '80'].some((v) => offset.test(v))).toBe(false);
    expect(further.missing.filter((m: { type: string }) => m.type === 'query').map((m: { key: string }) => m.key)).toEqual(['expand', 'title', 'title__icontains']);
  });

  it('serves the first page for `limit=<L>` and for no query', () => {
    expect(limited.destination).toBe('/v1/cms/event/index.json');
    expect(limited.missing.map((m: { key: string }) => m.key)).toContain('offset');
    expect(bare.has).toBeUndefined();
    expect(bare.missing.map((m: { key: string }) => m.key)).toEqual(expect.arrayContaining(['limit', 'offset', 'expand']));
  });

  it('leaves requests that would not get JSON to the server', () => {
    const notJson = new RegExp(accept(further).value!);
    for (const a of ['', ' ', '*/*', 'application/json', 'application/json, text/plain, */*']) expect(notJson.test(a), a).toBe(false);
    for (const a of ['text/html', 'text/html,*/*;q=0.8', 'application/json;q=0.1,text/html', 'image/png']) expect(notJson.test(a), a).toBe(true);
  });

  it('proxies everything else under /v1/, keeping the trailing slash', () => {
    expect(proxy).toEqual({ source: '/v1/:path(.*)', destination: 'https://aula.example.org/v1/:path' });
    expect(config.rewrites).toHaveLength(4);
  });

  it('splits the offsets of a large site over rules whose condition Vercel takes (at most 4,096 characters)', () => {
    // 100,000 events: 4,999 further pages, ~30,000 characters of offsets in one condition before
    const large = JSON.parse(vercelConfig(manifest(undefined, 100_000), UPSTREAM, []));
    const rules = large.rewrites.filter((r: { has?: { key: string }[] }) => r.has?.some((h) => h.key === 'offset'));
    expect(rules.length).toBeGreaterThan(1);
    expect(rules.length).toBeLessThanOrEqual(10);
    const matched = new Map<string, number>();
    for (const rule of rules) {
      const value: string = rule.has.find((h: { key: string }) => h.key === 'offset').value;
      expect(value.length).toBeLessThanOrEqual(VERCEL_SOURCE_MAX);
      const offset = new RegExp(value);
      for (let o = 0; o <= 100_020; o += 10) if (offset.test(String(o))) matched.set(String(o), (matched.get(String(o)) ?? 0) + 1);
    }
    // every page's offset, each by one rule, and nothing else
    expect([...matched.keys()]).toEqual(Array.from({ length: 4999 }, (_, i) => String(20 * (i + 1))));
    expect(new Set(matched.values())).toEqual(new Set([1]));
  });

  it('has no page rule for further pages when there are none', () => {
    const one = JSON.parse(vercelConfig(manifest(undefined, 5), UPSTREAM, []));
    expect(one.rewrites.map((r: { destination: string }) => r.destination)).toEqual(['/v1/cms/event/index.json', '/v1/cms/event/index.json', `${UPSTREAM}/v1/:path`]);
  });
});
