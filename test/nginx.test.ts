// docs/deploying.md's nginx.conf, verbatim but for its documented placeholders (the dist/ path and the
// listen port), in a real nginx in front of a real aula server: every page reached by following
// `next` is served from its file and is byte-identical to the server's answer; every public file
// and media file is served by nginx and by aula serve alike; whatever a file cannot answer
// reaches the server; nothing else of dist/ is reachable.
import { spawnSync, type ChildProcess } from 'node:child_process';
import { connect, createServer as createNetServer, type Server } from 'node:net';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TWINNED_EVENTS } from '../src/deploy/precompress.ts';
import { isPublicFile, MEDIA_FILES_INDEX, publicType, type MediaFile } from '../src/store/format/public-files.ts';
import type { RunningServer } from '../src/server/http.ts';
import type { Manifest } from '../src/store/format/manifest.ts';
import { buildOk, firstPart, freePort, removeDir, SAMPLE_CONTENT, serve, tempDir, writeContent } from './helpers.ts';
import { FIXTURE_FILES, SCRIPTED_MEDIA_FILES } from './fixture-content.ts';
import { manyEventsContent } from './many-events.ts';
import { findNginx, get, nginxArgs, NGINX_MISSING, nginxTest, startNginx as startNginxAt, stopProcess } from './nginx-process.ts';
import { blocksFor } from './docs/doc-blocks.ts';

const startNginx = (dir: string, port: number) => startNginxAt(NGINX!, dir, port);

const NGINX = findNginx();
const MISSING = NGINX_MISSING;

/** docs/deploying.md's complete nginx.conf: the block marked `<!-- test: nginx -->`. */
export function readmeNginxConf(): string {
  const blocks = blocksFor('nginx');
  if (blocks.length !== 1 || !/^events \{/m.test(blocks[0].text)) throw new Error('the docs need one complete ```nginx block (with events {}) marked <!-- test: nginx -->');
  return blocks[0].text;
}

/** Only the placeholders the docs name: where dist/ is, and the port (here on loopback only). */
function nginxConf(dist: string, port: number): string {
  const conf = readmeNginxConf();
  expect(conf).toContain('/srv/site/dist');
  expect(conf).toContain('listen 8080;');
  return conf.replaceAll('/srv/site/dist', dist).replace('listen 8080;', `listen 127.0.0.1:${port};`);
}

/** Every file below dir, relative, with forward slashes. */
function walk(dir: string, base = dir): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? walk(path, base) : [relative(base, path).split('\\').join('/')];
  });
}

if (!NGINX) {
  if (process.env.CI) {
    it('nginx is installed (CI installs it)', () => {
      throw new Error(`${MISSING}; CI must install it (see .ci/run)`);
    });
  } else {
    console.warn(`test/nginx.test.ts skipped: ${MISSING}`);
    it.skip(`${MISSING}; skipped`, () => {});
  }
} else {
  // '' and a base URL with a path: the locations carry the prefix, the server strips it
  describe.each(['', '/api'])('nginx in front of the aula server (base path %j)', (prefix) => {
    let root: string;
    let dist: string;
    let manifest: Manifest;
    let server: RunningServer;
    let nginx: ChildProcess | undefined;
    let front: string;

    beforeAll(async () => {
      root = tempDir('aula-nginx-');
      dist = join(root, 'dist');
      mkdirSync(join(root, 'logs'));
      // the sample content with an SVG and an HTML media file, which open sandboxed
      const content = writeContent(join(root, 'content'), SCRIPTED_MEDIA_FILES);
      cpSync(SAMPLE_CONTENT, content, { recursive: true });
      // a port taken between probing and nginx binding it is retried with another
      for (let attempt = 1; ; attempt++) {
        const port = await freePort();
        front = `http://127.0.0.1:${port}`;
        // the upstream is written into dist/deploy/ at build time: build, start the server, build again for it
        if (!server) {
          await buildOk({ content: join(root, 'content'), out: dist, baseUrl: `${front}${prefix}` });
          server = await serve(dist, { watch: false });
        }
        manifest = (await buildOk({ content: join(root, 'content'), out: dist, baseUrl: `${front}${prefix}`, upstream: server.url })).manifest;
        await server.reload();
        writeFileSync(join(root, 'nginx.conf'), nginxConf(dist, port));
        const test = spawnSync(NGINX!, ['-t', ...nginxArgs(root)], { encoding: 'utf8' });
        expect(test.status, `nginx -t: ${test.stderr}`).toBe(0);
        try {
          nginx = await startNginx(root, port);
          break;
        } catch (e) {
          if (attempt === 3 || !/in use/.test(String(e))) throw e;
        }
      }
    });

    afterAll(async () => {
      await stopProcess(nginx);
      await server?.close();
      if (root) removeDir(root);
    });

    /**
     * A request through nginx, and whether nginx answered it from a file: nginx sends
     * Last-Modified with every file it serves, the aula server never does.
     */
    async function viaNginx(pathAndQuery: string, headers: Record<string, string> = {}, method = 'GET') {
      const answer = await get(`${front}${pathAndQuery}`, headers, method);
      const line = `${method} ${pathAndQuery} → ${answer.status} last-modified=${answer.headers['last-modified'] ?? '-'}`;
      return { ...answer, line, fromFile: answer.headers['last-modified'] !== undefined };
    }

    const direct = (pathAndQuery: string, headers: Record<string, string> = {}, method = 'GET') => get(`${server.url}${pathAndQuery}`, headers, method);

    it('serves every page reached by following next from its file, byte-identical to the server', async () => {
      let url: string | null = `${front}${prefix}/v1/cms/event/`;
      let pages = 0;
      while (url) {
        const path: string = url.slice(front.length);
        const fromNginx = await viaNginx(path);
        const fromServer = await direct(path);
        expect(fromNginx.status, path).toBe(200);
        expect(fromNginx.fromFile, `${path} should come from its file: ${fromNginx.line}`).toBe(true);
        expect(fromNginx.body.equals(fromServer.body), `${path} differs from the server's answer`).toBe(true);
        url = JSON.parse(fromNginx.body.toString('utf8')).next;
        pages++;
      }
      expect(pages).toBe(manifest.counts.event_list_pages);
      expect(pages).toBeGreaterThan(2);
    });

    it('serves `?limit=<page size>` and `previous` links from the file too', async () => {
      const L = manifest.event_list.limit;
      for (const path of [`${prefix}/v1/cms/event/?limit=${L}`, `${prefix}/v1/cms/event/?limit=${L}&offset=${2 * L}`]) {
        const fromNginx = await viaNginx(path);
        expect(fromNginx.fromFile, path).toBe(true);
        expect(fromNginx.body.equals((await direct(path)).body), path).toBe(true);
        const previous = JSON.parse(fromNginx.body.toString('utf8')).previous;
        if (previous) expect((await viaNginx(previous.slice(front.length))).fromFile, previous).toBe(true);
      }
    });

    it('sends the headers the server sends with the same answer, but for those docs/deploying.md names', async () => {
      // what each sends of its own about the transfer, and what docs/deploying.md says differs
      const transfer = new Set(['date', 'connection', 'keep-alive', 'server', 'transfer-encoding']);
      for (const encoding of [{}, { 'Accept-Encoding': 'gzip' }] as Record<string, string>[]) {
        const nginxOnly = encoding['Accept-Encoding'] ? ['last-modified'] : ['accept-ranges', 'last-modified'];
        const fromNginx = await viaNginx(`${prefix}/v1/cms/event/`, encoding);
        const fromServer = await direct(`${prefix}/v1/cms/event/`, encoding);
        const names = (lines: [string, string][]) => lines.map(([n]) => n).filter((n) => !transfer.has(n)).sort();
        expect(names(fromNginx.lines), JSON.stringify(encoding)).toEqual([...names(fromServer.lines).filter((n) => n !== 'x-aula-build'), ...nginxOnly].sort());
        for (const [name] of fromServer.lines) {
          if (transfer.has(name) || name === 'x-aula-build' || name === 'etag' || name === 'vary') continue;
          // compressed, nginx sends the build's .gz and the server its own compression: the same page
          if (name === 'content-length' && encoding['Accept-Encoding']) {
            expect(gunzipSync(fromNginx.body).equals(gunzipSync(fromServer.body))).toBe(true);
            continue;
          }
          expect(fromNginx.headers[name], name).toBe(fromServer.headers[name]);
        }
        // one Vary line (gzip_vary would add a second), naming Accept-Encoding also when nginx
        // sends the page as it is: it sends the .gz to a client that accepts gzip
        const vary = (lines: [string, string][]) => lines.filter(([n]) => n === 'vary').map(([, v]) => v);
        expect(vary(fromNginx.lines)).toEqual(['Accept, Accept-Encoding']);
        expect(vary(fromServer.lines)).toEqual([encoding['Accept-Encoding'] ? 'Accept, Accept-Encoding' : 'Accept']);
        // nginx's ETag is of the file's time and size (weak once compressed), the server's of its bytes
        expect(fromNginx.headers.etag).toMatch(/^(?:W\/)?"[0-9a-f]+-[0-9a-f]+"$/);
        expect(fromNginx.headers.etag).not.toBe(fromServer.headers.etag);
      }
    });

    it('answers other methods than GET and HEAD on a public file 405, as aula serve does', async () => {
      for (const path of [`${prefix}/events.ics`, `${prefix}/openapi.json`, `${prefix}/cms/media/101/`]) {
        for (const method of ['POST', 'PUT', 'DELETE']) {
          const [fromNginx, fromServer] = [await viaNginx(path, {}, method), await direct(path, {}, method)];
          expect([fromNginx.status, fromServer.status], `${method} ${path}`).toEqual([405, 405]);
          expect(fromServer.headers.allow).toBe('GET, HEAD');
        }
      }
    });

    it('passes everything a file cannot answer to the server, unchanged', async () => {
      const L = manifest.event_list.limit;
      const id = JSON.parse((await direct('/v1/cms/event/')).body.toString('utf8')).results[0].id;
      const cases: [string, Record<string, string>][] = [
        [`${prefix}/v1/cms/event/?title__icontains=a&limit=${L}&offset=${L}`, {}],
        [`${prefix}/v1/cms/event/?limit=${L}&offset=${L}&title__icontains=a`, {}],
        [`${prefix}/v1/cms/event/?title__icontains=a`, {}],
        [`${prefix}/v1/cms/event/${id}/`, {}],
        [`${prefix}/v1/cms/event/?limit=${L}&offset=7`, {}], // not on a page boundary: no file
        [`${prefix}/v1/cms/event/?limit=${L}&offset=0`, {}],
        [`${prefix}/v1/cms/event/?offset=${L}&limit=${L}`, {}],
        [`${prefix}/v1/cms/event/?LIMIT=${L}`, {}],
        [`${prefix}/v1/cms/event/?limit=${L}&offset=${L}&format=json`, {}],
        [`${prefix}/v1/cms/event/`, { Accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' }],
        [`${prefix}/v1/cms/event/`, { Accept: 'application/json;q=0.5, text/html' }],
        [`${prefix}/v1/cms/event/`, { Accept: 'image/png' }],
        [`${prefix}/v1/cms/event`, {}], // the server's slash redirect
        [`${prefix}/v1/api/autocomplete/?q=a`, {}],
      ];
      for (const [path, headers] of cases) {
        const fromNginx = await viaNginx(path, headers);
        const fromServer = await direct(path, headers);
        expect(fromNginx.fromFile, `${path} ${JSON.stringify(headers)} should reach the server`).toBe(false);
        expect(fromNginx.status, path).toBe(fromServer.status);
        expect(fromNginx.body.equals(fromServer.body), `${path} differs from the server's answer`).toBe(true);
      }
      const options = await viaNginx(`${prefix}/v1/cms/event/`, {}, 'OPTIONS');
      expect(options.fromFile).toBe(false);
      expect(options.body.equals((await direct(`${prefix}/v1/cms/event/`, {}, 'OPTIONS')).body)).toBe(true);
    });

    it('answers JSON-accepting clients from the file', async () => {
      for (const accept of ['application/json', '*/*', 'application/json, text/plain, */*', '']) {
        const answer = await viaNginx(`${prefix}/v1/cms/event/`, accept ? { Accept: accept } : {});
        expect(answer.fromFile, accept).toBe(true);
      }
    });

    it('sends a first page as its .gz file to clients that accept gzip', async () => {
      const L = manifest.event_list.limit;
      const pages: [string, string][] = [
        [`${prefix}/v1/cms/event/`, manifest.event_list.first],
        [`${prefix}/v1/cms/event/?limit=${L}&offset=${L}`, manifest.event_list.further.replace('{offset}', String(L))],
      ];
      for (const [path, rel] of pages) {
        const plain = await viaNginx(path);
        const gz = await viaNginx(path, { 'Accept-Encoding': 'gzip' });
        expect(gz.fromFile).toBe(true);
        expect(gz.headers['content-encoding']).toBe('gzip');
        expect(gz.headers.vary).toMatch(/Accept-Encoding/);
        // the build's twin itself, not nginx's own compression of the page
        expect(gz.body.equals(readFileSync(join(dist, `${rel}.gz`))), `${path}: the bytes of ${rel}.gz`).toBe(true);
        expect(gunzipSync(gz.body).equals(plain.body)).toBe(true);
        expect(plain.headers['content-encoding']).toBeUndefined();
      }
    });

    it('serves every public file of dist/ through nginx and through aula serve, with its type and encodings', async () => {
      const publicFiles = walk(dist).filter(isPublicFile);
      expect(publicFiles).toEqual(expect.arrayContaining(['events.ics', 'openapi.json', 'autocomplete/autocomplete.js', 'autocomplete/index.json', 'schemas/event.schema.json']));
      for (const rel of publicFiles) {
        const bytes = readFileSync(join(dist, rel));
        for (const [via, answer] of [['nginx', await viaNginx(`${prefix}/${rel}`)], ['aula serve', await direct(`${prefix}/${rel}`)]] as const) {
          expect(answer.status, `${via} ${rel}`).toBe(200);
          expect(answer.headers['content-type'], `${via} ${rel}`).toBe(publicType(rel));
          expect(answer.body.equals(bytes), `${via} ${rel} differs from the file`).toBe(true);
          // one Vary line, with a .gz beside the file or without
          expect(answer.lines.filter(([n]) => n === 'vary'), `${via} ${rel}`).toEqual([['vary', 'Accept-Encoding']]);
        }
        expect((await viaNginx(`${prefix}/${rel}`)).fromFile, rel).toBe(true);
        if (existsSync(join(dist, `${rel}.gz`))) {
          for (const [via, answer] of [['nginx', await viaNginx(`${prefix}/${rel}`, { 'Accept-Encoding': 'gzip' })], ['aula serve', await direct(`${prefix}/${rel}`, { 'Accept-Encoding': 'gzip' })]] as const) {
            expect(answer.headers['content-encoding'], `${via} ${rel}`).toBe('gzip');
            expect(gunzipSync(answer.body).equals(bytes), `${via} ${rel} gzip`).toBe(true);
          }
        }
      }
      const br = await direct(`${prefix}/autocomplete/index.json`, { 'Accept-Encoding': 'br' });
      expect(br.headers['content-encoding']).toBe('br');
    });

    it('serves every media file at the URL the API gives it, through nginx and aula serve', async () => {
      const media: MediaFile[] = JSON.parse(readFileSync(join(dist, MEDIA_FILES_INDEX), 'utf8'));
      expect(media.length).toBeGreaterThan(0);
      // the API names these URLs: an event's media record points at one of them
      const events = JSON.parse((await direct(`${prefix}/v1/cms/event/?limit=1000`)).body.toString('utf8')).results;
      const urls = new Set<string>(events.flatMap((e: { media: { url: string }[] }) => e.media.map((m) => m.url)));
      expect(media.some((m) => urls.has(`${front}${prefix}/cms/media/${m.id}/`))).toBe(true);
      for (const m of media) {
        const bytes = readFileSync(join(dist, m.file));
        for (const [via, answer] of [['nginx', await viaNginx(`${prefix}/cms/media/${m.id}/`)], ['aula serve', await direct(`${prefix}/cms/media/${m.id}/`)]] as const) {
          expect(answer.status, `${via} media ${m.id}`).toBe(200);
          expect(answer.headers['content-type'], `${via} media ${m.id}`).toBe(m.mimetype);
          expect(answer.body.equals(bytes), `${via} media ${m.id}`).toBe(true);
          // a browser runs no script of an SVG or HTML media file on this origin: it opens sandboxed
          expect(answer.headers['content-security-policy'], `${via} media ${m.id}`).toBe(/^(?:image\/svg\+xml|text\/html)$/.test(m.mimetype) ? 'sandbox' : undefined);
        }
      }
      expect(media.filter((m) => m.file.endsWith('.svg') || m.file.endsWith('.html'))).toHaveLength(2);
      expect((await direct(`${prefix}/cms/media/999999/`)).status).toBe(404);
    });

    it('reaches nothing else of dist/ through either', async () => {
      const part = `data/events/${firstPart(dist)}.jsonl`;
      const secret = readFileSync(join(dist, part));
      for (const rel of ['manifest.json', part, 'data/media-files.json', 'deploy/nginx-server.conf', '_redirects', 'vercel.json', 'events.ics.gz', 'v1/cms/event/index.json']) {
        for (const [via, answer] of [['nginx', await viaNginx(`${prefix}/${rel}`)], ['aula serve', await direct(`${prefix}/${rel}`)]] as const) {
          expect(answer.status, `${via} ${rel}`).toBe(404);
          expect(answer.body.includes(secret.subarray(0, 64)), `${via} ${rel}`).toBe(false);
          expect(answer.body.toString('utf8'), `${via} ${rel}`).not.toMatch(/built_at|proxy_pass/);
        }
      }
      for (const path of [`${prefix}/schemas/..%2fmanifest.json`, `${prefix}/autocomplete/..%2f..%2fmanifest.json`, `${prefix}/cms/media/1/..%2f..%2f..%2fmanifest.json`]) {
        expect((await direct(path)).status, path).toBe(404);
        // nginx refuses a path that climbs above / outright
        expect([400, 404], path).toContain((await viaNginx(path)).status);
      }
    });
  });
}

// The pages past TWINNED_EVENTS have no .gz: nginx compresses them itself (gzip on), the first
// pages are sent as the build's .gz files.
describe.skipIf(!NGINX)('nginx in front of a list with pages past the twinned ones', () => {
  const PAGE_SIZE = 250;
  // (made once the suite runs: a skipped suite leaves no folder behind)
  const site = { root: '', front: '', nginx: undefined as ChildProcess | undefined };

  beforeAll(async () => {
    site.root = tempDir('aula-nginx-deep-');
    mkdirSync(join(site.root, 'logs'));
    const port = await freePort();
    site.front = `http://127.0.0.1:${port}`;
    const dist = join(site.root, 'dist');
    await buildOk({ content: manyEventsContent(join(site.root, 'content'), TWINNED_EVENTS + 10, PAGE_SIZE), out: dist, baseUrl: site.front });
    writeFileSync(join(site.root, 'nginx.conf'), nginxConf(dist, port));
    site.nginx = await startNginx(site.root, port);
  });

  afterAll(async () => {
    await stopProcess(site.nginx);
    if (site.root) removeDir(site.root);
  });

  it('sends a deeper page compressed by nginx, and a first page as its .gz file', async () => {
    const { front } = site;
    const dist = join(site.root, 'dist');
    const deep = `v1/cms/event/offset/${TWINNED_EVENTS}.json`;
    const first = `v1/cms/event/offset/${TWINNED_EVENTS - PAGE_SIZE}.json`;
    expect(existsSync(join(dist, `${deep}.gz`)), 'a deeper page has no twin').toBe(false);
    for (const [offset, rel] of [[TWINNED_EVENTS, deep], [TWINNED_EVENTS - PAGE_SIZE, first]] as const) {
      const path = `/v1/cms/event/?limit=${PAGE_SIZE}&offset=${offset}`;
      const bytes = readFileSync(join(dist, rel));
      const plain = await get(`${front}${path}`);
      expect(plain.headers['last-modified'], `${path} from its file`).toBeDefined();
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(plain.body.equals(bytes)).toBe(true);
      const gz = await get(`${front}${path}`, { 'Accept-Encoding': 'gzip' });
      expect(gz.status, path).toBe(200);
      expect(gz.headers['content-encoding'], path).toBe('gzip');
      expect(gz.headers['content-type'], path).toBe('application/json');
      expect(gz.headers.vary, path).toMatch(/Accept-Encoding/);
      expect(gunzipSync(gz.body).equals(bytes), `${path} decodes to ${rel}`).toBe(true);
      expect(gz.body.length, path).toBeLessThan(bytes.length / 3);
      if (rel === first) expect(gz.body.equals(readFileSync(join(dist, `${rel}.gz`))), `${path}: the bytes of ${rel}.gz`).toBe(true);
    }
  });
});

// docs/deploying.md's promise: the include files hold nothing of one build, so nginx, started
// once and never reloaded, serves every later build as it is; and its kept connections to the
// server (keepalive in the generated upstream) are reused.
describe.skipIf(!NGINX)('nginx across rebuilds, never reloaded', () => {
  let root: string;
  let content: string;
  let dist: string;
  let server: RunningServer;
  let upstream: Server;
  let nginx: ChildProcess | undefined;
  let front: string;
  let connections = 0;
  const prefix = '/api';

  const build = () => buildOk({ content, out: dist, baseUrl: `${front}${prefix}`, upstream: `http://127.0.0.1:${(upstream.address() as { port: number }).port}` });

  beforeAll(async () => {
    root = tempDir('aula-nginx-rebuild-');
    dist = join(root, 'dist');
    mkdirSync(join(root, 'logs'));
    content = writeContent(join(root, 'content'), FIXTURE_FILES);
    const port = await freePort();
    front = `http://127.0.0.1:${port}`;
    await buildOk({ content, out: dist, baseUrl: `${front}${prefix}` });
    server = await serve(dist, { watch: false });
    // between nginx and the server: counts the TCP connections nginx opens to it
    const target = new URL(server.url);
    upstream = createNetServer((socket) => {
      connections++;
      const to = connect(Number(target.port), target.hostname);
      socket.pipe(to).pipe(socket);
      socket.on('error', () => to.destroy());
      to.on('error', () => socket.destroy());
    });
    await new Promise<void>((ok) => upstream.listen(0, '127.0.0.1', ok));
    await build();
    await server.reload();
    writeFileSync(join(root, 'nginx.conf'), nginxConf(dist, port));
    nginx = await startNginx(root, port);
  });

  afterAll(async () => {
    await stopProcess(nginx);
    await new Promise((ok) => upstream?.close(ok));
    await server?.close();
    if (root) removeDir(root);
  });

  const deployFiles = () => readdirSync(join(dist, 'deploy')).sort().map((name) => [name, readFileSync(join(dist, 'deploy', name), 'utf8')]);
  const HEADERS = ['content-type', 'cache-control', 'x-content-type-options', 'x-frame-options', 'referrer-policy', 'allow'];

  it('reuses its connections to the server: 30 filtered queries, from 30 client connections, over at most 2', async () => {
    connections = 0;
    for (let i = 0; i < 30; i++) {
      const answer = await get(`${front}${prefix}/v1/cms/event/?title__icontains=${i % 2 ? 'a' : 'e'}`);
      expect(answer.status).toBe(200);
      expect(answer.headers['last-modified'], 'from the server, not a file').toBeUndefined();
    }
    expect(connections).toBeGreaterThanOrEqual(1);
    expect(connections).toBeLessThanOrEqual(2);
  });

  it("serves a rebuild's pages, with its headers, and proxies to the rebuilt server, without a reload", async () => {
    // the page that holds event 42 (the fixture's page size is 2: 44, 45 | 43, 42)
    const list = `${prefix}/v1/cms/event/?limit=2&offset=2`;
    const filtered = `${prefix}/v1/cms/event/?title__icontains=vortrag`;
    const rules = deployFiles();
    const before = { page: await get(`${front}${list}`), build: (await get(`${front}${filtered}`)).headers['x-aula-build'] };
    expect(before.page.headers['last-modified'], 'the first page comes from its file').toBeDefined();

    writeFileSync(join(content, 'events/2025/vortrag.md'), FIXTURE_FILES['events/2025/vortrag.md'].replace('title: Vortrag über Herzgesundheit', 'title: Vortrag über Herzgesundheit (verlegt)'));
    const rebuilt = await build();
    await server.reload();
    expect(rebuilt.manifest.build_id).not.toBe(before.build);

    // the include files nginx read at its start are the very bytes this build wrote
    expect(deployFiles()).toEqual(rules);
    const page = await get(`${front}${list}`);
    const direct = await get(`${server.url}${list}`);
    expect(page.headers['last-modified']).toBeDefined();
    expect(page.body.toString('utf8')).toContain('Vortrag über Herzgesundheit (verlegt)');
    expect(page.body.equals(direct.body), 'the new build page, byte for byte').toBe(true);
    for (const name of HEADERS) expect(page.headers[name], name).toBe(direct.headers[name]);
    // a build id only where the server answered, and then the new build's
    expect(page.headers['x-aula-build']).toBeUndefined();
    expect((await get(`${front}${filtered}`)).headers['x-aula-build']).toBe(rebuilt.manifest.build_id);
    expect(direct.headers['x-aula-build']).toBe(rebuilt.manifest.build_id);
  });
});

describe.skipIf(!NGINX)("docs/deploying.md's nginx with a cache", () => {
  it('is accepted by nginx -t and answers through its cache', async () => {
    const [block] = blocksFor('nginx-cache');
    const root = tempDir('aula-nginx-cache-');
    let nginx: ChildProcess | undefined;
    let server: RunningServer | undefined;
    try {
      mkdirSync(join(root, 'logs'));
      const dist = join(root, 'dist');
      const port = await freePort();
      await buildOk({ content: writeContent(join(root, 'content'), FIXTURE_FILES), out: dist, baseUrl: `http://127.0.0.1:${port}/api` });
      server = await serve(dist, { watch: false });
      await buildOk({ content: join(root, 'content'), out: dist, baseUrl: `http://127.0.0.1:${port}/api`, upstream: server.url });
      await server.reload();
      for (const placeholder of ['/srv/site/dist', 'listen 8080;', '/var/cache/aula']) expect(block.text).toContain(placeholder);
      const conf = block.text.replaceAll('/srv/site/dist', dist).replace('listen 8080;', `listen 127.0.0.1:${port};`).replace('/var/cache/aula', join(root, 'cache'));
      writeFileSync(join(root, 'nginx.conf'), conf);
      const refused = nginxTest(NGINX!, root);
      expect(refused, `nginx -t: ${refused}`).toBeNull();
      nginx = await startNginx(root, port);
      const path = '/api/v1/cms/event/?title__icontains=a';
      const [first, second, direct] = [await get(`http://127.0.0.1:${port}${path}`), await get(`http://127.0.0.1:${port}${path}`), await get(`${server.url}${path}`)];
      expect(first.status).toBe(200);
      expect(second.body.equals(direct.body)).toBe(true);
      // the cache wrote its entry
      expect(readdirSync(join(root, 'cache'), { recursive: true }).length).toBeGreaterThan(0);
    } finally {
      await stopProcess(nginx);
      await server?.close();
      removeDir(root);
    }
  });
});
