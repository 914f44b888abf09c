import { beforeAll, describe, expect, it } from 'vitest';
import { EVENTUALLY, sampleDist } from '../../test/helpers.ts';
import { indexesFor, TableIndexes } from '../query/events/indexes/table-indexes.ts';
import { liveData } from './live-data.ts';

let dist: string;
beforeAll(() => {
  dist = sampleDist();
});

describe('liveData', () => {
  it('builds every filter index in the background after the warm-up, and again for reloaded data', async () => {
    const lines: string[] = [];
    const data = await liveData({ dist, watch: false, log: (l) => lines.push(l) });
    try {
      expect(data.indexes).toBeUndefined();
      data.warmLater(0);
      await expect.poll(() => data.indexes, EVENTUALLY).toBeDefined();
      await data.indexes!.done;
      const reference = new TableIndexes(data.dataset.events.table);
      reference.prepare();
      expect(indexesFor(data.dataset.events.table).byteSize()).toBe(reference.byteSize());

      const first = data.indexes;
      expect(data.reload()).toBe(true);
      expect(data.indexes).not.toBe(first);
      await data.indexes!.done;
      expect(indexesFor(data.dataset.events.table).byteSize()).toBe(reference.byteSize());
      expect(lines).toEqual([`reloaded ${dist}/`]);
    } finally {
      data.stop();
    }
  });
});
