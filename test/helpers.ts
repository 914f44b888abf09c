// Shared helpers of the integration tests: real files in temp dirs, the API core asked in-process,
// or a real server on an ephemeral loopback port and real HTTP where the transport is the subject.
import type { ChildProcess } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { afterAll, beforeAll, expect, inject } from 'vitest';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { build, type BuildOptions } from '../src/pipeline/build.ts';
import { createApi, type Api, type ApiOptions } from '../src/api/core.ts';
import { bodyText } from '../src/api/body.ts';
import { loadDataset } from '../src/query/dataset.ts';
import { DistError } from '../src/store/format/manifest.ts';
import { startServer, type RunningServer, type ServeOptions } from '../src/server/http.ts';
import { FIXTURE_FILES } from './fixture-content.ts';
import { generateContent } from '../src/gen/content-generator.ts';
import { loadContent } from '../src/content/load.ts';
import type { Model } from '../src/model/types.ts';

export const SAMPLE_CONTENT = join(import.meta.dirname, '..', 'content');

/**
 * The sample content/ built once for the whole run (test/global-setup.ts), as `aula build` writes
 * it by default. Shared by every test file: read and serve it, never change it — copy it first
 * (`copyOfSampleDist`); the run fails if it was changed.
 */
export function sampleDist(): string {
  return inject('sampleDist');
}

/** The name of the first event part of the dist at `dist` (its manifest's event_parts: its first row's id), whose files a test reads or damages. */
export function firstPart(dist: string): string {
  return JSON.parse(readFileSync(join(dist, 'manifest.json'), 'utf8')).event_parts[0].name;
}

/** A copy of the sample dist in `dir` (created), for a test that changes it. */
export function copyOfSampleDist(dir: string): string {
  cpSync(sampleDist(), dir, { recursive: true });
  return dir;
}

/**
 * `expect.poll(fn, EVENTUALLY)`: for something that happens after an event the test cannot wait
 * on directly (a file watcher's poll, a retry). The timeout is a safety net, not a bound: a busy
 * machine may take many times as long as a quiet one.
 */
export const EVENTUALLY = { timeout: 100_000, interval: 20 } as const;

/**
 * CPU time (user + system, ms) this process spends in `work`: a bound on work that holds on a busy
 * machine, where wall time does not (the tests never bound wall time).
 */
export async function cpuMs<T>(work: () => T | Promise<T>): Promise<{ result: T; ms: number }> {
  const before = process.cpuUsage();
  const result = await work();
  const used = process.cpuUsage(before);
  return { result, ms: (used.user + used.system) / 1000 };
}

/**
 * CPU time (user + system, ms) another process has spent so far, from /proc (in 10 ms ticks): a
 * server's or a command's work, measured from outside without counting wall time.
 */
export function processCpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /, '').split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
}

export function tempDir(prefix = 'aula-test-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

/** The model of content generated (`options`) into `root`/content and loaded from there. */
export async function generatedModel(root: string, options: { events: number; directory: number; seed: number }): Promise<Model> {
  await generateContent({ ...options, outDir: join(root, 'content') });
  return (await loadContent(join(root, 'content'))).model!;
}

export function removeDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}

/** Writes a content folder from path → text. */
export function writeContent(dir: string, files: Record<string, string>): string {
  for (const [rel, text] of Object.entries(files)) {
    const path = join(dir, rel);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, text);
  }
  return dir;
}

export async function buildOk(options: BuildOptions) {
  const result = await build(options);
  if (!result.ok) throw new Error(`build failed:\n${result.problems.map((p) => `${p.file}:${p.line} ${p.key}: ${p.message}`).join('\n')}`);
  return result;
}

export async function serve(dist: string, options: Partial<ServeOptions> = {}): Promise<RunningServer> {
  return startServer({ dist, port: 0, host: '127.0.0.1', ...options });
}

export interface Answer {
  status: number;
  headers: Headers;
  text: string;
  json(): any;
}

/**
 * fetch offers gzip/br by default and decodes silently; the tests look at the API's own bytes
 * and headers, so they ask for identity unless a test is about compression.
 */
export async function request(url: string, init: RequestInit = {}): Promise<Answer> {
  const headers = new Headers(init.headers);
  if (!headers.has('accept-encoding')) headers.set('accept-encoding', 'identity');
  const res = await fetch(url, { redirect: 'manual', ...init, headers });
  const text = await res.text();
  return { status: res.status, headers: res.headers, text, json: () => JSON.parse(text) };
}

/**
 * Asks the API core in-process as `request()` asks a server over HTTP: `ask('/v1/cms/event/?limit=1',
 * { method, headers: { accept, 'if-none-match' } })`. For the API's answers where the transport is
 * not what a test is about (no compression, CORS, static files or health routes: those are the
 * server's).
 */
export function asker(api: Api) {
  return (pathAndQuery: string, init: { method?: string; headers?: Record<string, string> } = {}): Answer => {
    const q = pathAndQuery.indexOf('?');
    const headers = Object.fromEntries(Object.entries(init.headers ?? {}).map(([k, v]) => [k.toLowerCase(), v]));
    const response = api({
      method: init.method ?? 'GET',
      path: q === -1 ? pathAndQuery : pathAndQuery.slice(0, q),
      query: q === -1 ? '' : pathAndQuery.slice(q + 1),
      headers: { accept: headers.accept, 'if-none-match': headers['if-none-match'] },
    });
    const text = bodyText(response.body);
    return { status: response.status, headers: new Headers(response.headers), text, json: () => JSON.parse(text) };
  };
}

/** The API core over `dist`, asked in-process (`asker`). */
export function apiOver(dist: string, options: ApiOptions = {}) {
  return asker(createApi(loadDataset(dist), options));
}

/**
 * The fixture content (plus `extra` files) built for the test file that calls this, and the API
 * core over it, asked in-process: `get` answers as `fixtureSite`'s does over HTTP.
 */
export function fixtureApi(extra: Record<string, string> = {}, options: ApiOptions = {}) {
  let root: string | undefined;
  let dataset: ReturnType<typeof loadDataset> | undefined;
  let ask: ReturnType<typeof asker> | undefined;
  beforeAll(async () => {
    root = tempDir();
    const content = writeContent(join(root, 'content'), { ...FIXTURE_FILES, ...extra });
    await buildOk({ content, out: join(root, 'dist') });
    dataset = loadDataset(join(root, 'dist'));
    ask = asker(createApi(dataset, options));
  });
  afterAll(() => {
    dataset?.close();
    if (root) removeDir(root);
  });
  return {
    get: (pathAndQuery: string, init: { method?: string; headers?: Record<string, string> } = {}) => ask!(pathAndQuery, init),
    get dist() {
      return join(root!, 'dist');
    },
    get content() {
      return join(root!, 'content');
    },
  };
}

/** A built dist and a server over it, for a describe block. */
export async function builtAndServed(content: string, serveOptions: Partial<ServeOptions> = {}, baseUrl?: string) {
  const root = tempDir();
  const dist = join(root, 'dist');
  const built = await buildOk({ content, out: dist, baseUrl });
  const running = await serve(dist, serveOptions);
  return {
    dist,
    built,
    url: running.url,
    get: (pathAndQuery: string, init: RequestInit = {}) => request(`${running.url}${pathAndQuery}`, init),
    async close() {
      await running.close();
      removeDir(root);
    },
  };
}

/** A server over the shared sample dist (read only), for a describe block. */
export async function servedSample(serveOptions: Partial<ServeOptions> = {}) {
  const dist = sampleDist();
  const running = await serve(dist, { watch: false, ...serveOptions });
  return {
    dist,
    url: running.url,
    get: (pathAndQuery: string, init: RequestInit = {}) => request(`${running.url}${pathAndQuery}`, init),
    close: () => running.close(),
  };
}

/**
 * The fixture content (plus `extra` files) built and served for the test file that calls this:
 * hooks are registered here, the fields are ready inside tests.
 */
export function fixtureSite(extra: Record<string, string> = {}) {
  let site: Awaited<ReturnType<typeof builtAndServed>> | undefined;
  let content: string | undefined;
  beforeAll(async () => {
    content = writeContent(tempDir(), { ...FIXTURE_FILES, ...extra });
    site = await builtAndServed(content);
  });
  afterAll(async () => {
    await site?.close();
    if (content) removeDir(content);
  });
  return {
    get: (pathAndQuery: string, init: RequestInit = {}) => site!.get(pathAndQuery, init),
    get url() {
      return site!.url;
    },
    get dist() {
      return site!.dist;
    },
    get content() {
      return content!;
    },
  };
}

/** A TCP port free on 127.0.0.1 right now, for servers that cannot be told to pick their own. */
export function freePort(): Promise<number> {
  return new Promise((ok, fail) => {
    const probe = createServer();
    probe.once('error', fail);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => ok(port));
    });
  });
}

/** The `http://127.0.0.1:<port>` a child `aula serve`/`aula dev` prints once it listens; rejects when it exits first. */
export function listeningOrigin(child: ChildProcess, label = 'aula'): Promise<string> {
  return new Promise<string>((ok, fail) => {
    let out = '';
    child.stdout!.on('data', (d) => {
      out += d;
      const m = /on (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
      if (m) ok(m[1]);
    });
    child.stderr!.on('data', (d) => (out += d));
    child.once('exit', (code) => fail(new Error(`${label} exited ${code}: ${out}`)));
  });
}

/** The DistError message loading `dir` as `aula serve` does gives; fails the test when it loads. */
export function refusal(dir: string): string {
  try {
    loadDataset(dir);
  } catch (e) {
    expect(e).toBeInstanceOf(DistError);
    return (e as Error).message;
  }
  throw new Error('loaded without complaint');
}
