import { mkdirSync, readdirSync, readFileSync, renameSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { removeDir, tempDir } from '../../../test/helpers.ts';
import { eventsKind, loadContent } from '../../content/load.ts';
import { build as aulaBuild } from '../build.ts';
import { BuildCache, packPath } from '../cache/build-cache.ts';
import { ledgerPath } from '../ledger/dist-ledger.ts';
import { eventStatePath } from './event-state.ts';
import { StatTable } from '../load/stat-table.ts';
import { beginStats } from '../load/stat-files.ts';
import { findContentFiles } from '../../content/files.ts';
import { recordedStats } from './previous-build.ts';
import { fileSystemNow, type FileStats } from './stat-fields.ts';

const roots: string[] = [];
afterEach(() => roots.splice(0).forEach(removeDir));

/** A content folder of events a…, each file's times set to an old whole second. */
function site(titles: Record<string, string>): Site {
  const root = tempDir('aula-stat-');
  roots.push(root);
  const content = join(root, 'content');
  for (const [name, title] of Object.entries(titles)) writeEvent(content, name, title);
  return { content, cache: join(root, 'cache'), recorded: null };
}

interface Site {
  content: string;
  cache: string;
  /** what the last load recorded, as the event state keeps it */
  recorded: FileStats | null;
}

const OLD = 1_700_000_000; // whole seconds: utimes restores them exactly

function writeEvent(content: string, name: string, title: string, keepTimes = true): void {
  const id = name.charCodeAt(0);
  const file = join(content, 'events', `${name}.yaml`);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `id: ${id}\ntitle: ${title}\nstart: 2025-05-12T10:00:00Z\nend: 2025-05-12T12:00:00Z\nlast_modified: 2025-05-01T00:00:00Z\n`);
  if (keepTimes) utimesSync(file, OLD, OLD);
}

/**
 * One load through a fresh cache over the last one's records, saved; `margin`: 0 trusts any stat
 * older than the build; `current`: the recorded event files' stats as taken before (beginRecordedStats).
 */
async function build(s: Site, margin?: bigint, current?: BigInt64Array) {
  const pack = packPath(s.cache, s.content);
  const cache = StatTable.open(new BuildCache(pack), pack, s.recorded, await findContentFiles(s.content), margin);
  if (current) cache.current = current;
  const { model, problems } = await loadContent(s.content, { cache });
  expect(problems).toEqual([]);
  cache.cache!.save();
  const next = cache.next;
  s.recorded = next && { zone: model!.site.timezone, ...next };
  cache.release();
  return { titles: model!.events.map((e) => e.title), unread: cache.unread, misses: cache.cache!.stats.misses, hits: cache.cache!.stats.hits };
}

describe('the recorded stats', () => {
  it('takes an unchanged old file without reading it; a file with a new stat is read', async () => {
    const s = site({ a: 'Alpha', b: 'Beta' });
    await sleep(50); // the file times (ctime: now) fall before the next builds' time
    expect(await build(s, 0n)).toMatchObject({ unread: 0, misses: 2 });
    expect(await build(s, 0n)).toEqual({ titles: ['Alpha', 'Beta'], unread: 2, misses: 0, hits: 2 });
    writeEvent(s.content, 'b', 'Beta, longer now', false);
    await sleep(50);
    expect(await build(s, 0n)).toEqual({ titles: ['Alpha', 'Beta, longer now'], unread: 1, misses: 1, hits: 1 });
    expect(await build(s, 0n)).toMatchObject({ unread: 2, misses: 0 });
  });

  it('notices an edit that keeps the size and mtime (by its ctime), and a file replaced by another (inode)', async () => {
    const s = site({ a: 'Alpha', b: 'Beta' });
    await sleep(50);
    await build(s, 0n);
    expect(await build(s, 0n)).toMatchObject({ unread: 2 });
    const before = statSync(join(s.content, 'events', 'a.yaml'), { bigint: true });
    writeEvent(s.content, 'a', 'Alpho'); // same size, mtime set back to the same whole second
    const after = statSync(join(s.content, 'events', 'a.yaml'), { bigint: true });
    expect([after.size, after.mtimeNs, after.ino]).toEqual([before.size, before.mtimeNs, before.ino]);
    await sleep(50);
    expect(await build(s, 0n)).toEqual({ titles: ['Alpho', 'Beta'], unread: 1, misses: 1, hits: 1 });
    // the same bytes and times under a new inode: read (and found in the pack by its text)
    const other = join(s.content, 'b.tmp');
    writeFileSync(other, readFileSync(join(s.content, 'events', 'b.yaml')));
    utimesSync(other, OLD, OLD);
    renameSync(other, join(s.content, 'events', 'b.yaml'));
    await sleep(50);
    expect(await build(s, 0n)).toEqual({ titles: ['Alpho', 'Beta'], unread: 1, misses: 0, hits: 2 });
  });

  it('reads and hashes a racy file, whose times are not safely older than the build that recorded it', async () => {
    const s = site({ a: 'Alpha' });
    const file = join(s.content, 'events', 'a.yaml');
    utimesSync(file, new Date(), new Date()); // just written, as far as the next builds can tell
    await build(s); // the default margin: a file changed within seconds of a build is racy
    const racy = await build(s);
    expect(racy).toEqual({ titles: ['Alpha'], unread: 0, misses: 0, hits: 1 });
    // an edit keeping size and mtime within the racy window is read, whatever the ctime says
    const { mtime } = statSync(file);
    writeEvent(s.content, 'a', 'Alpho', false);
    utimesSync(file, mtime, mtime);
    expect(await build(s)).toMatchObject({ titles: ['Alpho'], unread: 0, misses: 1 });
  });

  it('are read from the event state of this out folder, else of another; a damaged or foreign one gives none', async () => {
    const s = site({ a: 'Alpha', b: 'Beta' });
    const out = join(s.content, '..', 'dist');
    expect((await aulaBuild({ content: s.content, out, cache: s.cache })).ok).toBe(true);
    expect(recordedStats(s.cache, s.content, out)?.eventFiles.sort()).toEqual(['events/a.yaml', 'events/b.yaml']);
    expect(recordedStats(s.cache, s.content, join(s.content, '..', 'another'))?.eventFiles).toHaveLength(2);
    expect(recordedStats(s.cache, s.content, null)?.eventFiles).toHaveLength(2);
    expect(recordedStats(s.cache, `${s.content}-other`, out)).toBeNull();
    const path = eventStatePath(ledgerPath(s.cache, s.content, out));
    const intact = readFileSync(path);
    for (const damage of [
      (b: Buffer) => (b[b.length >> 1] ^= 0x01), // one bit inside
      (b: Buffer) => b.subarray(0, b.length - 1),
      () => Buffer.from('garbage'),
    ]) {
      const bytes = Buffer.from(intact);
      const damaged = damage(bytes);
      writeFileSync(path, Buffer.isBuffer(damaged) ? damaged : bytes);
      expect(recordedStats(s.cache, s.content, out)).toBeNull();
    }
  });

  it('judges the event files by the stats taken before the load, and records those (the next load reads a file changed since)', async () => {
    const s = site({ a: 'Alpha', b: 'Beta' });
    await sleep(50);
    await build(s, 0n);
    const taken = await beginStats(s.recorded!.eventFiles.map((f) => join(s.content, f))).finish();
    writeEvent(s.content, 'b', 'Beta, longer now', false);
    await sleep(50);
    // as the content stood when its stats were taken
    expect(await build(s, 0n, taken)).toEqual({ titles: ['Alpha', 'Beta'], unread: 2, misses: 0, hits: 2 });
    expect(await build(s, 0n)).toEqual({ titles: ['Alpha', 'Beta, longer now'], unread: 1, misses: 1, hits: 1 });
    // a file gone since the stats were taken is read (its stat: none), not taken by its record
    const gone = await beginStats([join(s.content, 'events', 'a.yaml'), join(s.content, 'events', 'nothing.yaml')]).finish();
    expect(await build(s, 0n, gone)).toMatchObject({ unread: 1, misses: 0, hits: 2 });
  });

  it('a record naming a key the pack lacks costs only a read', async () => {
    const s = site({ a: 'Alpha' });
    await sleep(50);
    await build(s, 0n);
    writeFileSync(packPath(s.cache, s.content), 'not a pack');
    expect(await build(s, 0n)).toEqual({ titles: ['Alpha'], unread: 0, misses: 1, hits: 0 });
  });
});

describe('fileSystemNow', () => {
  it('reads the time from a probe it creates and removes, and never touches a file it did not create', () => {
    const dir = tempDir('aula-probe-');
    try {
      expect(typeof fileSystemNow(dir)).toBe('bigint');
      expect(readdirSync(dir)).toEqual([]);
      // at the name the probe once had: left alone, and in nobody's way
      const theirs = join(dir, `stat-probe.${process.pid}.tmp`);
      writeFileSync(theirs, 'not aula');
      expect(typeof fileSystemNow(dir)).toBe('bigint');
      expect(readdirSync(dir)).toEqual([`stat-probe.${process.pid}.tmp`]);
      expect(readFileSync(theirs, 'utf8')).toBe('not aula');
    } finally {
      removeDir(dir);
    }
  });
});
