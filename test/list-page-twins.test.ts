// Which files of a dist get .gz/.br twins: the event-list pages below TWINNED_EVENTS and every
// other compressible public file. A dist whose every page has twins (as an older aula wrote it)
// hands none of its deeper pages' twins to a later build: an incremental build over it, by the
// patch path (pages linked) and by the full one (pages answered), writes the dist a clean build
// writes.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { pageHasTwins, TWINNED_EVENTS } from '../src/deploy/precompress.ts';
import { listFiles } from '../src/util/same-files.ts';
import { pageFile } from '../src/pipeline/write/manifest-of.ts';
import { buildOk, removeDir, tempDir } from './helpers.ts';
import { manyEventsContent } from './many-events.ts';

// every page with twins, as an older aula wrote them (only while `everyPage` is set)
const policy = vi.hoisted(() => ({ everyPage: false }));
vi.mock('../src/deploy/precompress.ts', async (importOriginal) => {
  const real = await importOriginal<typeof import('../src/deploy/precompress.ts')>();
  return { ...real, pageHasTwins: (offset: number) => policy.everyPage || real.pageHasTwins(offset) };
});

const PAGE_SIZE = 250;
const root = tempDir('aula-list-twins-');
afterAll(() => removeDir(root));
// pages at 0, 250, 500, 750 (with twins) and 1000 (without)
const content = manyEventsContent(join(root, 'content'), TWINNED_EVENTS + 10, PAGE_SIZE);

const twinsOf = (dist: string, rel: string) => ['.gz', '.br'].filter((ext) => existsSync(join(dist, `${rel}${ext}`)));

/** Every page's twins, by offset, for `events` events. */
function pageTwins(dist: string, events: number): Record<number, string[]> {
  const twins: Record<number, string[]> = {};
  for (let offset = 0; offset < events; offset += PAGE_SIZE) twins[offset] = twinsOf(dist, pageFile(offset));
  return twins;
}

const expected = (events: number, every = false) => {
  const twins: Record<number, string[]> = {};
  for (let offset = 0; offset < events; offset += PAGE_SIZE) twins[offset] = every || offset < TWINNED_EVENTS ? ['.gz', '.br'] : [];
  return twins;
};

const sha = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');
/** rel → SHA-256 of every file of a dist but changes.json (which says what changed since the last build) */
const digests = (dist: string) => new Map(listFiles(dist).filter((rel) => rel !== 'changes.json').map((rel) => [rel, sha(join(dist, rel))]));

describe('twins of the event-list pages', () => {
  it('are written for the pages below TWINNED_EVENTS only, and for every other compressible public file', async () => {
    expect([0, TWINNED_EVENTS - 1, TWINNED_EVENTS, TWINNED_EVENTS + 1].map(pageHasTwins)).toEqual([true, true, false, false]);
    const dist = join(root, 'clean');
    const { manifest } = await buildOk({ content, out: dist });
    expect(manifest.counts.event_list_pages).toBe(5);
    expect(pageTwins(dist, TWINNED_EVENTS + 10)).toEqual(expected(TWINNED_EVENTS + 10));
    const others = Object.keys(manifest.public_files!).filter((rel) => /\.(?:json|js|ics)$/.test(rel) && !rel.startsWith('v1/cms/event/'));
    expect(others).toEqual(expect.arrayContaining(['events.ics', 'openapi.json', 'autocomplete/autocomplete.js', 'schemas/event.schema.json']));
    for (const rel of others) expect(twinsOf(dist, rel), rel).toEqual(['.gz', '.br']);
    removeDir(dist);
  });

  it("a dist with every page's twins carries none of a deeper page's into a later build", async () => {
    const out = join(root, 'dist');
    const cache = join(root, 'cache');
    policy.everyPage = true;
    await buildOk({ content, out, cache });
    policy.everyPage = false;
    expect(pageTwins(out, TWINNED_EVENTS + 10)).toEqual(expected(TWINNED_EVENTS + 10, true));

    const steps: [string, number, () => void][] = [
      // an event of the first page: the deeper page is unchanged, linked from the previous dist by the patch path
      ['one title changed', TWINNED_EVENTS + 10, () => {
        const { id } = JSON.parse(readFileSync(join(out, pageFile(0)), 'utf8')).results[0];
        const file = join(content, `events/e${id}.md`);
        writeFileSync(file, readFileSync(file, 'utf8').replace(`title: Veranstaltung ${id}\n`, 'title: Geändert\n'));
      }],
      // every page changes
      ['one event added', TWINNED_EVENTS + 11, () => writeFileSync(join(content, 'events/e9999.md'), readFileSync(join(content, 'events/e5.md'), 'utf8').replace('id: 5\n', 'id: 9999\n'))],
    ];
    for (const [what, events, edit] of steps) {
      edit();
      const built = await buildOk({ content, out, cache });
      if (what === 'one title changed') expect(built.patch, what).toMatchObject({ taken: true });
      expect(pageTwins(out, events), what).toEqual(expected(events));
      const clean = join(root, 'clean');
      await buildOk({ content, out: clean });
      const [got, want] = [digests(out), digests(clean)];
      removeDir(clean);
      expect([...got.keys()].sort(), what).toEqual([...want.keys()].sort());
      expect([...got].filter(([rel, hash]) => want.get(rel) !== hash).map(([rel]) => rel), what).toEqual([]);
    }
  });
});
