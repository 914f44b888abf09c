import { beforeAll, describe, expect, it } from 'vitest';
import { sampleDist } from '../../test/helpers.ts';
import { zoneWarm } from '../time/offsets.ts';
import { liveData } from './live-data.ts';

let dist: string;
beforeAll(() => {
  dist = sampleDist();
});

describe('liveData', () => {
  it("has the site zone's formatter made before it answers (its first date filter loads no zone data)", async () => {
    const data = await liveData({ dist, watch: false, log: () => {} });
    try {
      expect(zoneWarm(data.dataset.site.timezone)).toBe(true);
    } finally {
      data.stop();
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
      expect(data.reload()).toBe(true);
      expect(data.dataset).not.toBe(before);
      expect(ask().body).toEqual(first.body);
      expect(lines).toEqual([`reloaded ${dist}/`]);
    } finally {
      data.stop();
    }
  });
});
