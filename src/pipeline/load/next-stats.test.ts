import { chmodSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { removeDir, tempDir, writeContent } from '../../../test/helpers.ts';
import { findContentFiles } from '../../content/files.ts';
import { listingOver } from '../../content/listed-folders.ts';
import { nextStats } from './next-stats.ts';

const EVENT = 'id: 1\ntitle: A\nstart: 2026-05-12T18:00\nend: 2026-05-12T20:00\n';
const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) removeDir(dir);
});

/** A content folder with events in nested folders and directory files. */
function content(): string {
  const dir = tempDir('aula-next-stats-');
  made.push(dir);
  return writeContent(dir, { 'site.yaml': 'title: x\n', 'events/2026/05/a.md': `---\n${EVENT}---\n`, 'events/2026/b.yaml': EVENT, 'directory/p.yaml': 'id: 1\n' });
}

/** The listing's record, as a build leaves it; `safe`: its time (by default a minute from now: every stat safely before it). */
async function recorded(dir: string, safe = BigInt(Date.now() + 60_000) * 1_000_000n) {
  return nextStats(safe, await findContentFiles(dir), dir);
}

/** `record` naming one more event file than the folder holds, in a folder it lists: a listing taken as recorded gives it. */
function withPhantom(record: Awaited<ReturnType<typeof recorded>>) {
  record.files.splice(record.eventCount, 0, PHANTOM);
  record.eventCount++;
  return record;
}
const PHANTOM = 'events/2026/05/recorded.md';

describe('listingOver: the listing taken as recorded while no folder changed', () => {
  it('gives the listing as it was listed, with no folder read', async () => {
    const dir = content();
    const listed = await findContentFiles(dir);
    expect(await listingOver(dir, withPhantom(await recorded(dir)), 0n)).toEqual({ files: { ...listed, events: [...listed.events, PHANTOM] } });
  });

  it('lists again where a folder changed too close to the recording build\u2019s time: the racy case', async () => {
    const dir = content();
    const record = withPhantom(await recorded(dir, BigInt(Date.now() - 60_000) * 1_000_000n));
    expect(await listingOver(dir, record, 0n)).toEqual({ files: await findContentFiles(dir) });
  });

  it('records nothing of a listing that followed a link or holds a file it does not read: only a listing tells those', async () => {
    const linked = content();
    symlinkSync(join(linked, 'events/2026'), join(linked, 'events/linked'));
    expect((await recorded(linked)).folders).toBeNull();
    const typo = content();
    writeFileSync(join(typo, 'events/2026/c.markdown'), EVENT);
    expect((await recorded(typo)).folders).toBeNull();
  });
});

describe('listingOver: the listing as recorded, but for the folders that changed', () => {
  /** a listing with its folders in order (the walk takes known folders in the recorded order) */
  const sorted = (listed: Awaited<ReturnType<typeof listingOver>>) => ('files' in listed ? { ...listed.files, folders: [...(listed.files.folders ?? [])].sort() } : listed);

  it('gives what a listing gives after a file was added, removed or renamed, a folder made or removed, or a folder made unreadable', async () => {
    for (const change of [
      (dir: string) => writeFileSync(join(dir, 'events/2026/05/c.md'), `---\n${EVENT}---\n`),
      (dir: string) => writeContent(dir, { 'events/new/deeper/c.md': `---\n${EVENT}---\n` }),
      (dir: string) => rmSync(join(dir, 'events/2026/b.yaml')),
      (dir: string) => renameSync(join(dir, 'directory/p.yaml'), join(dir, 'directory/q.yaml')),
      (dir: string) => rmSync(join(dir, 'events/2026/05'), { recursive: true }),
      (dir: string) => writeFileSync(join(dir, 'pages.yaml'), '[]\n'),
      (dir: string) => writeFileSync(join(dir, 'events/2026/c.markdown'), EVENT),
      (dir: string) => chmodSync(join(dir, 'events/2026'), 0o700),
    ]) {
      const dir = content();
      const record = await recorded(dir);
      change(dir);
      expect(sorted(await listingOver(dir, record, 0n))).toEqual(sorted({ files: await findContentFiles(dir) }));
    }
  });

  it('reads only the folders that changed: the others give the entries recorded', async () => {
    const dir = content();
    const record = await recorded(dir);
    // a file the record names in a folder that did not change, and that is not there
    const events = record.files.slice(0, record.eventCount);
    record.files.splice(0, record.eventCount, ...events, 'events/2026/05/recorded.md');
    record.eventCount++;
    writeFileSync(join(dir, 'events/2026/c.md'), `---\n${EVENT}---\n`);
    const listed = await listingOver(dir, record, 0n);
    expect('files' in listed && listed.files.events).toEqual(['events/2026/05/a.md', 'events/2026/05/recorded.md', 'events/2026/b.yaml', 'events/2026/c.md']);
  });

  it('lists the whole folder where nothing was recorded', async () => {
    const dir = content();
    expect(await listingOver(dir, null, 0n)).toEqual({ files: await findContentFiles(dir) });
  });
});
