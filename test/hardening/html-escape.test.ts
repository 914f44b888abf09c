// The browsable HTML page renders every field inert: content with hostile values in every string
// field (events, categories, pages, media, directory) and hostile query parameters reflected in
// the page. Checked structurally: every tag in the page is one the page template writes itself.
import { join } from 'node:path';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApi, type Api } from '../../src/api/core.ts';
import { loadDataset } from '../../src/query/dataset.ts';
import { buildOk, removeDir, serve, tempDir, writeContent } from '../helpers.ts';
import type { RunningServer } from '../../src/server/http.ts';
import type { BodyChunks } from '../../src/api/body.ts';

/** Breaks out of text, attributes (both quotes), comments, <pre>, <title>, <style> and URLs. */
const EVIL = `<script>alert(1)</script>"'><img src=x onerror=alert(2)></pre></title></style><!-- --><svg/onload=alert(3)>&amp;&#x3C;script&#x3E;`;
const evil = (tag: string) => `${tag} ${EVIL}`;
const EVIL_URL = `https://evil.example/"><script>alert(4)</script>?a=1&b=<b>`;

const EVENT = {
  id: 666,
  title: evil('title'),
  start: '2025-05-09T16:00:00+02:00',
  end: '2025-05-09T18:00:00+02:00',
  url: EVIL_URL,
  link: `javascript:alert(5)//${EVIL}`,
  page: 2,
  categories: [1],
  header_image: 1,
  media: [1],
  related_media: [{ id: 9, media: 1, datetime: '2025-04-01T08:00:00Z', title: evil('related title'), description: evil('related description') }],
  organizer: evil('organizer'),
  location: evil('location'),
  contact: evil('contact'),
  email: `"><script>alert(6)</script>@example.at`,
  teaser: evil('teaser'),
  attending_fees_info: evil('fees'),
  body: `<p>${EVIL}</p><script>alert(7)</script><a href="javascript:alert(8)">x</a>`,
  keywords: evil('keywords'),
  description: { html: evil('description') },
  language: evil('language'),
  last_modified: '2025-04-02T10:15:00+02:00',
};

const FILES: Record<string, string> = {
  'site.json': JSON.stringify({ base_url: 'https://events.example.at/api', timezone: 'Europe/Vienna', page_size: 2 }),
  'pages.json': JSON.stringify([
    { uid: 1, pid: 0, title: evil('root page'), is_siteroot: true, domains: [evil('domain')], uri: EVIL_URL },
    { uid: 2, pid: 1, title: evil('page') },
  ]),
  'categories.json': JSON.stringify([{ id: 1, title: evil('category'), color: evil('color'), [evil('key')]: evil('value') }]),
  'media.json': JSON.stringify([{ id: 1, filename: evil('file.pdf'), original: EVIL_URL, mimetype: evil('mime'), size: 1 }]),
  'events/hostile.json': JSON.stringify([
    EVENT,
    { ...EVENT, id: 667, start: '2025-05-10T16:00:00+02:00', end: '2025-05-10T18:00:00+02:00' },
    { ...EVENT, id: 668, start: '2025-05-11T16:00:00+02:00', end: '2025-05-11T18:00:00+02:00' },
  ]),
  'directory/hostile.json': JSON.stringify([
    { model: 'campus.Person', id: 1, title: evil('Dr.'), first_name: evil('script first'), last_name: evil('script last'), title_after: evil('PhD') },
    { model: 'geo.Room', id: 2, name: evil('script room'), code: evil('code'), level_id: 1, room_id: 2 },
    { model: 'structure.Organization', id: 3, name: evil('script organization') },
    { model: 'campus.Student', id: 4, first_name: 'Script', last_name: 'Kiddie', presentation: evil('script presentation') },
  ]),
};

const TAGS = new Set(['html', 'head', 'meta', 'title', 'style', 'body', 'h1', 'p', 'b', 'table', 'caption', 'tr', 'th', 'td', 'nav', 'a', 'pre']);
const ATTRIBUTES = new Set(['lang', 'charset', 'name', 'content', 'class', 'scope', 'rel', 'href']);

/** Asserts that the page's markup is only the template's: returns nothing, throws on the first breakout. */
function assertInert(page: string, what: string): void {
  expect(page, what).not.toMatch(/<script/i);
  expect(page, what).not.toMatch(/<!--/);
  // every `<` opens a whole tag of the template
  const tags = page.match(/<[^<>]*>/g) ?? [];
  expect(tags.length, `${what}: a stray <`).toBe(page.split('<').length - 1);
  for (const tag of tags) {
    if (tag === '<!DOCTYPE html>') continue;
    const m = /^<(\/?)([a-z0-9]+)((?:\s+[a-z-]+="[^"<>]*")*)\s*>$/.exec(tag);
    expect(m, `${what}: malformed tag ${tag.slice(0, 120)}`).not.toBeNull();
    expect(TAGS.has(m![2]), `${what}: tag ${tag.slice(0, 120)}`).toBe(true);
    for (const [, name, value] of m![3].matchAll(/\s+([a-z-]+)="([^"]*)"/g)) {
      expect(ATTRIBUTES.has(name), `${what}: attribute ${name}`).toBe(true);
      if (name === 'href') expect(value, `${what}: href`).toMatch(/^https?:\/\/[^\s'`]*$/);
    }
  }
  // the style sheet is the template's: nothing reflected inside it
  const style = /<style>([^<]*)<\/style>/.exec(page)![1];
  expect(style).not.toMatch(/alert|script|evil/);
}

let root: string;
let api: Api;
let server: RunningServer;
const BROWSER = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';

beforeAll(async () => {
  root = tempDir('aula-xss-');
  const content = writeContent(join(root, 'content'), FILES);
  const dist = join(root, 'dist');
  await buildOk({ content, out: dist });
  api = createApi(loadDataset(dist));
  server = await serve(dist, { watch: false });
});
afterAll(async () => {
  await server?.close(1_000);
  removeDir(root);
});

const text = (body: string | Buffer | BodyChunks) => (typeof body === 'string' ? body : body.toString());
const answer = (method: string, path: string, query: string, accept?: string) => {
  const r = api({ method, path, query, headers: accept ? { accept } : {} });
  return { ...r, body: text(r.body) };
};
const page = (path: string, query = '') => answer('GET', path, query, BROWSER);

describe('the browsable page escapes every field', () => {
  it('the content really is hostile in the JSON (the test is not vacuous)', () => {
    const json = JSON.parse(answer('GET', '/v1/cms/event/666/', 'expand=categories').body);
    expect(json.title).toContain('<script>alert(1)</script>');
    expect(json.categories[0].title).toContain('<script>');
    expect(json.breadcrumb[1].domains[0]).toContain('<script>');
    expect(json.header_image.filename).toContain('<script>');
    expect(json.body).toContain('<script>alert(7)</script>');
  });

  const REFLECTED = [
    `title__icontains=${encodeURIComponent(EVIL)}`,
    `${encodeURIComponent(EVIL)}=${encodeURIComponent(EVIL)}`,
    `fields=title,${encodeURIComponent(EVIL)}&omit=${encodeURIComponent(EVIL)}&expand=${encodeURIComponent(EVIL)}`,
    `%3Cscript%3E=1&limit=1&offset=1`,
  ];

  it('list, with and without expansion, and hostile parameters reflected', () => {
    for (const query of ['', 'limit=1', 'limit=1&offset=1', 'expand=categories', 'expand=*&limit=3', ...REFLECTED]) {
      const listed = page('/v1/cms/event/', query);
      expect(listed.headers['Content-Type'], query).toBe('text/html; charset=utf-8');
      assertInert(listed.body, `list ?${query}`);
    }
    // the hostile values are shown, escaped
    const listed = page('/v1/cms/event/', 'limit=3').body;
    expect(listed).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(page('/v1/cms/event/', REFLECTED[0]).body).toContain('<th scope="row">title__icontains</th><td>&lt;script&gt;');
    // control characters, which may not stand in an HTML page, are shown as JSON writes them
    const controls = page('/v1/cms/event/', 'ordering=%00&title__icontains=a%1Fb%7F').body;
    expect(controls).not.toMatch(/[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]/);
    expect(controls).toContain('<th scope="row">ordering</th><td>\\u0000</td>');
    expect(controls).toContain('<td>a\\u001fb\\u007f</td>');
  });

  it('detail, with and without expansion', () => {
    for (const query of ['', 'expand=categories', 'fields=title,body,url,link', 'omit=body', ...REFLECTED]) {
      assertInert(page('/v1/cms/event/666/', query).body, `detail ?${query}`);
    }
  });

  it('autocomplete', () => {
    for (const query of ['q=script', 'q=script&m=campus.Person', 'q=script&m=geo.Room', 'q=script&limit=1&offset=1', `q=${encodeURIComponent(EVIL)}`,
      `m=${encodeURIComponent(EVIL)}`, 'q=kiddie', ...REFLECTED]) {
      assertInert(page('/v1/api/autocomplete/', query).body, `autocomplete ?${query}`);
    }
    expect(JSON.parse(answer('GET', '/v1/api/autocomplete/', 'q=script').body).count).toBeGreaterThanOrEqual(4);
  });

  it('error pages (400) and OPTIONS', () => {
    for (const [path, query] of [
      ['/v1/cms/event/', `categories=${encodeURIComponent(EVIL)}`],
      ['/v1/cms/event/', `dfp_points=${encodeURIComponent(EVIL)}&start=${encodeURIComponent(EVIL)}&title__regex=${encodeURIComponent(EVIL)}`],
      ['/v1/api/autocomplete/', `m=${encodeURIComponent(EVIL)}`],
    ]) {
      const refused = page(path, query);
      expect(refused.status).toBe(400);
      assertInert(refused.body, `${path}?${query}`);
    }
    assertInert(answer('OPTIONS', '/v1/cms/event/', '', BROWSER).body, 'OPTIONS');
  });

  it('over HTTP, with raw (unencoded) markup in the request target', async () => {
    const port = Number(new URL(server.url).port);
    for (const target of [`/v1/cms/event/?<script>alert(1)</script>=1&limit=1`, `/v1/cms/event/?title__icontains="'><svg/onload=alert(1)>`,
      `/v1/api/autocomplete/?q=<script>&"onmouseover="=1`]) {
      const raw = await new Promise<string>((ok) => {
        const socket = connect(port, '127.0.0.1');
        let out = '';
        socket.on('data', (d) => (out += d));
        socket.on('close', () => ok(out));
        socket.write(`GET ${target} HTTP/1.1\r\nHost: x\r\nAccept: ${BROWSER}\r\nAccept-Encoding: identity\r\nConnection: close\r\n\r\n`);
      });
      const [head, body] = [raw.slice(0, raw.indexOf('\r\n\r\n')), raw.slice(raw.indexOf('\r\n\r\n') + 4)];
      expect(head, target).toMatch(/^HTTP\/1\.1 200/);
      expect(head).toMatch(/content-type: text\/html; charset=utf-8/i);
      expect(head).toMatch(/x-content-type-options: nosniff/i);
      assertInert(body, target);
    }
  });

  it('the JSON answers carry the markup as data, never as a page: JSON type, nosniff', () => {
    const json = answer('GET', '/v1/cms/event/666/', '');
    expect(json.headers['Content-Type']).toBe('application/json');
    expect(json.headers['X-Content-Type-Options']).toBe('nosniff');
    expect(json.headers['X-Frame-Options']).toBe('DENY');
  });
});
