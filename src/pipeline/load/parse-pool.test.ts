import { createHash } from 'node:crypto';
import { closeSync, fstatSync, openSync, readdirSync, readFileSync, readSync, statSync, writeFileSync } from 'node:fs';
import type { Worker } from 'node:worker_threads';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EVENTUALLY, removeDir, tempDir } from '../../../test/helpers.ts';
import { eventsKind, parseContext, PARSERS, zoneOf } from '../../content/load.ts';
import { listContentFolder } from '../../content/files.ts';
import { generateContent } from '../../gen/content-generator.ts';
import { listFiles } from '../../util/same-files.ts';
import { NextStats, nextStats } from './next-stats.ts';
import { parseKey } from '../cache/keys.ts';
import { STAT_FIELDS } from '../state/stat-fields.ts';
import { findContentFiles } from '../../content/files.ts';
import { ROW_HASH_BYTES, rowHash } from '../rows/row-entries.ts';
import { ScratchFile } from '../../util/scratch-file.ts';
import { renderEvent, type RenderContext } from '../../render/event.ts';
import { eventRows } from '../../render/event-row.ts';
import { FIELD_COUNT, serializeEvent } from '../../store/format/event-rows.ts';
import type { DirectoryObject, Event } from '../../model/types.ts';
import { directoryKeys, joinedKeys } from '../../content/directory.ts';
import { parsedValues, parseReader, streamedParses } from '../../content/parse-stream.ts';
import { EVENT_TEXTS, hasTexts, type TextlessEvent } from '../../model/event-texts.ts';
import { parseBatch, RowsFile, type BatchRows } from './parse-batch.ts';
import { ParsePool, type ParsePoolOptions } from './parse-pool.ts';
import type { Parsed, Sourced } from '../../content/records.ts';
import type { PremadeRow } from '../rows/row-entries.ts';

// vitest runs the .ts sources, which have no worker entry: the compiled pool is the one with threads
const compiled = () => import(new URL('../../../lib/pipeline/load/parse-pool.js', import.meta.url).href) as Promise<typeof import('./parse-pool.ts')>;
const compiledStats = () => import(new URL('../../../lib/pipeline/load/next-stats.js', import.meta.url).href) as Promise<typeof import('./next-stats.ts')>;

let root: string;
let content: string;
beforeAll(async () => {
  root = tempDir('aula-parse-pool-');
  content = join(root, 'content');
  await generateContent({ events: 260, directory: 400, seed: 3, outDir: content });
  // problems of every sort, in both kinds the threads parse: they must come out as parsed here
  writeFileSync(join(content, 'events', 'broken.yaml'), 'id: [1,\n');
  writeFileSync(join(content, 'events', 'latin1.md'), Buffer.from([0x2d, 0x2d, 0x2d, 0x0a, 0xe9, 0x0a]));
  writeFileSync(join(content, 'directory', 'bad.yaml'), '- model: nope\n  id: 1\n');
});
afterAll(() => removeDir(root));

/** A row made on a thread, as text: from its bytes, or read from where the thread left it. */
function bytesOf(made: PremadeRow): string {
  if (made.json instanceof Uint8Array) return Buffer.from(made.json).toString();
  const bytes = Buffer.alloc(made.starts[FIELD_COUNT]);
  expect(readSync(made.json.fd, bytes, 0, bytes.length, made.json.position)).toBe(bytes.length);
  return bytes.toString();
}

/** The pool's threads running (its ThreadPool's). */
const running = (pool: unknown) => (pool as { threads: { running: { thread: Worker }[] } | null }).threads?.running ?? [];

/** Threads for any number of files (the tests' folders are small). */
const threads: ParsePoolOptions = { threads: 2, minFiles: 1 };

/**
 * The content's files parsed as the build's load parses them (state-load.ts over an empty base): the context here, the
 * directory and the events on `pool` (none: on this thread), their rows made against `baseUrl`'s
 * context where one is given, each file recorded by `recorder`; every file's records and problems, in the listing's order.
 */
async function loadWith(pool: ParsePool | null, recorder?: NextStats, dir = content, baseUrl?: string) {
  const on = pool ?? new ParsePool(dir, recorder, { threads: 0 });
  try {
    const listed = await listContentFolder(dir);
    if (!('files' in listed)) throw new Error(listed.folderProblem);
    const { files } = listed;
    const { site, pages, media, problems } = await parseContext(dir, files, recorder);
    const ctx: RenderContext = { site, baseUrl: baseUrl ?? 'https://example.org', pages: new Map(pages.map((r) => [r.value.uid, r.value])), media: new Map(media.map((r) => [r.value.media.id, r.value.media])) };
    if (baseUrl !== undefined) on.render(ctx);
    const zone = zoneOf(site);
    const directory = await on.parseMany('directory', 'directory', zone, files.directory, files.raw);
    const events = (await on.parseMany(eventsKind(zone), 'events', zone, files.events, files.raw)) as Parsed<Event>[];
    for (const p of [...directory, ...events]) problems.push(...p.problems);
    return { ctx, problems, directory, events, records: events.flatMap((p) => p.records.map((r) => r.value)) };
  } finally {
    on.close();
  }
}

/** The events of every event file, parsed on this thread, whole (the content is invalid: there is no model). */
const parsedEvents = async (dir = content): Promise<Event[]> => (await loadWith(null, undefined, dir)).records as Event[];

/** A recorder of the stats and keys of every file of `dir`, from this module or the compiled one. */
async function recorderOf(dir: string, module: Pick<typeof import('./next-stats.ts'), 'NextStats' | 'nextStats'> = { NextStats, nextStats }): Promise<NextStats> {
  return new module.NextStats(module.nextStats(0n, await findContentFiles(dir)));
}

describe('ParsePool', () => {
  it('gives the loader what it parses itself: records, problems and their order', async () => {
    const { ParsePool: Compiled } = await compiled();
    const here = await loadWith(null);
    const there = await loadWith(new Compiled(content, undefined, threads) as unknown as ParsePool);
    expect(here.problems.length).toBeGreaterThanOrEqual(3);
    expect(there.problems).toEqual(here.problems);
    expect(there.directory).toEqual(here.directory);
    expect(there.events).toEqual(here.events);
  });

  it('records each file parsed on a thread with the key and stat a parse here records', async () => {
    const { ParsePool: Compiled } = await compiled();
    const there = await recorderOf(content, await compiledStats());
    const here = await recorderOf(content);
    const made = await loadWith(new Compiled(content, there, threads) as unknown as ParsePool, there);
    expect((await loadWith(null, here)).events).toEqual(made.events);
    const stats = there.next;
    expect(stats).toEqual(here.next);
    // every event file listed has its stat and key, but the one that cannot be read as text
    const eventFiles = stats.files.slice(0, stats.eventCount);
    expect(eventFiles.filter((_, i) => stats.stats[i * STAT_FIELDS] < 0n)).toEqual(['events/latin1.md']);
    expect(eventFiles.filter((_, i) => stats.keys.subarray(i * 32, (i + 1) * 32).every((b) => b === 0))).toEqual(['events/latin1.md']);
  });

  it('parses on this thread below minFiles and minBytes, and when running from source', async () => {
    const { ParsePool: Compiled } = await compiled();
    for (const pool of [new Compiled(content, undefined, { threads: 2, minFiles: 1e9, minBytes: Infinity }), new ParsePool(content, undefined, threads)]) {
      const loaded = await loadWith(pool as unknown as ParsePool);
      expect(loaded.problems.length).toBeGreaterThanOrEqual(3);
      // no thread was started: closing is all there is to do
      expect(running(pool)).toEqual([]);
    }
  });

  it('parses few files on threads when they are large (a directory of a few hundred big files)', async () => {
    const { ParsePool: Compiled } = await compiled();
    const files = readdirSync(join(content, 'directory')).filter((f) => f.endsWith('.yaml') || f.endsWith('.json')).map((f) => `directory/${f}`);
    const bytes = files.reduce((sum, f) => sum + statSync(join(content, f)).size, 0);
    const here = await new ParsePool(content, undefined, { threads: 0 }).parseMany('directory', 'directory', 'UTC', files, new Map());
    for (const [minBytes, started] of [[bytes, true], [bytes + 1, false]] as const) {
      const pool = new Compiled(content, undefined, { threads: 2, minFiles: 1e9, minBytes });
      const parsing = pool.parseMany('directory', 'directory', 'UTC', files, new Map());
      await new Promise((next) => setImmediate(next));
      expect(running(pool).length > 0).toBe(started);
      expect(await parsing).toEqual(here);
      pool.close();
    }
  });

  it('hands the directory on unread: its parses read back, its keys and its problems are what a parse here gives, on threads as here', async () => {
    const { ParsePool: Compiled } = await compiled();
    const listed = await listContentFolder(content);
    if (!('files' in listed)) throw new Error(listed.folderProblem);
    const files = listed.files.directory;
    const here = await new ParsePool(content, undefined, { threads: 0 }).parseMany('directory', 'directory', 'UTC', files, listed.files.raw);
    const keys = joinedKeys(here.map((p, from) => ({ keys: directoryKeys(p.records as Sourced<DirectoryObject>[], 0), from })));
    for (const pool of [new Compiled(content, undefined, threads), new ParsePool(content, undefined, { threads: 0 })]) {
      const handed = await (pool as unknown as ParsePool).handOn('UTC', files, listed.files.raw);
      expect(handed.files).toEqual(files);
      expect(handed.problems).toEqual(here.flatMap((p) => p.problems));
      expect(handed.keys).toEqual(keys);
      const values = handed.parses.flatMap(({ bytes, count }) => {
        const next = parseReader(bytes);
        return Array.from({ length: count }, () => next('').records.map((r) => r.value));
      });
      expect(values.flat()).toEqual(here.flatMap((p) => p.records.map((r) => r.value)));
      expect(parsedValues(handed.parses)).toEqual(values.flat());
      await pool.close();
    }
  });

  it('stops its threads once nothing is left to parse, and starts new ones for a later parse', async () => {
    const { ParsePool: Compiled } = await compiled();
    const pool = new Compiled(content, undefined, threads);
    const files = readdirSync(join(content, 'events'), { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.md')).map((f) => `events/${f}`);
    expect(files.length).toBeGreaterThan(50);
    const first = pool.parseMany('events in UTC', 'events', 'UTC', files, new Map());
    await new Promise((next) => setImmediate(next));
    const workers = running(pool).map((t) => t.thread);
    expect(workers).toHaveLength(2);
    const exited = workers.map((w) => new Promise((done) => w.once('exit', done)));
    const parsed = await first;
    // the last answer stopped both threads: no failure, and the pool has none until it needs them
    await Promise.all(exited);
    expect(running(pool)).toEqual([]);
    expect(await pool.parseMany('events in UTC', 'events', 'UTC', files, new Map())).toEqual(parsed);
    expect(running(pool)).toEqual([]);
    pool.close();
  });

  it('rejects with one line when a thread fails, and fails every later parse the same way', async () => {
    const { ParsePool: Compiled } = await compiled();
    const pool = new Compiled(content, undefined, threads);
    const files = ['events/broken.yaml', 'events/latin1.md'];
    // a parser the thread does not have: it throws there, as a bug in a parser would
    const failing = pool.parseMany('x', 'no such parser' as 'events', 'UTC', files, new Map());
    await expect(failing).rejects.toThrow(/^a parse thread failed: /);
    await expect(pool.parseMany('events in UTC', 'events', 'UTC', files, new Map())).rejects.toThrow(/^a parse thread failed: /);
    pool.close();
  });
});

describe('rows made on the threads', () => {
  it('are the rows the build makes itself, handed over only for the context they were made against', async () => {
    const { ParsePool: Compiled } = await compiled();
    const pool = new Compiled(content, undefined, threads);
    const loaded = await loadWith(pool as unknown as ParsePool, undefined, content, 'https://example.org/x');
    const { ctx } = loaded;
    // the broken files make the content invalid; its events are parsed and rendered all the same
    expect(loaded.problems.length).toBeGreaterThan(0);
    const premade = (pool as unknown as { premade: Map<TextlessEvent, PremadeRow> }).premade;
    const events = [...premade.keys()];
    expect(events.length).toBeGreaterThan(200);
    // a build without a cache uses no rows' hashes: none were made
    expect([...premade.values()].every((made) => made.hash === null)).toBe(true);
    // their text fields are in the rows alone (absent from the events) and made whole from them
    // when the rows turn out not to fit
    expect(events.some((e) => hasTexts(e) || EVENT_TEXTS.some((f) => f in e))).toBe(false);
    const other = pool.rowsFor({ ...ctx, baseUrl: 'https://example.org/y' });
    expect(other.premade).toBeUndefined();
    const parsedHere = new Map((await parsedEvents()).map((e) => [e.id, e]));
    const wholes = events.map(other.whole);
    expect(wholes.filter((e) => e.body !== '' && e.title !== '' && e.teaser !== '').length).toBeGreaterThan(200);
    // (nulls among them: an event without an organizer, a contact or an e-mail address)
    expect(wholes.some((e) => EVENT_TEXTS.some((f) => e[f] === null))).toBe(true);
    for (const e of wholes) expect(e).toEqual(parsedHere.get(e.id)!);
    // (handed over once: the pool lets go of them, and an event without its texts is refused)
    const again = pool.rowsFor(ctx);
    expect(again.premade).toBeUndefined();
    expect(() => again.whole(events[0])).toThrow(/no texts/);
    pool.dropRows();
  });

  it('match serializeEvent and eventKeys byte for byte, and skip a record they cannot render', async () => {
    const { ParsePool: Compiled } = await compiled();
    // a valid copy of the content: the broken files left out
    const valid = join(root, 'valid');
    await generateContent({ events: 260, directory: 10, seed: 3, outDir: valid });
    // an event naming a media record that does not exist: not renderable (and a problem later)
    writeFileSync(join(valid, 'events', 'dangling.yaml'), 'id: 99999\ntitle: t\nstart: 2026-01-01T10:00:00Z\nend: 2026-01-01T11:00:00Z\nlast_modified: 2026-01-01T09:00:00Z\nmedia: [424242]\n');
    // (recording: a build without a cache needs no rows' hashes, and the threads make none)
    const validPool = new Compiled(valid, await recorderOf(valid, await compiledStats()), threads);
    const { ctx } = await loadWith(validPool as unknown as ParsePool, undefined, valid, 'https://example.org');
    const premade = validPool.rowsFor(ctx).premade!;
    expect(premade.size).toBeGreaterThan(200);
    const events = [...premade.keys()];
    expect(events.some((e) => e.id === 99999)).toBe(false);
    // (without their texts: the rows hold them) compared with the events as parsed here
    expect(events.some((e) => hasTexts(e))).toBe(false);
    const here = new Map((await parsedEvents(valid)).map((e) => [e.id, e]));
    events.forEach((e) => {
      const row = serializeEvent(renderEvent(here.get(e.id)!, ctx));
      const made = premade.get(e)!;
      expect(bytesOf(made)).toBe(row.json);
      expect([...made.starts]).toEqual(row.starts);
      expect(made.hash!.equals(rowHash(Buffer.from(row.json)))).toBe(true);
    });
    // left in the threads' one file (not sent), which is closed once let go of
    const fds = new Set([...premade.values()].map((made) => (made.json instanceof Uint8Array ? -1 : made.json.fd)));
    expect(fds.has(-1)).toBe(false);
    expect(fds.size).toBe(1);
    for (const fd of fds) expect(fstatSync(fd).size).toBeGreaterThan(0);
    const inodes = [...fds].map((fd) => fstatSync(fd).ino);
    validPool.dropRows();
    // closed once the threads have stopped (or the number reused for another file since)
    const open = () => [...fds].filter((fd, i) => {
      try {
        return fstatSync(fd).ino === inodes[i];
      } catch {
        return false;
      }
    });
    await expect.poll(open, EVENTUALLY).toEqual([]);
  });
});

describe('events’ texts', () => {
  it('are left out of a parse a thread makes where the event has its row, which is in a buffer of its own', async () => {
    const files = readdirSync(join(content, 'events'), { recursive: true, encoding: 'utf8' }).filter((f) => /\.(md|yaml)$/.test(f) && !/broken|latin1/.test(f)).map((f) => `events/${f}`).slice(0, 20);
    const { ctx } = await loadWith(null);
    // an event naming a media record that does not exist has no row, and keeps its texts
    const dangling = join(root, 'dangling');
    writeFileSync(join(dangling + '.yaml'), 'id: 99999\ntitle: t\nstart: 2026-01-01T10:00:00Z\nend: 2026-01-01T11:00:00Z\nlast_modified: 2026-01-01T09:00:00Z\nmedia: [424242]\n');
    const batch = [...files, '../dangling.yaml'];
    const answer = parseBatch({ dir: content, kind: 'events', parser: 'events', zone: 'UTC', files: batch, raw: batch.map(() => null), keyed: true, render: true }, eventRows(ctx));
    const problem = answer.files.find((f) => 'problem' in f);
    if (problem) throw new Error(JSON.stringify(problem));
    const parsed = streamedParses(answer.files, answer.bytes, batch) as Parsed<Event>[];
    const [made, unmade] = [parsed.slice(0, -1).flatMap((p) => p.records), parsed.at(-1)!.records];
    expect(made.length).toBeGreaterThan(20);
    // absent, not blank
    expect(made.some((r) => hasTexts(r.value) || EVENT_TEXTS.some((f) => f in r.value))).toBe(false);
    expect(unmade.map((r) => [r.value.id, r.value.title])).toEqual([[99999, 't']]);
    expect([...answer.rows!.made]).toEqual([...made.map(() => 1), 0]);
    // transferred: never a slice of Node's shared pool
    const json = answer.rows!.json as Uint8Array;
    expect([json.byteOffset, json.buffer.byteLength]).toEqual([0, json.byteLength]);
    // with a rows file, the same JSON goes there, and the answer says where
    const file = ScratchFile.create('rows')!;
    try {
      const end = new BigInt64Array(new SharedArrayBuffer(8));
      const written = parseBatch({ dir: content, kind: 'events', parser: 'events', zone: 'UTC', files: batch, raw: batch.map(() => null), keyed: true, render: true }, eventRows(ctx), new RowsFile(file.fd, end));
      expect(written.rows!.json).toEqual({ position: 0 });
      const bytes = Buffer.alloc(json.byteLength);
      readSync(file.fd, bytes, 0, bytes.byteLength, 0);
      expect([end[0], bytes.equals(json)]).toEqual([BigInt(json.byteLength), true]);
    } finally {
      file.close();
    }
  });
});

describe('parseBatch', () => {
  it('answers each file with its problem, or its parse, key and stat', () => {
    const files = ['events/latin1.md', 'site.yaml', 'gone.yaml'];
    const answer = parseBatch({ dir: content, kind: 'site', parser: 'site', zone: 'UTC', files, raw: files.map(() => null), keyed: true, render: false });
    expect(answer.files[0]).toEqual({ problem: expect.objectContaining({ file: 'events/latin1.md', message: expect.stringMatching(/^the file is not valid UTF-8/) }) });
    expect(answer.files[2]).toEqual({ problem: expect.objectContaining({ file: 'gone.yaml', message: 'cannot read the file (ENOENT)' }) });
    const parses = streamedParses(answer.files, answer.bytes, files);
    expect(parses.map((p) => p.problems.length)).toEqual([1, 0, 1]);
    expect(parses[1]).toEqual(PARSERS.site('site.yaml', readFileSync(join(content, 'site.yaml'), 'utf8')));
    const site = answer.files[1] as { key: string; stat: string };
    expect(site.key).toMatch(/^[0-9a-f]{64}$/);
    expect(site.stat.split(':')[0]).toBe(String(readFileSync(join(content, 'site.yaml')).length));
    expect(site.key).toBe(parseKey('site', 'site.yaml', readFileSync(join(content, 'site.yaml'))).toString('hex'));
    const unkeyed = parseBatch({ dir: content, kind: 'site', parser: 'site', zone: 'UTC', files: ['site.yaml'], raw: [null], keyed: false, render: false });
    expect(unkeyed.files[0]).toEqual({ key: null, stat: null });
  });
});

describe('RowsFile', () => {
  /** A batch's rows: each JSON end to end, its offsets (a single field here) and its hash. */
  const batchRows = (...rows: [string, number][]): BatchRows => {
    const starts = new Uint32Array(rows.length * (FIELD_COUNT + 1));
    rows.forEach(([json], i) => starts.fill(Buffer.byteLength(json), i * (FIELD_COUNT + 1) + 1, (i + 1) * (FIELD_COUNT + 1)));
    const hashes = Buffer.concat(rows.map(([, n]) => Buffer.alloc(ROW_HASH_BYTES, 100 + n)));
    return { json: Buffer.from(rows.map(([json]) => json).join('')), starts, hashes, made: new Uint8Array(rows.length).fill(1) };
  };

  it('writes each batch’s rows’ JSON end to end where the shared end says, and answers where', () => {
    const file = ScratchFile.create('rows')!;
    const end = new BigInt64Array(new SharedArrayBuffer(8));
    // two threads' files over the one file and its shared end
    const [one, two] = [new RowsFile(file.fd, end), new RowsFile(file.fd, end)];
    const a = batchRows(['{"a":1}', 1], ['{"b":22}', 2]);
    const b = batchRows(['{"c":333}', 3]);
    expect([one.put(a.json as Uint8Array), two.put(b.json as Uint8Array)]).toEqual([{ position: 0 }, { position: 7 + 8 }]);
    expect(end[0]).toBe(BigInt(7 + 8 + 9));
    // the JSON where the build reads it (parse-pool.ts BatchRow); offsets, keys and hashes stay in the answers
    const bytes = Buffer.alloc(24);
    readSync(file.fd, bytes, 0, 24, 0);
    expect(bytes.toString()).toBe('{"a":1}{"b":22}{"c":333}');
    expect([a.hashes[0], b.hashes[0]]).toEqual([101, 103]);
    file.close();
  });

  it('keeps a batch’s rows in the answer once a write fails, and every later batch’s', () => {
    const path = join(root, 'read-only');
    writeFileSync(path, '');
    // a descriptor every write fails on (a full disk, as far as the thread can tell)
    const fd = openSync(path, 'r');
    try {
      const rows = new RowsFile(fd, new BigInt64Array(new SharedArrayBuffer(8)));
      const [c, d] = [batchRows(['{"a":1}', 1]), batchRows(['{"b":22}', 2])];
      expect([rows.put(c.json as Uint8Array), rows.put(d.json as Uint8Array)]).toEqual([null, null]);
    } finally {
      closeSync(fd);
    }
  });
});

describe('aula build on parse threads', () => {
  it('writes the very dist a build on one thread writes, with the cache and without', async () => {
    const site = join(root, 'big');
    // more event files than the pool's threshold (512), so the default build takes the threads
    await generateContent({ events: 900, directory: 600, seed: 9, outDir: join(site, 'content') });
    const { build } = (await import(new URL('../../../lib/pipeline/build.js', import.meta.url).href)) as typeof import('../build.ts');
    const digests = (dist: string) => new Map(listFiles(dist).map((rel) => [rel, createHash('sha256').update(readFileSync(join(dist, rel))).digest('hex')]));
    const one = await build({ content: join(site, 'content'), out: join(site, 'one'), parseThreads: 0 });
    const cached = await build({ content: join(site, 'content'), out: join(site, 'cached'), cache: join(site, 'cache') });
    const threads = await build({ content: join(site, 'content'), out: join(site, 'threads'), parseThreads: 2 });
    expect([one.ok, cached.ok, threads.ok]).toEqual([true, true, true]);
    expect(cached.ok && cached.cache?.parsed).toBeGreaterThan(512);
    const expected = digests(join(site, 'one'));
    expect(expected.size).toBeGreaterThan(50);
    expect(digests(join(site, 'cached'))).toEqual(expected);
    expect(digests(join(site, 'threads'))).toEqual(expected);
  });
});
