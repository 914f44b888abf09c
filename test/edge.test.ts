// The edge worker in the real runtime: `aula build --edge`, workerd started with the shipped
// dist/edge/workerd.capnp (ASSETS = a disk service over dist/), and every answer compared with
// `aula serve` over the same dist/: status, headers and body bytes.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMPATIBILITY_DATE, COMPATIBILITY_FLAGS } from '../src/deploy/edge-bundle.ts';
import { isPublicFile, MEDIA_FILES_INDEX, mediaPath, parseMediaFiles } from '../src/store/format/public-files.ts';
import fc from 'fast-check';
import { aula } from './aula-cli.ts';
import { FIXTURE_FILES, SCRIPTED_MEDIA_FILES } from './fixture-content.ts';
import { adversarialPatterns, BACKTRACKING_PATTERNS, HEAVIEST_PATTERNS, ISSUE_PATTERNS } from '../src/query/regex/test-adversarial-patterns.ts';
import { buildOk, firstPart, removeDir, SAMPLE_CONTENT, serve, tempDir, writeContent, freePort } from './helpers.ts';

/** The platform binary, as the workerd package resolves it (it ships for linux/darwin/windows x64 and arm64 only). */
async function workerdBinary(): Promise<string | { error: string }> {
  try {
    // a CommonJS package without types: its default export is the path (nested once under some interop)
    const pkg = 'workerd';
    const main = ((await import(pkg)) as { default: string | { default: string } }).default;
    const path = typeof main === 'string' ? main : main.default;
    const run = spawnSync(path, ['--version'], { encoding: 'utf8', timeout: 180_000 });
    return run.status === 0 ? path : { error: (run.stderr || run.error?.message || `exit ${run.status}`).trim().split('\n')[0] };
  } catch (e) {
    return { error: (e as Error).message.split('\n')[0] };
  }
}

const binary = await workerdBinary();
const WORKERD = typeof binary === 'string' ? binary : '';
const unavailable = typeof binary === 'string' ? null : binary.error;

if (unavailable && process.env.CI) throw new Error(`workerd cannot run here (${unavailable}); CI must run the edge tests`);
const edge = unavailable ? describe.skip : describe;
if (unavailable) console.warn(`test/edge.test.ts skipped: the workerd binary cannot run on this machine (${unavailable})`);


interface Workerd {
  url: string;
  urls: Record<string, string>;
  child: ChildProcess;
  log: () => string;
  stop(): Promise<void>;
}

/** Starts workerd on a free loopback port and waits until it answers. */
async function startWorkerd(cwd: string, config: string, sockets = ['http']): Promise<Workerd> {
  const urls: Record<string, string> = {};
  const args = ['serve', config];
  for (const socket of sockets) {
    const port = await freePort();
    urls[socket] = `http://127.0.0.1:${port}`;
    args.push('--socket-addr', `${socket}=127.0.0.1:${port}`);
  }
  const child = spawn(WORKERD, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  const url = urls[sockets[0]];
  const stop = () =>
    new Promise<void>((ok) => {
      if (child.exitCode !== null) return ok();
      child.once('exit', () => ok());
      child.kill('SIGTERM');
    });
  // a safety net: a busy machine may take long to start it
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`workerd exited: ${output}`);
    try {
      for (const u of Object.values(urls)) await fetch(`${u}/__ready__`);
      break;
    } catch {
      if (Date.now() > deadline) {
        await stop();
        throw new Error(`workerd did not listen within 120 s: ${output}`);
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  return { url, urls, child, log: () => output, stop };
}

/** Hop-by-hop and transport headers, which the two stacks set each their own way. */
const TRANSPORT = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding', 'content-encoding']);

interface Exchange {
  status: number;
  headers: [string, string][];
  body: Buffer;
}

async function exchange(url: string, init: RequestInit): Promise<Exchange> {
  const headers = new Headers(init.headers);
  headers.set('accept-encoding', 'identity');
  const res = await fetch(url, { redirect: 'manual', ...init, headers });
  const body = Buffer.from(await res.arrayBuffer());
  return {
    status: res.status,
    headers: [...res.headers].filter(([name]) => !TRANSPORT.has(name)).sort(([a], [b]) => a.localeCompare(b)),
    body,
  };
}

const BROWSER = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';

/** Every route, every filter kind, pagination edges, errors, formats: [path and query, init]; `part`: an event part of the dist, whose files are not public. */
function querySet(prefix: string, part: string): [string, RequestInit][] {
  const event = `${prefix}/v1/cms/event/`;
  const ac = `${prefix}/v1/api/autocomplete/`;
  const gets = [
    event,
    ...[
      'limit=3', 'limit=0', 'limit=-1', 'limit=abc', 'limit=100000', 'offset=99999', 'limit=2&offset=1', 'offset=-5', 'limit=1&offset=3',
      // text lookups
      'title__icontains=KURS', 'title__iexact=x', 'title__contains=Vortrag', 'title__startswith=V', 'title__istartswith=v',
      'title__endswith=e', 'title__iendswith=E', 'organizer__icontains=m%C3%BCller', 'location__icontains=online', 'title=x',
      // regex
      'title__regex=%5EV', 'title__iregex=herz%7Cforschung', 'title__regex=(', 'email__iregex=%40',
      // timestamps
      'start__gte=2025-06-01&start__lt=2025-06-02', 'start__gt=1', 'start=2025-10-26T02:30:00', 'end__lte=2026-01-01',
      'last_modified__gt=2024-06-01T00:00:00Z', 'start__contains=2025-06', 'start__startswith=2026', 'registration_end__lt=2030-01-01',
      // numbers, booleans, categories, ids
      'dfp_points__gte=2', 'dfp_points=abc', 'dfp_points__lt=3.5', 'allday=true', 'allday=false', 'allday=maybe', 'register=true',
      'attending_fees=false', 'categories=3&categories=7', 'categories=999', 'categories=x', 'id=42', 'id=x', 'id=42&id=43',
      // expand / fields / omit, ignored parameters
      'expand=categories', 'expand=*', 'expand=foo', 'fields=title,id', 'omit=body,teaser', 'fields=start,id,title&omit=start',
      'titel=x&title__gt=a&limit=1&expand=categories,foo&format=json', 'limit=2&fields=id&expand=categories',
      // formats
      'format=json', 'format=api', 'format=xml', 'format=ics', 'format=ics&title__icontains=kurs', 'format=ics&id=x',
      // ordering and search
      'ordering=start', 'ordering=-dfp_points,title&offset=3', 'ordering=titel,-end', 'search=kurs', 'search=m%C3%BCller%20herz&ordering=title',
      'search=kurs&register=true&ordering=-registration_end', 'search=a%00b', 'format=ics&ordering=start&end__gte=2025-06-01', 'format=api&ordering=title&search=kurs',
    ].map((q) => `${event}?${q}`),
    `${event}42/`, `${event}42/?fields=title,id`, `${event}42/?expand=categories&omit=body`, `${event}999999/`, `${event}abc/`,
    `${event}1215/`, `${event}42/?format=ics`,
    `${prefix}/v1/cms/event`, `${prefix}/v1/cms/event?limit=1`, `${event}42`,
    ac, `${ac}?q=a`, `${ac}?q=m%C3%BCl`, `${ac}?q=`, `${ac}?q=a&m=campus.Person`, `${ac}?q=a&m=campus.Person,structure.Organization`,
    `${ac}?q=a&m=bogus`, `${ac}?q=a&limit=2&offset=1`, `${ac}?q=zzzzqqq`, `${ac}?q=a&limit=abc`,
    `${prefix}/v1/schema/`, `${prefix}/v1/schema/?format=json`,
    '/', '/nope', `${event}%ZZ`, `${prefix}/v1/`, '/favicon.ico',
    // the data files and the worker itself are not public: the API's 404, as from the server
    `/data/events/${part}.jsonl`, `${prefix}/data/events/${part}.jsonl`, `${prefix}/data/events/${part}.offsets.bin`, `${prefix}/data/calendar/${part}.bin`, '/manifest.json', `${prefix}/manifest.json`, '/edge/worker.js', `${prefix}/edge/wrangler.toml`,
    `/${MEDIA_FILES_INDEX}`, `${prefix}/cms/media/999/`, `${prefix}/cms/media/11`, `${prefix}/autocomplete/index.json.br`, `${prefix}/autocomplete/%2e%2e/manifest.json`,
  ];
  const all: [string, RequestInit][] = gets.map((p) => [p, {}]);
  for (const p of [event, `${event}?limit=2`, `${event}42/`, `${ac}?q=a`, `${prefix}/v1/schema/`]) {
    all.push([p, { method: 'HEAD' }], [p, { method: 'OPTIONS' }], [p, { headers: { accept: BROWSER } }]);
  }
  for (const method of ['POST', 'PUT', 'DELETE', 'PATCH']) all.push([`${event}?limit=1`, { method, body: method === 'DELETE' ? undefined : '{"x":1}' }]);
  all.push(
    [event, { headers: { accept: 'application/xml' } }],
    [`${event}?format=api`, { headers: { accept: BROWSER } }],
    [`${event}?limit=1`, { method: 'OPTIONS', headers: { accept: BROWSER } }],
    [`${event}?format=ics`, { method: 'HEAD' }],
    ['/nope', { method: 'POST' }],
  );
  // a public file answers GET and HEAD only: any other method is its 405, where it exists
  for (const method of ['POST', 'PUT', 'DELETE', 'OPTIONS']) {
    for (const path of [`${prefix}/events.ics`, `${prefix}/openapi.json`, `${prefix}/cms/media/12/`, `${prefix}/cms/media/999/`]) all.push([path, { method, body: method === 'POST' ? 'x' : undefined }]);
  }
  return all;
}

async function compareAll(serverUrl: string, edgeUrl: string, requests: [string, RequestInit][]) {
  const mismatches: string[] = [];
  const seen = { statuses: new Set<number>() };
  for (const [path, init] of requests) {
    const [want, got] = [await exchange(serverUrl + path, init), await exchange(edgeUrl + path, init)];
    seen.statuses.add(want.status);
    const what = `${init.method ?? 'GET'} ${path} ${JSON.stringify(init.headers ?? {})}`;
    if (want.status !== got.status) mismatches.push(`${what}: status ${got.status}, server ${want.status}`);
    if (JSON.stringify(want.headers) !== JSON.stringify(got.headers)) {
      mismatches.push(`${what}: headers\n  edge   ${JSON.stringify(got.headers)}\n  server ${JSON.stringify(want.headers)}`);
    }
    if (!want.body.equals(got.body)) mismatches.push(`${what}: body differs (${got.body.length} bytes, server ${want.body.length})\n  edge   ${got.body.toString().slice(0, 200)}`);
  }
  return { mismatches, seen };
}

/** A dist built with --edge, `aula serve` and workerd over it. */
function edgeSite(content: () => string) {
  const state = {} as { root: string; dist: string; server: Awaited<ReturnType<typeof serve>>; workerd: Workerd };
  beforeAll(async () => {
    state.root = tempDir('aula-edge-');
    state.dist = join(state.root, 'dist');
    await buildOk({ content: content(), out: state.dist, edge: true });
    state.server = await serve(state.dist, { watch: false });
    // the shipped example config, run as its comment says: from the folder holding dist/
    state.workerd = await startWorkerd(state.root, 'dist/edge/workerd.capnp');
  });
  afterAll(async () => {
    await state.workerd?.stop();
    await state.server?.close();
    if (state.root) removeDir(state.root);
  });
  return state;
}

edge('the edge worker in workerd answers as `aula serve` does', () => {
  describe('over the fixture content (base URL with a path prefix)', () => {
    let content = '';
    const site = edgeSite(() => (content = writeContent(tempDir(), { ...FIXTURE_FILES, ...SCRIPTED_MEDIA_FILES })));
    afterAll(() => content && removeDir(content));

    it('the bundle imports no node: module and the configs name it', () => {
      const worker = readFileSync(join(site.dist, 'edge/worker.js'), 'utf8');
      expect(worker).not.toMatch(/from\s*["']node:|import\s*\(?\s*["']node:|require\(\s*["']node:/);
      expect(worker).toMatch(/export\s*\{[^}]*as default/);
      const toml = readFileSync(join(site.dist, 'edge/wrangler.toml'), 'utf8');
      expect(toml).toContain('main = "worker.js"');
      expect(toml).toContain('binding = "ASSETS"');
      expect(toml).toContain('run_worker_first = true');
      expect(readFileSync(join(site.dist, 'edge/workerd.capnp'), 'utf8')).toContain('(name = "ASSETS", service = "assets")');
      // the zone the build checked, named in both configs
      const zone = JSON.parse(readFileSync(join(site.dist, 'manifest.json'), 'utf8')).site.timezone;
      expect(toml).toContain(`AULA_CHECKED_ZONE = ${JSON.stringify(zone)}`);
      expect(readFileSync(join(site.dist, 'edge/workerd.capnp'), 'utf8')).toContain(`(name = "AULA_CHECKED_ZONE", text = ${JSON.stringify(zone)})`);
    });

    it("evaluating the bundle runs neither re2js's nor entities' module code: each is evaluated when an answer first uses it", () => {
      // V8's coverage of the module's evaluation in a node of its own: the innermost function
      // around a string of each library's code has not run (at the top level, it would have)
      const script = `
        import { Session } from 'node:inspector/promises';
        import { readFileSync } from 'node:fs';
        import { pathToFileURL } from 'node:url';
        const [file, ...markers] = process.argv.slice(1);
        const session = new Session();
        session.connect();
        await session.post('Profiler.enable');
        await session.post('Profiler.startPreciseCoverage', { callCount: true, detailed: false });
        const url = pathToFileURL(file).href;
        await import(url);
        const { result } = await session.post('Profiler.takePreciseCoverage');
        const { functions } = result.find((r) => r.url === url);
        const code = readFileSync(file, 'utf8');
        const runs = markers.map((marker) => {
          const at = code.indexOf(marker);
          let inner = null;
          for (const f of functions) for (const r of f.ranges) if (r.startOffset <= at && at < r.endOffset && (inner === null || r.endOffset - r.startOffset < inner.endOffset - inner.startOffset)) inner = r;
          return at < 0 ? null : inner.count;
        });
        console.log(JSON.stringify(runs));
      `;
      const dir = tempDir('aula-edge-eval-');
      try {
        const module = join(dir, 'worker.mjs');
        writeFileSync(module, readFileSync(join(site.dist, 'edge/worker.js')));
        // re2js's message for an unclosed group; an entity name in entities' table
        const run = spawnSync(process.execPath, ['--input-type=module', '-e', script, module, 'missing closing )', 'AElig'], { encoding: 'utf8' });
        expect(run.stderr).toBe('');
        expect(JSON.parse(run.stdout)).toEqual([0, 0]);
      } finally {
        removeDir(dir);
      }
    });

    it('`aula build --edge` on the command line writes the same bundle, and only with the flag', () => {
      const out = join(tempDir('aula-edge-cli-'), 'dist');
      try {
        for (const flags of [['--edge'], []]) {
          const run = aula(['build', '--content', content, '--out', out, ...flags]);
          expect(run.err).toBe('');
          expect(run.code).toBe(0);
          if (flags.length) expect(readFileSync(join(out, 'edge/worker.js'), 'utf8')).toBe(readFileSync(join(site.dist, 'edge/worker.js'), 'utf8'));
          else expect(existsSync(join(out, 'edge'))).toBe(false);
        }
      } finally {
        removeDir(dirname(out));
      }
    });

    it('same status, headers and bytes for every route, filter kind, error and method', async () => {
      const requests = [...querySet('/api', firstPart(site.dist)), ...querySet('', firstPart(site.dist))];
      const { mismatches, seen } = await compareAll(site.server.url, site.workerd.url, requests);
      expect(mismatches).toEqual([]);
      // the set really covers the kinds of answer the brief names
      for (const status of [200, 301, 400, 404, 405, 406]) expect(seen.statuses).toContain(status);
    });

    it('every public file of dist/ (media too), under the base path and at the root: same status, headers and bytes', async () => {
      const files = (readdirSync(site.dist, { recursive: true }) as string[]).map((f) => f.split('\\').join('/')).filter(isPublicFile);
      const media = parseMediaFiles(readFileSync(join(site.dist, MEDIA_FILES_INDEX), 'utf8'));
      // the fixture has each kind: calendar, OpenAPI, schemas, autocomplete module and index, media
      for (const kind of [/^events\.ics$/, /^openapi\.json$/, /^schemas\//, /^autocomplete\/autocomplete\.js$/, /^autocomplete\/index\.json$/]) expect(files.some((f) => kind.test(f))).toBe(true);
      expect(media.length).toBeGreaterThan(0);
      const paths = ['/api', ''].flatMap((prefix) => [...files.map((f) => `${prefix}/${f}`), ...media.map((m) => mediaPath(prefix, m.id))]);
      const mismatches: string[] = [];
      for (const path of paths) {
        for (const method of ['GET', 'HEAD']) {
          const [want, got] = [await exchange(site.server.url + path, { method }), await exchange(site.workerd.url + path, { method })];
          expect(want.status, path).toBe(200);
          if (got.status !== want.status) mismatches.push(`${method} ${path}: status ${got.status}, server ${want.status}`);
          // uncompressed, workerd sends the very headers aula serve does (compressed, see README "On the edge")
          if (JSON.stringify(got.headers) !== JSON.stringify(want.headers)) {
            mismatches.push(`${method} ${path}: headers\n  edge   ${JSON.stringify(got.headers)}\n  server ${JSON.stringify(want.headers)}`);
          }
          if (!want.body.equals(got.body)) mismatches.push(`${method} ${path}: body differs (${got.body.length} bytes, server ${want.body.length})`);
          // the SVG and HTML media files open sandboxed, on both (their headers are compared above)
          const policy = got.headers.find(([n]) => n === 'content-security-policy')?.[1];
          const scripted = media.some((m) => /svg|html/.test(m.mimetype) && path.endsWith(`/cms/media/${m.id}/`));
          expect(policy, path).toBe(scripted ? 'sandbox' : undefined);
        }
      }
      expect(media.filter((m) => /svg|html/.test(m.mimetype))).toHaveLength(2);
      expect(mismatches).toEqual([]);
    });

    it('public files: 304 for the server\'s ETag (strong, weak, list, *), 200 for a stale one', async () => {
      const requests: [string, RequestInit][] = [];
      for (const path of ['/api/openapi.json', '/events.ics', '/api/autocomplete/index.json', '/autocomplete/autocomplete.js']) {
        const etag = (await exchange(site.server.url + path, {})).headers.find(([n]) => n === 'etag')![1];
        for (const tag of [etag, `W/${etag}`, `"x", ${etag}`, '*', '"stale"']) {
          for (const method of ['GET', 'HEAD']) requests.push([path, { method, headers: { 'if-none-match': tag } }]);
        }
      }
      const mismatches: string[] = [];
      const seen = new Set<number>();
      for (const [path, init] of requests) {
        const [want, got] = [await exchange(site.server.url + path, init), await exchange(site.workerd.url + path, init)];
        seen.add(want.status);
        const what = `${init.method} ${path} ${JSON.stringify(init.headers)}`;
        if (got.status !== want.status) mismatches.push(`${what}: status ${got.status}, server ${want.status}`);
        else if (JSON.stringify(got.headers) !== JSON.stringify(want.headers)) mismatches.push(`${what}: headers\n  edge   ${JSON.stringify(got.headers)}\n  server ${JSON.stringify(want.headers)}`);
        if (!want.body.equals(got.body)) mismatches.push(`${what}: body differs`);
      }
      expect(mismatches).toEqual([]);
      expect([...seen].sort()).toEqual([200, 304]);
    });

    it('304 for a matching If-None-Match (strong, weak, list, *), 200 for a stale one', async () => {
      const url = '/api/v1/cms/event/?limit=2';
      const etag = (await exchange(site.server.url + url, {})).headers.find(([n]) => n === 'etag')![1];
      const requests: [string, RequestInit][] = [etag, `W/${etag}`, `"x", ${etag}`, '*', '"stale"'].flatMap((tag) => [
        [url, { headers: { 'if-none-match': tag } }] as [string, RequestInit],
        [url, { method: 'HEAD', headers: { 'if-none-match': tag } }] as [string, RequestInit],
      ]);
      const { mismatches, seen } = await compareAll(site.server.url, site.workerd.url, requests);
      expect(mismatches).toEqual([]);
      expect([...seen.statuses].sort()).toEqual([200, 304]);
    });
  });

  describe('over the sample content (200 events, 1000 directory objects)', () => {
    const site = edgeSite(() => SAMPLE_CONTENT);

    it('same status, headers and bytes for every route, filter kind, error and method', async () => {
      const requests = querySet('', firstPart(site.dist));
      for (const q of ['q=ma', 'q=sch&m=structure.Organization', 'q=raum&m=geo.Room,campus.Room', 'q=mu&limit=50', 'q=a&offset=10000']) {
        requests.push([`/v1/api/autocomplete/?${q}`, {}]);
      }
      for (const offset of [0, 20, 180, 199, 200, 201]) requests.push([`/v1/cms/event/?offset=${offset}`, {}]);
      const { mismatches } = await compareAll(site.server.url, site.workerd.url, requests);
      expect(mismatches).toEqual([]);
    });

    it('the work limit holds in workerd as in node: adversarial patterns and the costliest requests get the same answers, refusals included', async () => {
      // counted work, so the isolate refuses exactly what the server refuses
      const patterns = [...ISSUE_PATTERNS, ...HEAVIEST_PATTERNS, ...BACKTRACKING_PATTERNS.slice(0, 6), ...fc.sample(adversarialPatterns, { numRuns: 40, seed: 31 })];
      const fields = ['title', 'teaser', 'organizer', 'location', 'contact', 'email'];
      const requests: [string, RequestInit][] = patterns.map((p, i) => [`/v1/cms/event/?${fields[i % fields.length]}__${i % 2 ? 'iregex' : 'regex'}=${encodeURIComponent(p)}`, {}]);
      const words = Array.from({ length: 1500 }, (_, i) => `${String.fromCharCode(97 + (i % 26))}${String.fromCharCode(97 + ((i * 7) % 26))}`).join('+');
      for (const q of ['teaser__icontains=e&title__icontains=a&limit=1000&expand=*', 'limit=1000&expand=categories&omit=body', 'format=ics&x=1']) requests.push([`/v1/cms/event/?${q}`, {}]);
      requests.push([`/v1/api/autocomplete/?q=${words}`, {}], ['/v1/cms/event/?limit=1000', { headers: { accept: BROWSER } }]);
      const { mismatches, seen } = await compareAll(site.server.url, site.workerd.url, requests);
      expect(mismatches).toEqual([]);
      expect(seen.statuses).toContain(400);
      const refused = await exchange(`${site.workerd.url}/v1/cms/event/?teaser__iregex=${encodeURIComponent(HEAVIEST_PATTERNS[0])}`, {});
      expect(refused.body.toString()).toMatch(/^\{"detail":"Too expensive: teaser__iregex /);
    });
  });

  describe('configured through bindings, and when the data cannot be loaded', () => {
    const state = {} as { root: string; workerd: Workerd; server: Awaited<ReturnType<typeof serve>>; corruptRel: string; corruptFile: string; original: Buffer };
    const BASE = 'https://edge.example.org/x';
    const CACHE = 'public, max-age=5, stale-while-revalidate=30';
    beforeAll(async () => {
      state.root = tempDir('aula-edge-refuse-');
      const dist = join(state.root, 'dist');
      await buildOk({ content: writeContent(join(state.root, 'content'), FIXTURE_FILES), out: dist, edge: true });
      mkdirSync(join(state.root, 'empty'));
      // a copy whose event data differs from the manifest in one byte (same size: only the SHA-256 tells)
      cpSync(dist, join(state.root, 'corrupt'), { recursive: true });
      state.corruptRel = `data/events/${firstPart(dist)}.jsonl`;
      state.corruptFile = join(state.root, 'corrupt', state.corruptRel);
      state.original = readFileSync(state.corruptFile);
      const damaged = Buffer.from(state.original);
      const at = damaged.indexOf('"title"') + 1;
      damaged[at] = damaged[at] === 0x78 ? 0x79 : 0x78;
      writeFileSync(state.corruptFile, damaged);
      state.server = await serve(dist, { watch: false, baseUrl: BASE, cacheControl: CACHE });
      // three workers on three sockets: one allowed fewer data bytes than the dist has, one over an
      // empty folder, one with the base URL and Cache-Control overridden as `aula serve` allows
      const worker = (assets: string, vars: Record<string, string>) => `(
  modules = [(name = "worker.js", esModule = embed "dist/edge/worker.js")],
  compatibilityDate = "${COMPATIBILITY_DATE}",
  compatibilityFlags = ${JSON.stringify(COMPATIBILITY_FLAGS)},
  bindings = [(name = "ASSETS", service = "${assets}")${Object.entries(vars).map(([k, v]) => `, (name = "${k}", text = "${v}")`).join('')}],
)`;
      writeFileSync(
        join(state.root, 'refuse.capnp'),
        `using Workerd = import "/workerd/workerd.capnp";
const config :Workerd.Config = (
  services = [
    (name = "small", worker = ${worker('assets', { AULA_MAX_DATA_BYTES: '1000' })}),
    (name = "empty", worker = ${worker('nothing', {})}),
    (name = "configured", worker = ${worker('assets', { AULA_BASE_URL: BASE, AULA_CACHE_CONTROL: CACHE })}),
    (name = "corrupt", worker = ${worker('damaged', {})}),
    (name = "badheader", worker = ${worker('assets', { AULA_CACHE_CONTROL: 'max-age=60\\r\\nSet-Cookie: x=1' })}),
    (name = "assets", disk = (path = "dist", writable = false)),
    (name = "nothing", disk = (path = "empty", writable = false)),
    (name = "damaged", disk = (path = "corrupt", writable = false)),
  ],
  sockets = [
    (name = "small", address = "127.0.0.1:0", http = (), service = "small"),
    (name = "empty", address = "127.0.0.1:0", http = (), service = "empty"),
    (name = "configured", address = "127.0.0.1:0", http = (), service = "configured"),
    (name = "corrupt", address = "127.0.0.1:0", http = (), service = "corrupt"),
    (name = "badheader", address = "127.0.0.1:0", http = (), service = "badheader"),
  ],
);
`,
      );
      state.workerd = await startWorkerd(state.root, 'refuse.capnp', ['small', 'empty', 'configured', 'corrupt', 'badheader']);
    });
    afterAll(async () => {
      await state.workerd?.stop();
      await state.server?.close();
      if (state.root) removeDir(state.root);
    });

    it('AULA_BASE_URL and AULA_CACHE_CONTROL answer as `aula serve --base-url --cache-control`', async () => {
      const requests: [string, RequestInit][] = [
        ['/v1/cms/event/?limit=1', {}],
        ['/x/v1/cms/event/?limit=1&offset=1', {}],
        ['/v1/cms/event/42/', {}],
        ['/v1/cms/event', {}],
        ['/v1/cms/event/?format=ics', {}],
        ['/v1/schema/', {}],
        ['/v1/api/autocomplete/?q=a', { method: 'HEAD' }],
        ['/x/openapi.json', {}],
        ['/x/events.ics', { method: 'HEAD' }],
      ];
      const { mismatches } = await compareAll(state.server.url, state.workerd.urls.configured, requests);
      expect(mismatches).toEqual([]);
      const answer = await exchange(`${state.workerd.urls.configured}/v1/cms/event/?limit=1`, {});
      expect(answer.headers).toContainEqual(['cache-control', CACHE]);
      expect(JSON.parse(answer.body.toString()).next).toBe(`${BASE}/v1/cms/event/?limit=1&offset=1`);
    });

    it('answers 503 JSON saying why, instead of running the isolate out of memory', async () => {
      // twice: the refusal is remembered for the isolate, not retried per request
      for (let i = 0; i < 2; i++) {
        const res = await fetch(`${state.workerd.urls.small}/v1/cms/event/`);
        expect(res.status).toBe(503);
        expect(res.headers.get('content-type')).toBe('application/json');
        const { detail } = (await res.json()) as { detail: string };
        expect(detail).toMatch(/^The API data \(0\.\d MB\) is larger than an edge isolate can hold \(0\.0 MB of data files\); serve it with `aula serve` instead\.$/);
      }
    });

    it('answers 503 JSON, not a 500 per answer, when AULA_CACHE_CONTROL cannot be sent as a header', async () => {
      for (let i = 0; i < 2; i++) {
        const res = await fetch(`${state.workerd.urls.badheader}/v1/cms/event/?limit=1`);
        expect(res.status).toBe(503);
        expect(res.headers.get('set-cookie')).toBeNull();
        expect(await res.json()).toEqual({
          detail: 'AULA_CACHE_CONTROL cannot be sent as a header value (printable characters only, no line breaks); set it as `aula serve --cache-control` takes it.',
        });
      }
    });

    it('answers 503 JSON naming the missing file when dist/ is not deployed', async () => {
      for (let i = 0; i < 2; i++) {
        const res = await fetch(`${state.workerd.urls.empty}/v1/cms/event/?limit=1`);
        expect(res.status).toBe(503);
        expect(await res.json()).toEqual({
          detail: 'The API data is not deployed (manifest.json: HTTP 404); deploy dist/ built with `aula build --edge`.',
        });
      }
      expect(state.workerd.log()).not.toMatch(/uncaught|exception/i);
    });

    it('answers the same 503 for a data file that does not match its SHA-256, and serves it once it does', async () => {
      for (let i = 0; i < 2; i++) {
        const res = await fetch(`${state.workerd.urls.corrupt}/v1/cms/event/?limit=1`);
        expect(res.status).toBe(503);
        expect(res.headers.get('content-type')).toBe('application/json');
        expect(await res.json()).toEqual({
          detail: `The API data cannot be read (dist/${state.corruptRel}: does not match its SHA-256 in manifest.json; rebuild with \`aula build\`).`,
        });
      }
      // like a missing file it is retried (a deploy may have been half done): the repaired dist is served
      writeFileSync(state.corruptFile, state.original);
      const res = await fetch(`${state.workerd.urls.corrupt}/v1/cms/event/?limit=1`);
      expect(res.status).toBe(200);
      expect(((await res.json()) as { count: number }).count).toBeGreaterThan(0);
      expect(state.workerd.log()).not.toMatch(/uncaught|exception/i);
    });
  });
});
