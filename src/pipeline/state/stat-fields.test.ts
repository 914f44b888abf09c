import { mkdirSync, readdirSync, readFileSync, renameSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { removeDir, tempDir } from '../../../test/helpers.ts';
import { build as aulaBuild } from '../build.ts';
import { fileSystemNow } from './stat-fields.ts';

const roots: string[] = [];
afterEach(() => roots.splice(0).forEach(removeDir));

/** A content folder of events a…, each file's times set to an old whole second. */
function site(titles: Record<string, string>): Site {
  const root = tempDir('aula-stat-');
  roots.push(root);
  const content = join(root, 'content');
  for (const [name, title] of Object.entries(titles)) writeEvent(content, name, title);
  return { content, cache: join(root, 'cache'), out: join(root, 'dist') };
}

interface Site {
  content: string;
  cache: string;
  out: string;
}

const OLD = 1_700_000_000; // whole seconds: utimes restores them exactly

function writeEvent(content: string, name: string, title: string, keepTimes = true): void {
  const id = name.charCodeAt(0);
  const file = join(content, 'events', `${name}.yaml`);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `id: ${id}\ntitle: ${title}\nstart: 2025-05-12T10:00:00Z\nend: 2025-05-12T12:00:00Z\nlast_modified: 2025-05-01T00:00:00Z\n`);
  if (keepTimes) utimesSync(file, OLD, OLD);
}

/** One build over the last one (`margin`: 0 trusts any stat older than the build): whether it took the prior, the event files it parsed, and the titles it wrote. */
async function build(s: Site, margin?: bigint) {
  const result = await aulaBuild({ content: s.content, out: s.out, cache: s.cache, statMarginNs: margin });
  if (!result.ok) throw new Error(JSON.stringify(result.problems));
  const events = JSON.parse(readFileSync(join(s.out, 'v1', 'cms', 'event', 'index.json'), 'utf8')) as { results: { title: string }[] };
  return { taken: result.patch!.taken, parsed: result.cache!.parsed, titles: events.results.map((e) => e.title).sort() };
}

describe('the recorded stats', () => {
  it('take an unchanged old file over the prior; a file with a new stat is read, and parsed where its text changed', async () => {
    const s = site({ a: 'Alpha', b: 'Beta' });
    await sleep(50); // the file times (ctime: now) fall before the next builds' time
    expect(await build(s, 0n)).toMatchObject({ taken: false, parsed: 2 });
    expect(await build(s, 0n)).toEqual({ taken: true, parsed: 0, titles: ['Alpha', 'Beta'] });
    writeEvent(s.content, 'b', 'Beta, longer now', false);
    await sleep(50);
    expect(await build(s, 0n)).toEqual({ taken: true, parsed: 1, titles: ['Alpha', 'Beta, longer now'] });
    expect(await build(s, 0n)).toMatchObject({ taken: true, parsed: 0 });
  });

  it('notice an edit that keeps the size and mtime (by its ctime), and a file replaced by another (inode)', async () => {
    const s = site({ a: 'Alpha', b: 'Beta' });
    await sleep(50);
    await build(s, 0n);
    const before = statSync(join(s.content, 'events', 'a.yaml'), { bigint: true });
    writeEvent(s.content, 'a', 'Alpho'); // same size, mtime set back to the same whole second
    const after = statSync(join(s.content, 'events', 'a.yaml'), { bigint: true });
    expect([after.size, after.mtimeNs, after.ino]).toEqual([before.size, before.mtimeNs, before.ino]);
    await sleep(50);
    expect(await build(s, 0n)).toEqual({ taken: true, parsed: 1, titles: ['Alpho', 'Beta'] });
    // the same bytes and times under a new inode: read, and not parsed (its text is the one recorded)
    const other = join(s.content, 'b.tmp');
    writeFileSync(other, readFileSync(join(s.content, 'events', 'b.yaml')));
    utimesSync(other, OLD, OLD);
    renameSync(other, join(s.content, 'events', 'b.yaml'));
    await sleep(50);
    expect(await build(s, 0n)).toEqual({ taken: true, parsed: 0, titles: ['Alpho', 'Beta'] });
  });

  it('read and hash a racy file, whose times are not safely older than the build that recorded it', async () => {
    const s = site({ a: 'Alpha' });
    const file = join(s.content, 'events', 'a.yaml');
    utimesSync(file, new Date(), new Date()); // just written, as far as the next builds can tell
    await build(s); // the default margin: a file changed within seconds of a build is racy
    expect(await build(s)).toEqual({ taken: true, parsed: 0, titles: ['Alpha'] });
    // an edit keeping size and mtime within the racy window is read, whatever the ctime says
    const { mtime } = statSync(file);
    writeEvent(s.content, 'a', 'Alpho', false);
    utimesSync(file, mtime, mtime);
    expect(await build(s)).toEqual({ taken: true, parsed: 1, titles: ['Alpho'] });
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
