import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { RankedKeys } from './select.ts';

describe('RankedKeys.page', () => {
  it('returns rows offset..offset+limit-1 of the ascending order (heap and sort paths)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 1e9 }), { maxLength: 400 }),
        fc.nat(450),
        fc.nat(60),
        (values, offset, limit) => {
          const keys = Float64Array.from(values);
          const expected = [...values].sort((a, b) => a - b).slice(offset, offset + limit);
          expect(Array.from(new RankedKeys(keys.slice()).page(offset, limit))).toEqual(expected);
        },
      ),
      { numRuns: 500 },
    );
  });

  it('stays correct across several pages of the same result', () => {
    const values = Array.from({ length: 1000 }, (_, i) => (i * 7919) % 1000);
    const ranked = new RankedKeys(Float64Array.from(values));
    expect(Array.from(ranked.page(0, 5))).toEqual([0, 1, 2, 3, 4]); // heap path
    expect(Array.from(ranked.page(500, 3))).toEqual([500, 501, 502]); // sorts in place
    expect(Array.from(ranked.page(10, 2))).toEqual([10, 11]); // reuses the sorted keys
    expect(Array.from(ranked.page(999, 5))).toEqual([999]);
    expect(ranked.page(1000, 5).length).toBe(0);
  });
});
