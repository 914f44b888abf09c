import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { spyOnDecodes } from '../../test/decode-spy.ts';
import { readdirSync, readFileSync, readlinkSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { copyOfSampleDist, firstPart, removeDir, sampleDist, tempDir } from '../../test/helpers.ts';
import { loadDataset } from '../query/dataset.ts';
import { calendarPartFile, DATA_FILES, loadedFiles } from '../store/format/dist-paths.ts';
import { liveData } from './live-data.ts';

let dist: string;
let root: string;
beforeAll(() => {
  dist = sampleDist();
  root = tempDir('aula-live-data-');
});
afterAll(() => removeDir(root));

/** How many descriptors this process holds open on `path` (Linux: /proc/self/fd). */
function openOn(path: string): number {
  let n = 0;
  for (const fd of readdirSync('/proc/self/fd')) {
    try {
      if (readlinkSync(`/proc/self/fd/${fd}`) === path) n++;
    } catch {
      // (the directory's own descriptor, closed once read)
    }
  }
  return n;
}

describe('liveData', () => {
  // first in the file: the formatters are kept per zone for the module's life
  it("makes the site zone's formatter while it loads, so that its first date filter makes none (nor loads ICU's zone data)", async () => {
    const { DateTimeFormat } = Intl;
    const zones: (string | undefined)[] = [];
    Intl.DateTimeFormat = new Proxy(DateTimeFormat, {
      construct(target, args: ConstructorParameters<typeof DateTimeFormat>, newTarget) {
        zones.push(args[1]?.timeZone);
        return Reflect.construct(target, args, newTarget) as object;
      },
    });
    try {
      const data = await liveData({ dist, watch: false, log: () => {} });
      try {
        expect(zones).toContain(data.dataset.site.timezone);
        zones.length = 0;
        const answer = data.api({ method: 'GET', path: '/v1/cms/event/', query: 'start__gte=2020-01-01&end__lt=2030-06-30', headers: {} });
        expect(answer.status).toBe(200);
        expect(zones).toEqual([]);
      } finally {
        data.stop();
      }
    } finally {
      Intl.DateTimeFormat = DateTimeFormat;
    }
  });

  it("decodes the column texts of the data it loads a moment after serving it, and of data made in memory (aula dev) none", async () => {
    // (only the timers: the load's own check turns the event loop with setImmediate)
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const spy = spyOnDecodes();
    try {
      const made = await liveData({ dist, dataset: loadDataset(dist), watch: false, log: () => {} });
      expect(vi.getTimerCount()).toBe(0);
      made.stop();
      const loaded = await liveData({ dist, watch: false, log: () => {} });
      expect(vi.getTimerCount()).toBe(1);
      const before = spy.seen.length;
      vi.advanceTimersByTime(1000);
      expect(spy.seen.length).toBe(before + 1);
      // the next list on the next turn; stop() ends it
      loaded.use!(loadDataset(dist));
      expect(vi.getTimerCount()).toBe(0);
      loaded.stop();
    } finally {
      spy.restore();
      vi.useRealTimers();
    }
  });

  it('answers a filter at once after the load, and again from reloaded data', async () => {
    const lines: string[] = [];
    const data = await liveData({ dist, watch: false, log: (l) => lines.push(l) });
    try {
      const ask = () => data.api({ method: 'GET', path: '/v1/cms/event/', query: 'teaser__icontains=e&end__gte=2020-01-01', headers: {} });
      const first = ask();
      expect(first.status).toBe(200);
      const before = data.dataset;
      expect(await data.reload()).toBe(true);
      expect(data.dataset).not.toBe(before);
      expect(ask().body).toEqual(first.body);
      expect(lines).toEqual([`reloaded ${dist}/`]);
    } finally {
      data.stop();
    }
  });

  it('reloads while the old data answers: the event loop turns throughout (at least once a file), then one swap', async () => {
    const data = await liveData({ dist, watch: false, log: () => {} });
    try {
      const before = data.dataset;
      let turns = 0;
      let counting = true;
      const tick = () => {
        if (data.dataset === before) turns++;
        if (counting) setImmediate(tick);
      };
      setImmediate(tick);
      const reloaded = data.reload();
      expect(data.dataset).toBe(before);
      expect(await reloaded).toBe(true);
      counting = false;
      expect(data.dataset).not.toBe(before);
      expect(turns).toBeGreaterThanOrEqual(loadedFiles(JSON.parse(readFileSync(join(dist, 'manifest.json'), 'utf8'))).length);
    } finally {
      data.stop();
    }
  });

  it('closes the files of the data it replaces and of every failed load: one calendar open, whatever the reloads', async () => {
    const copy = copyOfSampleDist(join(root, 'descriptors'));
    const calendar = join(copy, calendarPartFile(firstPart(copy)));
    const data = await liveData({ dist: copy, watch: false, log: () => {} });
    try {
      expect(openOn(calendar)).toBe(1);
      for (let i = 0; i < 5; i++) expect(await data.reload()).toBe(true);
      expect(openOn(calendar)).toBe(1);
      // a load that fails before it takes the calendar read ahead (at categories.json's checksum)
      const categories = join(copy, DATA_FILES.categories);
      const bytes = readFileSync(categories);
      bytes[bytes.length >> 1] ^= 1;
      writeFileSync(`${categories}.new`, bytes);
      renameSync(`${categories}.new`, categories);
      for (let i = 0; i < 5; i++) expect(await data.reload()).toBe(false);
      expect(openOn(calendar)).toBe(1);
    } finally {
      data.stop();
    }
  });

  it('a reload begun before use() (aula dev) swaps nothing in: the data used stays, the reload resolves false', async () => {
    const copy = copyOfSampleDist(join(root, 'used'));
    const data = await liveData({ dist: copy, watch: false, log: () => {} });
    try {
      const reloaded = data.reload();
      const used = loadDataset(dist);
      data.use!(used);
      expect(await reloaded).toBe(false);
      expect(data.dataset).toBe(used);
      expect(data.ready).toBe(true);
      // what it loaded is closed, as is the data use() replaced: the used dataset's calendar alone is open
      expect(openOn(join(copy, calendarPartFile(firstPart(copy))))).toBe(0);
    } finally {
      data.stop();
    }
  });

  it('stopped during a reload: what the reload loaded is not swapped in, and closed', async () => {
    const copy = copyOfSampleDist(join(root, 'stopped'));
    const data = await liveData({ dist: copy, watch: false, log: () => {} });
    const before = data.dataset;
    const reloaded = data.reload();
    data.stop();
    expect(await reloaded).toBe(false);
    expect(data.dataset).toBe(before);
    expect(openOn(join(copy, calendarPartFile(firstPart(copy))))).toBe(1);
    expect(await data.reload()).toBe(false);
  });
});
