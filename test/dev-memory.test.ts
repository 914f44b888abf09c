// `aula dev` serves an edit from memory before dist/ is written, and then writes dist/ behind:
// a real dev server on 127.0.0.1 and real files in a temp folder, its answers compared with
// `aula serve` over a clean build of the same content, and its dist/ with that clean build.
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDev, type DevServer } from '../src/dev/dev.ts';
import { generateContent } from '../src/gen/content-generator.ts';
import { listFiles } from '../src/util/same-files.ts';
import { CHANGES_FILE } from '../src/pipeline/ledger/changes.ts';
import { aula } from './aula-cli.ts';
import { firstPart, removeDir, request, serve, tempDir } from './helpers.ts';

const root = tempDir('aula-dev-memory-');
const content = join(root, 'content');
const out = join(root, 'dist');
const logs: string[] = [];
let dev: DevServer;
let cleanBuilds = 0;

beforeAll(async () => {
  await generateContent({ events: 120, directory: 150, seed: 11, outDir: content });
  dev = await startDev({ content, out, port: 0, host: '127.0.0.1', cache: join(root, 'cache'), log: (l) => logs.push(l), debounceMs: 50 });
});
afterAll(async () => {
  await dev?.close();
  removeDir(root);
});

const read = (rel: string) => readFileSync(join(content, rel), 'utf8');
const write = (rel: string, text: string) => writeFileSync(join(content, rel), text);

/** The first event file (Markdown) and its id; its title is on a line of its own. */
function anEvent(): { rel: string; id: string } {
  const rel = listFiles(join(content, 'events')).map((f) => `events/${f}`).find((f) => f.endsWith('.md'))!;
  return { rel, id: /^id: (\d+)$/m.exec(read(rel))![1] };
}

function retitle(rel: string, title: string): void {
  write(rel, read(rel).replace(/^title: .*$/m, `title: ${JSON.stringify(title)}`));
}

async function eventually<T>(what: string, probe: () => Promise<T>, ok: (value: T) => boolean, ms = 100_000): Promise<T> {
  const deadline = Date.now() + ms;
  let last = await probe();
  while (!ok(last)) {
    if (Date.now() > deadline) throw new Error(`${what}: still ${JSON.stringify(last)} after ${ms} ms\n${logs.join('\n')}`);
    await new Promise((r) => setTimeout(r, 25));
    last = await probe();
  }
  return last;
}

/**
 * A request, sent again once when the connection was reset: after the seconds a test waits for
 * dist/ to be written, the client may reuse a kept-alive connection just as the server's
 * keep-alive timeout closes it (a race of the client's, not an answer of the server's).
 */
async function get(url: string) {
  try {
    return await request(url);
  } catch (e) {
    if ((e as { cause?: { code?: string } }).cause?.code !== 'ECONNRESET') throw e;
    return request(url);
  }
}

const detail = async (id: string) => (await get(`${dev.url}/v1/cms/event/${id}/?fields=title`)).json().title as string;

/** What is compared: lists, paging, filters (columns and text), expand, sparse fields, a detail, autocomplete, public files. */
function pathsFor(id: string, term: string): string[] {
  return [
    '/v1/cms/event/',
    '/v1/cms/event/?limit=7&offset=14',
    '/v1/cms/event/?categories=1&expand=categories',
    '/v1/cms/event/?title__icontains=e&fields=id,title,start',
    '/v1/cms/event/?start__gte=2025-06-01T00:00:00Z&ordering=start',
    `/v1/cms/event/${id}/`,
    `/v1/cms/event/${id}/?expand=categories`,
    `/v1/api/autocomplete/?q=${encodeURIComponent(term)}`,
    '/v1/api/autocomplete/?q=a&limit=50',
    // the public files: the served build's, whether made in memory or read from dist/
    '/events.ics',
    '/openapi.json',
    '/schemas/event.schema.json',
    '/autocomplete/index.json',
  ];
}

/**
 * A clean build (no cache) of the content as it is now by `aula build`, as dev writes dist/ (the
 * browser module is bundled from lib/ there, so its bytes are those of the command line's builds),
 * served by `aula serve`.
 */
async function cleanServe() {
  const dist = join(root, `clean-${cleanBuilds++}`);
  // (dev's links name the port it listens on, which --port 0 picked)
  const built = aula(['build', '--quiet', '--no-cache', '--content', content, '--out', dist, '--base-url', dev.url]);
  expect(built.code, built.err).toBe(0);
  const server = await serve(dist);
  return { dist, url: server.url, close: () => server.close() };
}

async function answers(url: string, paths: readonly string[]) {
  return Promise.all(
    paths.map(async (p) => {
      const a = await get(`${url}${p}`);
      return { path: p, status: a.status, type: a.headers.get('content-type'), body: a.text, etag: a.headers.get('etag'), build: a.headers.get('x-aula-build') };
    }),
  );
}

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');
/** rel → sha256 of every file of a dist but changes.json (it lists what changed since the previous build) */
const digests = (dist: string) => new Map(listFiles(dist).filter((rel) => rel !== CHANGES_FILE).map((rel) => [rel, sha(readFileSync(join(dist, rel)))]));
const manifestBuild = (dist: string) => JSON.parse(readFileSync(join(dist, 'manifest.json'), 'utf8')).build_id as string;

/** Serves what `aula serve` serves over a clean build: the bodies while from memory, and after dist/ is written, every header that names the data too. */
async function expectSameAsClean(paths: readonly string[], label: string) {
  const clean = await cleanServe();
  try {
    const fromMemory = await answers(dev.url, paths);
    const want = await answers(clean.url, paths);
    expect(fromMemory.map(({ path, status, type, body }) => ({ path, status, type, body })), label).toEqual(want.map(({ path, status, type, body }) => ({ path, status, type, body })));
    await dev.settled();
    // dist/ is a clean build's, byte for byte, and the server answers from it
    expect(digests(out), `${label}: dist/`).toEqual(digests(clean.dist));
    const fromDist = await answers(dev.url, paths);
    expect(fromDist, `${label}: answered from dist/`).toEqual(want);
    expect(fromDist[0].build).toBe(manifestBuild(out));
  } finally {
    await clean.close();
  }
}

describe('aula dev from memory', () => {
  it('serves an edit from memory before dist/ is written, then writes dist/ as a clean build does', async () => {
    await dev.settled();
    const { rel, id } = anEvent();
    await expectSameAsClean(pathsFor(id, 'a'), 'at start');

    const title = 'Vom Speicher serviert';
    retitle(rel, title);
    await eventually('the edit', () => detail(id), (t) => t === title);
    // answered by data made in memory: its build id is no dist's
    const served = await get(`${dev.url}/v1/cms/event/${id}/`);
    expect(served.headers.get('x-aula-build')).not.toBe(manifestBuild(out));
    expect(logs.filter((l) => l.startsWith('built in')).at(-1)).toMatch(/\(1 file parsed, \d+ kept in memory; 1 row rendered\)/);
    await expectSameAsClean(pathsFor(id, 'a'), 'after the edit');
  });

  it('keeps the last good answers on a broken edit, and serves the fix', async () => {
    await dev.settled();
    const { rel, id } = anEvent();
    const paths = pathsFor(id, 'a');
    const before = await answers(dev.url, paths);
    const distBefore = digests(out);
    const good = read(rel);
    write(rel, good.replace(/^title: .*$/m, 'title: Kaputt').replace(/^id: .*$/m, 'id: [unclosed'));
    await eventually('the problem', async () => logs.find((l) => l.startsWith(`${rel}:`)), (l) => l !== undefined);
    expect(logs.at(-1)).toMatch(/still serving the last good build/);
    expect(await answers(dev.url, paths)).toEqual(before);
    await dev.settled();
    expect(digests(out)).toEqual(distBefore);
    retitle(rel, 'Repariert');
    write(rel, read(rel).replace('id: [unclosed', `id: ${id}`));
    await eventually('the fix', () => detail(id), (t) => t === 'Repariert');
    await expectSameAsClean(paths, 'after the fix');
  });

  it('serves the later of two quick edits, and dist/ catches up with it', async () => {
    await dev.settled();
    const { rel, id } = anEvent();
    retitle(rel, 'Erste Fassung');
    await eventually('the first edit', () => detail(id), (t) => t === 'Erste Fassung');
    // the second edit arrives while the first one's dist/ is being written
    retitle(rel, 'Zweite Fassung');
    await eventually('the second edit', () => detail(id), (t) => t === 'Zweite Fassung');
    await dev.settled();
    expect(await detail(id)).toBe('Zweite Fassung');
    expect(readFileSync(join(out, `data/events/${firstPart(out)}.jsonl`), 'utf8')).toContain('"title":"Zweite Fassung"');
    await expectSameAsClean(pathsFor(id, 'a'), 'after two edits');
  });

  it('renders every row again when site.yaml changes, and expands a changed category', async () => {
    await dev.settled();
    const { id } = anEvent();
    write('categories.yaml', read('categories.yaml').replace(/^ {2}title: .*$/m, '  title: Umbenannte Kategorie'));
    await eventually('the category', async () => (await get(`${dev.url}/v1/cms/event/?categories=1&expand=categories`)).text, (t) => t.includes('Umbenannte Kategorie'));
    await expectSameAsClean(pathsFor(id, 'a'), 'after a category edit');

    const events = JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8')).counts.events as number;
    write('site.yaml', read('site.yaml').replace(/^page_size: .*$/m, 'page_size: 9'));
    await eventually('the page size', async () => (await get(`${dev.url}/v1/cms/event/`)).json().results.length, (n) => n === 9);
    expect(logs.filter((l) => l.startsWith('built in')).at(-1)).toContain(`${events} rows rendered`);
    await expectSameAsClean(pathsFor(id, 'a'), 'after a site.yaml edit');
  });

  it('updates autocomplete after a directory edit', async () => {
    await dev.settled();
    const rel = listFiles(join(content, 'directory')).map((f) => `directory/${f}`).find((f) => /^ {2}last_name: /m.test(read(f)))!;
    write(rel, read(rel).replace(/^ {2}last_name: .*$/m, '  last_name: Quastenflosser'));
    const names = async () => (await get(`${dev.url}/v1/api/autocomplete/?q=quastenfl`)).text;
    await eventually('the new name', names, (t) => t.includes('Quastenflosser'));
    await expectSameAsClean(pathsFor(anEvent().id, 'quastenfl'), 'after a directory edit');
  });
});
