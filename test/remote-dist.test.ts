// `aula serve --dist http://origin/path/`: a plain node:http file server on loopback plays the
// origin (a CDN or object store) over a folder holding a built dist. The replica loads from it,
// follows a new build published under load without a failed request, refuses a truncated data
// file (old data answering, /readyz 503) and recovers once the file is fixed.
import { copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { createServer, type Server, type ServerResponse } from 'node:http';
import { gzipSync } from 'node:zlib';
import type { AddressInfo } from 'node:net';
import { join, normalize, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { RunningServer } from '../src/server/http.ts';
import { remoteData } from '../src/server/remote-data.ts';
import { fetchRemoteDist, OriginUnavailable, RefusedBuild, REFUSED_ETAG_TRUST_MS, remoteBase } from '../src/store/read/remote-source.ts';
import { DistError } from '../src/store/format/manifest.ts';
import { aula, startAula } from './aula-cli.ts';
import { FIXTURE_FILES } from './fixture-content.ts';
import { buildOk, removeDir, request, serve, tempDir, writeContent } from './helpers.ts';

// older than the fixture's events: last in list order, so the event parts before them are unchanged
const extraEvents = (n: number) =>
  Array.from({ length: n }, (_, i) => `- id: ${900 + i}\n  title: Neu ${i}\n  start: 2020-07-0${i + 1}T10:00\n  end: 2020-07-0${i + 1}T12:00\n  last_modified: 2025-06-20T12:00:00Z\n`).join('');

function walk(dir: string, base = dir): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? walk(path, base) : [relative(base, path)];
  });
}

/** A static origin over `root`: ETag and Last-Modified from the file's mtime and size, 304 on a match. */

/** Each dataset remote-data.ts gave to decodeTextsSoon, and whether its decoding was stopped since (the decoding itself as it is). */
const decoding = vi.hoisted(() => [] as { dataset: unknown; stopped: boolean }[]);
vi.mock('../src/server/decode-texts.ts', async (original) => {
  const { decodeTextsSoon } = await original<typeof import('../src/server/decode-texts.ts')>();
  return {
    decodeTextsSoon: (dataset: Parameters<typeof decodeTextsSoon>[0], log: (line: string) => void) => {
      const stop = decodeTextsSoon(dataset, log);
      const entry = { dataset, stopped: false };
      decoding.push(entry);
      return () => {
        entry.stopped = true;
        stop();
      };
    },
  };
});
function staticOrigin(root: string) {
  const seen = { manifest: 0, notModified: 0, files: new Map<string, number>(), sent: new Map<string, number>() };
  let sendValidators = true;
  /** answers a request itself (a misbehaving origin) when it returns true */
  let misbehave: ((path: string, res: ServerResponse) => boolean) | null = null;
  const server: Server = createServer((req, res) => {
    const path = normalize(decodeURIComponent(new URL(req.url!, 'http://x').pathname)).replace(/^\/+/, '');
    if (misbehave?.(path, res)) return;
    if (!path.startsWith('dist/') || path.includes('..')) return void res.writeHead(404).end();
    let bytes: Buffer;
    let info;
    try {
      info = statSync(join(root, path));
      bytes = readFileSync(join(root, path));
    } catch {
      return void res.writeHead(404).end();
    }
    if (path === 'dist/manifest.json') seen.manifest++;
    seen.files.set(path, (seen.files.get(path) ?? 0) + 1);
    const etag = `"${info.size.toString(16)}-${info.mtimeMs.toString(16)}"`;
    if (sendValidators && req.headers['if-none-match'] === etag) {
      seen.notModified++;
      return void res.writeHead(304, { ETag: etag }).end();
    }
    seen.sent.set(path, (seen.sent.get(path) ?? 0) + 1);
    res.writeHead(200, { 'Content-Length': bytes.length, ...(sendValidators ? { ETag: etag, 'Last-Modified': info.mtime.toUTCString() } : {}) });
    res.end(bytes);
  });
  return {
    server,
    seen,
    set validators(on: boolean) {
      sendValidators = on;
    },
    set misbehave(answer: ((path: string, res: ServerResponse) => boolean) | null) {
      misbehave = answer;
    },
    listen: () => new Promise<string>((ok) => server.listen(0, '127.0.0.1', () => ok(`http://127.0.0.1:${(server.address() as AddressInfo).port}/dist/`))),
    close: () => new Promise<void>((ok) => server.close(() => ok())),
  };
}

/** Copies a built dist over the origin's, data files first and the manifest last, as a careful publisher does. */
function publish(from: string, to: string, { manifestLast = true } = {}): void {
  const files = walk(from).sort((a, b) => Number(a === 'manifest.json') - Number(b === 'manifest.json'));
  if (!manifestLast) files.reverse();
  for (const rel of files) {
    mkdirSync(join(to, rel, '..'), { recursive: true });
    copyFileSync(join(from, rel), join(to, rel));
  }
}

/** Waits for what a poll of the origin brings about; the limit is a safety net, never a bound the test relies on. */
async function until(what: string, condition: () => boolean | Promise<boolean>, ms = 100_000): Promise<void> {
  const started = Date.now();
  while (!(await condition())) {
    if (Date.now() - started > ms) throw new Error(`${what}: not within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('a remote dist on an HTTP origin', () => {
  let root: string;
  const builds: Record<'a' | 'b' | 'c', string> = { a: '', b: '', c: '' };
  let origin: ReturnType<typeof staticOrigin>;
  let originUrl: string;
  let replica: RunningServer;
  let initial: number;
  const logs: string[] = [];

  beforeAll(async () => {
    root = tempDir('aula-remote-');
    for (const [name, extra] of [['a', 0], ['b', 1], ['c', 3]] as const) {
      const content = writeContent(join(root, `content-${name}`), { ...FIXTURE_FILES, ...(extra ? { 'events/extra.yaml': extraEvents(extra) } : {}) });
      builds[name] = join(root, `build-${name}`);
      // two rows a part: the builds' rows are several parts, fetched one by one
      await buildOk({ content, out: builds[name], precompress: false, eventPartRows: 2 });
    }
    publish(builds.a, join(root, 'dist'));
    origin = staticOrigin(root);
    originUrl = await origin.listen();
    replica = await serve(originUrl, { pollMs: 300, log: (line) => logs.push(line) });
    initial = (await request(`${replica.url}/v1/cms/event/?limit=1`)).json().count;
  });

  afterAll(async () => {
    await replica?.close();
    await origin?.close();
    if (root) removeDir(root);
  });

  const manifestOf = (dir: string) => JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as { files: Record<string, { sha256: string }>; build_id: string };
  const partsOf = (dir: string) => Object.keys(manifestOf(dir).files).filter((rel) => rel.startsWith('data/events/')).sort();
  /** a part of build `to` that no part of build `from` has the bytes of (the replica must fetch it) */
  const newPart = (from: string, to: string) => {
    const had = new Set(partsOf(from).map((rel) => manifestOf(from).files[rel].sha256));
    return partsOf(to).find((rel) => !had.has(manifestOf(to).files[rel].sha256))!;
  };
  const count = async () => (await request(`${replica.url}/v1/cms/event/?limit=1`)).json().count as number;
  const readyz = async () => (await request(`${replica.url}/readyz`)).status;

  it('answers from the origin’s build, byte-identical to a server over the same dist on disk', async () => {
    const local = await serve(builds.a, { watch: false });
    try {
      for (const path of ['/v1/cms/event/', '/v1/cms/event/?title__icontains=kurs&expand=categories', '/v1/cms/event/43/', '/v1/api/autocomplete/?q=muel', '/v1/cms/event/?format=ics']) {
        const [remote, disk] = [await request(`${replica.url}${path}`), await request(`${local.url}${path}`)];
        expect(remote.status, path).toBe(200);
        expect(remote.text, path).toBe(disk.text);
        expect(remote.headers.get('etag'), path).toBe(disk.headers.get('etag'));
      }
    } finally {
      await local.close();
    }
    expect(await readyz()).toBe(200);
    // the public files are the CDN's: the replica answers API routes only
    expect((await request(`${replica.url}/events.ics`)).status).toBe(404);
  });

  it('polls the manifest with a conditional GET: an unchanged origin answers 304', async () => {
    const before = { ...origin.seen };
    await until('two polls', () => origin.seen.manifest - before.manifest >= 2);
    // (both counted in the same turn of the origin's handler)
    expect(origin.seen.notModified - before.notModified).toBe(origin.seen.manifest - before.manifest);
  });

  it('follows a new build published under load within a poll, with no failed request', async () => {
    const old = await count();
    const fetched = (rel: string) => origin.seen.files.get(`dist/${rel}`) ?? 0;
    const parts = partsOf(builds.b);
    expect(parts.length).toBeGreaterThan(2);
    const before = { parts: parts.map(fetched), index: fetched('data/autocomplete.bin'), categories: fetched('data/categories.json') };
    const failures: string[] = [];
    const counts = new Set<number>();
    const paths = ['/v1/cms/event/?limit=1', '/v1/cms/event/?title__icontains=e', '/v1/api/autocomplete/?q=m', '/v1/cms/event/43/', '/v1/cms/event/?start__gte=2025-01-01T00:00:00Z'];
    let sent = 0;
    let published = false;
    let followed = false;
    let manifestsAtPublish = 0;
    let manifestsAtFollow = -1;
    const worker = async () => {
      // 2,000 requests, continued (up to 6,000) on a machine slow enough that they ended before the swap
      while (sent < 2_000 || (!followed && sent < 6_000)) {
        const i = sent++;
        const path = paths[i % paths.length];
        try {
          const answer = await request(`${replica.url}${path}`);
          if (answer.status !== 200) failures.push(`${path} → ${answer.status} ${answer.text.slice(0, 100)}`);
          else if (i % paths.length === 0) {
            const n = answer.json().count as number;
            counts.add(n);
            if (n !== old && !followed && published) {
              followed = true;
              manifestsAtFollow = origin.seen.manifest;
            }
          }
        } catch (e) {
          failures.push(`${path} → ${(e as Error).message}`);
        }
        if (i === 400) {
          publish(builds.b, join(root, 'dist'));
          published = true;
          manifestsAtPublish = origin.seen.manifest;
        }
      }
    };
    await Promise.all(Array.from({ length: 8 }, worker));
    expect(failures).toEqual([]);
    if (!followed) await until('the replica follows', async () => (await count()) !== old);
    expect(await count()).toBe(old + 1);
    expect(counts).toEqual(new Set([old, old + 1]));
    // within one poll: the replica took the new build from the first manifest it asked for after
    // the publication, not after retries (one more may have been in flight at the publication,
    // one more may run before a request sees the swap)
    if (manifestsAtFollow >= 0) expect(manifestsAtFollow - manifestsAtPublish).toBeLessThanOrEqual(3);
    expect(await readyz()).toBe(200);
    // named by its build id (X-Aula-Build), which any change of the content changes
    expect(logs).toContainEqual(expect.stringMatching(new RegExp(`^loaded build ${manifestOf(builds.b).build_id} from http://127\\.0\\.0\\.1`)));
    // only the files that changed were downloaded: the directory and categories are the same
    // an event part is fetched when no part of the build served has its bytes
    const had = new Set(partsOf(builds.a).map((rel) => manifestOf(builds.a).files[rel].sha256));
    const fetchedAgain = parts.map((rel, i) => fetched(rel) - before.parts[i]);
    expect(fetchedAgain).toEqual(parts.map((rel) => (had.has(manifestOf(builds.b).files[rel].sha256) ? 0 : 1)));
    expect(fetchedAgain).toContain(0);
    expect(fetched('data/autocomplete.bin')).toBe(before.index);
    // the browser's index is the CDN's to serve: never downloaded
    expect(fetched('autocomplete/index.json')).toBe(0);
    expect(fetched('data/categories.json')).toBe(before.categories);
  });

  it('refuses a truncated data file: the old build keeps answering, /readyz 503, then recovers', async () => {
    const old = await count();
    const dist = join(root, 'dist');
    // the upload of the events was cut short (the manifest, as published, lists the whole file)
    const cut = join(root, 'build-c-cut');
    publish(builds.c, cut);
    const part = newPart(builds.b, builds.c);
    const events = readFileSync(join(builds.c, part));
    writeFileSync(join(cut, part), events.subarray(0, events.length - 50));
    publish(cut, dist);
    await until('/readyz says 503', async () => (await readyz()) === 503);
    const body = (await request(`${replica.url}/readyz`)).json();
    expect(body.ready).toBe(false);
    expect(await count()).toBe(old);
    expect((await request(`${replica.url}/v1/cms/event/43/`)).status).toBe(200);
    expect(logs.some((l) => l.includes(part) && /bytes, manifest.json says|SHA-256/.test(l) && l.startsWith('kept serving the previous data'))).toBe(true);

    // the other files of the build arrived whole: a retry asks only for the broken one, and as
    // the origin still has it as it was (its ETag), is answered 304: it is not downloaded again
    const fetched = (rel: string) => origin.seen.files.get(`dist/${rel}`) ?? 0;
    const sent = (rel: string) => origin.seen.sent.get(`dist/${rel}`) ?? 0;
    const columns = fetched('data/columns/start.ordered.bin');
    const tries = fetched(part);
    const downloads = sent(part);
    await until('two retries', async () => fetched(part) > tries + 1);
    expect(fetched('data/columns/start.ordered.bin')).toBe(columns);
    expect(sent(part)).toBe(downloads);
    expect(await readyz()).toBe(503);

    // the file is fixed; the manifest is not touched, so only an unconditional re-fetch sees it
    copyFileSync(join(builds.c, part), join(dist, part));
    await until('the replica recovers', async () => (await readyz()) === 200);
    expect(await count()).toBe(old + 2);
  });

  it('keeps serving and stays ready while the origin is down; picks up where it left off', async () => {
    await origin.close();
    // a poll has found the origin down
    await until('the outage is logged', () => logs.some((l) => l.startsWith('kept serving the previous data') && l.includes('cannot be fetched')));
    expect(await readyz()).toBe(200);
    expect((await request(`${replica.url}/v1/cms/event/?limit=1`)).status).toBe(200);
    origin.server.listen(Number(new URL(originUrl).port), '127.0.0.1');
    publish(builds.a, join(root, 'dist'));
    await until('the replica follows after the outage', async () => (await count()) === initial);
  });

  it('decodes the column texts of each build it loads, and stops when that build is replaced or the data is stopped', async () => {
    const data = await remoteData({ dist: originUrl, pollMs: 3_600_000, log: () => {} });
    try {
      const first = decoding.find((d) => d.dataset === data.dataset)!;
      expect(first.stopped).toBe(false);
      publish(builds.b, join(root, 'dist'));
      expect(await data.reload()).toBe(true);
      expect(data.dataset).not.toBe(first.dataset);
      // the replaced build's decoding stopped; the new one's going on
      expect(first.stopped).toBe(true);
      const second = decoding.find((d) => d.dataset === data.dataset)!;
      expect(second.stopped).toBe(false);
      data.stop();
      expect(second.stopped).toBe(true);
    } finally {
      data.stop();
      publish(builds.a, join(root, 'dist'));
    }
  });
});

describe('fetchRemoteDist', () => {
  let root: string;
  let origin: ReturnType<typeof staticOrigin>;
  let base: URL;

  beforeAll(async () => {
    root = tempDir('aula-remote-unit-');
    const content = writeContent(join(root, 'content'), FIXTURE_FILES);
    await buildOk({ content, out: join(root, 'dist'), precompress: false });
    origin = staticOrigin(root);
    base = remoteBase(await origin.listen());
  });

  afterAll(async () => {
    await origin?.close();
    if (root) removeDir(root);
  });

  it('trusts a refused file\'s ETag for a while only: a fix that keeps it (same size, mtime kept) is taken after that', async () => {
    const rel = 'data/categories.json';
    const path = join(root, 'dist', rel);
    const saved = readFileSync(path);
    const broken = Buffer.from(saved);
    broken[broken.length - 2] ^= 0x20; // the same size
    const SECOND = 1_700_000_000;
    writeFileSync(path, broken);
    utimesSync(path, SECOND, SECOND);
    try {
      const sent = () => origin.seen.sent.get(`dist/${rel}`) ?? 0;
      const refusal = (await fetchRemoteDist(base).then(() => null, (e: unknown) => e)) as RefusedBuild;
      expect(refusal).toBeInstanceOf(RefusedBuild);
      const downloads = sent();
      // fixed, at the same size and mtime: its ETag is the one refused, as nginx's would be
      writeFileSync(path, saved);
      utimesSync(path, SECOND, SECOND);
      const again = (await fetchRemoteDist(base, undefined, undefined, refusal.verified, refusal.refused).then(() => null, (e: unknown) => e)) as RefusedBuild;
      expect(again).toBeInstanceOf(RefusedBuild);
      expect(sent()).toBe(downloads);
      // once that ETag has been trusted long enough, the file is downloaded again and the build taken
      const aged = new Map([...again.refused].map(([key, v]) => [key, { ...v, downloadedAt: v.downloadedAt - REFUSED_ETAG_TRUST_MS }]));
      expect(aged.size).toBe(1);
      expect(await fetchRemoteDist(base, undefined, undefined, again.verified, aged)).not.toBe('unchanged');
      expect(sent()).toBe(downloads + 1);
    } finally {
      writeFileSync(path, saved);
    }
  });

  it('recognizes an unchanged manifest by its bytes when the origin sends no validators', async () => {
    origin.validators = false;
    try {
      const first = await fetchRemoteDist(base);
      expect(first).not.toBe('unchanged');
      if (first === 'unchanged') return;
      expect(first.validators.etag).toBeUndefined();
      expect(await fetchRemoteDist(base, first.validators)).toBe('unchanged');
    } finally {
      origin.validators = true;
    }
  });

  it('refuses a file the origin sends larger than the manifest lists, without reading it all', async () => {
    const path = join(root, 'dist/data/categories.json');
    const saved = readFileSync(path);
    writeFileSync(path, Buffer.concat([saved, Buffer.alloc(1_000_000, 32)]));
    try {
      await expect(fetchRemoteDist(base)).rejects.toThrow(/categories\.json: the origin sends \d+ bytes, more than the \d+ expected/);
    } finally {
      writeFileSync(path, saved);
    }
  });

  it('names a missing file and a manifest larger than the limit', async () => {
    const path = join(root, 'dist/data/columns/start.ordered.bin');
    const saved = readFileSync(path);
    rmSync(path);
    try {
      await expect(fetchRemoteDist(base)).rejects.toThrow(/data\/columns\/start\.ordered\.bin: the origin answers HTTP 404/);
    } finally {
      writeFileSync(path, saved);
    }
    const limits = { maxManifestBytes: 100, maxTotalBytes: 1e9, manifestTimeoutMs: 5_000, fileTimeoutMs: 5_000 };
    await expect(fetchRemoteDist(base, undefined, limits)).rejects.toThrow(/manifest\.json: the origin sends \d+ bytes, more than the 100 expected/);
  });

  it('tells an unreachable origin from a broken build', async () => {
    // a port that was free a moment ago: nothing listens there
    const probe = createServer();
    await new Promise<void>((ok) => probe.listen(0, '127.0.0.1', ok));
    const port = (probe.address() as AddressInfo).port;
    await new Promise((ok) => probe.close(ok));
    const nowhere = remoteBase(`http://127.0.0.1:${port}/dist/`);
    const error = await fetchRemoteDist(nowhere).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OriginUnavailable);
    expect(String((error as Error).message)).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/dist\/manifest\.json: cannot be fetched \(ECONNREFUSED\)/);
    const missing = await fetchRemoteDist(remoteBase(`${base.origin}/elsewhere/`)).catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(DistError);
    expect(missing).not.toBeInstanceOf(OriginUnavailable);
  });

  const failure = (known?: Parameters<typeof fetchRemoteDist>[1]) => fetchRemoteDist(base, known).then(() => null, (e: unknown) => e as Error);

  it('takes bodies a compressing origin sends, however their encoded length compares', async () => {
    // stored (level 0) gzip: every body's encoding is longer than the file the manifest lists
    origin.misbehave = (path, res) => {
      const bytes = gzipSync(readFileSync(join(root, path)), { level: 0 });
      res.writeHead(200, { 'Content-Encoding': 'gzip', 'Content-Length': bytes.length }).end(bytes);
      return true;
    };
    try {
      expect(await failure()).toBeNull();
    } finally {
      origin.misbehave = null;
    }
  });

  it('counts 408, 429, a 5xx data file and a download cut off midway as the origin failing, not the build', async () => {
    const answers: [string, (res: ServerResponse) => void][] = [
      ['dist/manifest.json', (res) => res.writeHead(429).end()],
      ['dist/manifest.json', (res) => res.writeHead(408).end()],
      ['dist/data/columns/start.ordered.bin', (res) => res.writeHead(503).end()],
      // the file's length promised, half of it sent, then the connection closes
      ['dist/data/columns/start.ordered.bin', (res) => {
        const bytes = readFileSync(join(root, 'dist/data/columns/start.ordered.bin'));
        res.writeHead(200, { 'Content-Length': bytes.length });
        res.write(bytes.subarray(0, bytes.length >> 1), () => res.destroy());
      }],
    ];
    for (const [file, answer] of answers) {
      origin.misbehave = (path, res) => path === file && (answer(res), true);
      try {
        const error = await failure();
        expect([file, error?.name, error?.message]).toEqual([file, 'OriginUnavailable', expect.stringMatching(/: the origin answers HTTP (429|408|503)$|: the download broke off after \d+ bytes/)]);
      } finally {
        origin.misbehave = null;
      }
    }
    // a 404 still says the dist is not there
    origin.misbehave = (path, res) => path === 'dist/data/columns/start.ordered.bin' && (res.writeHead(404).end(), true);
    try {
      expect((await failure())?.name).toBe('RefusedBuild');
    } finally {
      origin.misbehave = null;
    }
  });

  it('refuses a URL with credentials without printing them, and one that is not a URL, by name', () => {
    expect(() => remoteBase('http://user:secret@127.0.0.1:1/dist/')).toThrow(new DistError('http://127.0.0.1:1/dist/: a remote dist URL may not hold a user name or password'));
    expect(() => remoteBase('http://[::1')).toThrow(new DistError('http://[::1: not a valid URL'));
  });
});

describe('aula serve --dist <URL> on the command line', () => {
  const run = (...args: string[]) => aula(['serve', ...args]);

  it('refuses a --poll that is not a duration, and an origin without a dist, in one line with exit 1', async () => {
    const bad = run('--dist', 'http://127.0.0.1:1/dist/', '--poll', '30');
    expect(bad.code).toBe(1);
    expect(bad.err.trim()).toBe("error: option '--poll <duration>' argument '30' is invalid. expected a duration such as 500ms, 30s or 2m");

    const empty = createServer((_req, res) => res.writeHead(404).end());
    await new Promise<void>((ok) => empty.listen(0, '127.0.0.1', ok));
    const url = `http://127.0.0.1:${(empty.address() as AddressInfo).port}/site/dist`;
    try {
      const { code, err } = await startAula(['serve', '--dist', url, '--port', '0']).exited;
      expect(code).toBe(1);
      expect(err.trim().split('\n')).toEqual([`aula: ${url}/manifest.json: the origin answers HTTP 404`]);
    } finally {
      await new Promise((ok) => empty.close(ok));
    }
    // an origin that cannot be reached, and a URL of another scheme: the cause, not "unexpected error"
    const down = run('--dist', 'http://127.0.0.1:1/dist/', '--port', '0');
    expect(down.code).toBe(1);
    expect(down.err).toMatch(/^aula: http:\/\/127\.0\.0\.1:1\/dist\/manifest\.json: cannot be fetched \([^)]+\)\n$/);
    // with workers, said once (each worker failed alike, and the primary said one had exited)
    const two = run('--dist', 'http://127.0.0.1:1/dist/', '--port', '0', '--workers', '2');
    expect(two.code).toBe(1);
    expect(two.err).toMatch(/^aula: http:\/\/127\.0\.0\.1:1\/dist\/manifest\.json: cannot be fetched \([^)]+\)\n$/);
    const ftp = run('--dist', 'ftp://127.0.0.1/dist', '--port', '0');
    expect([ftp.code, ftp.err]).toEqual([1, 'aula: ftp://127.0.0.1/dist: a remote dist must be an http(s) URL\n']);
  });

  it('prints what a poll finds escaped: bytes of the origin never reach the log raw', async () => {
    const root = tempDir('aula-remote-log-');
    const content = writeContent(join(root, 'content'), FIXTURE_FILES);
    await buildOk({ content, out: join(root, 'dist'), precompress: false });
    const origin = staticOrigin(root);
    const url = await origin.listen();
    const serve = startAula(['serve', '--dist', url, '--port', '0', '--poll', '100ms', '--quiet']);
    try {
      await serve.waitFor(/aula serving/);
      // a manifest that is not JSON, with a terminal escape, a bell and a line forging a log entry
      origin.misbehave = (path, res) => path === 'dist/manifest.json' && (res.writeHead(200).end('\x1b[31mEVIL\x07\n2026-01-01T00:00:00Z GET /admin 200 {'), true);
      await serve.waitFor(/kept serving the previous data/);
      const out = serve.out;
      const line = out.split('\n').find((l) => l.includes('kept serving'))!;
      // none of the origin's bytes is repeated
      expect(line).toMatch(/^aula: kept serving the previous data: http:\/\/127\.0\.0\.1:\d+\/dist\/manifest\.json: not valid JSON \(retrying on every poll until the build is complete\)$/);
      expect(out).not.toMatch(/EVIL/);
      expect(out).not.toMatch(/[\x00-\x09\x0b-\x1f\x7f]/);
      expect(out.split('\n').filter((l) => l.includes('GET /admin'))).toEqual([]);
    } finally {
      await serve.stop();
      await origin.close();
      removeDir(root);
    }
  });
});
