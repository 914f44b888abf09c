import { beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { sampleDist } from '../../test/helpers.ts';
import { loadedFiles } from '../store/format/dist-paths.ts';
import { liveData } from './live-data.ts';

let dist: string;
beforeAll(() => {
  dist = sampleDist();
});

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
});
