import { describe, expect, it } from 'vitest';
import { metered, WorkMeter } from '../../work-budget.ts';
import { BitsMatches } from '../search/bits.ts';
import { bitmapWords } from '../../../store/format/bitmap.ts';
import { WORK } from '../work-costs.ts';
import type { FieldOrder, OrderSource } from './field-orders.ts';
import { orderedPage } from './ordered-page.ts';

/** `n` rows whose field is the row number: ascending is row order, every value its own rank. */
function rowNumberOrder(n: number): OrderSource {
  const ascending = Uint32Array.from({ length: n }, (_, i) => i);
  const descending = ascending.slice().reverse();
  const order: FieldOrder = { ascending, descending, ascendingPlace: ascending, descendingPlace: descending, rank: ascending };
  return { rows: n, field: () => order };
}

function bitsOf(n: number, rows: readonly number[]): BitsMatches {
  const bits = new Int32Array(bitmapWords(n));
  for (const r of rows) bits[r >>> 5] |= 1 << (r & 31);
  return new BitsMatches(bits, rows.length, 'test');
}

describe('orderedPage over a bit set of matches', () => {
  const n = 65_536;
  const m = 2048;
  const source = rowNumberOrder(n);
  const range = (from: number, count: number) => Array.from({ length: count }, (_, i) => from + i);

  it('gives up walking the order when the matches are bunched at its far end, and places them instead', () => {
    for (const descending of [false, true]) {
      // the matches the walk would reach last: the highest rows ascending, the lowest descending
      const matches = bitsOf(n, descending ? range(0, m) : range(n - m, m));
      const meter = new WorkMeter(Number.MAX_SAFE_INTEGER);
      const page = metered(meter, () => orderedPage(source, [{ field: 'start', descending }], matches, 0, 20));
      expect([...page]).toEqual(descending ? range(0, 20).map((i) => m - 1 - i) : range(n - m, 20));
      // walking to them would cost a row per row of the order before them; giving up costs a bounded part of that
      expect(meter.used).toBeLessThan(((n - m) * WORK.row) / 2);
    }
  });

  it('walks the order when the matches are spread over it', () => {
    const matches = bitsOf(n, range(0, m).map((i) => i * (n / m)));
    const meter = new WorkMeter(Number.MAX_SAFE_INTEGER);
    const page = metered(meter, () => orderedPage(source, [{ field: 'start', descending: false }], matches, 0, 20));
    expect([...page]).toEqual(range(0, 20).map((i) => i * (n / m)));
    // about the rows up to the page's last match: less than placing every match would
    expect(meter.used).toBeLessThanOrEqual((20 * (n / m) + 1) * WORK.row);
  });
});
