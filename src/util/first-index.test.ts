import { describe, expect, it } from 'vitest';
import { firstIndex, lowerBound, sortedIndexOf } from './first-index.ts';

describe('binary searches', () => {
  const values = [1, 3, 3, 5, 8];
  const firstAtLeast = (x: number) => (values.findIndex((v) => v >= x) + values.length + 1) % (values.length + 1);

  it('find the first index where a monotone predicate turns true, n where it never does', () => {
    for (let x = 0; x <= 9; x++) expect(firstIndex(values.length, (i) => values[i] >= x)).toBe(firstAtLeast(x));
    expect(firstIndex(0, () => true)).toBe(0);
  });

  it('find the first number not below x in an ascending list, within bounds, and where x stands', () => {
    const list = Uint32Array.from(values);
    for (let x = 0; x <= 9; x++) {
      expect(lowerBound(list, x)).toBe(firstAtLeast(x));
      expect(lowerBound(list, x, 2, 4)).toBe(Math.min(4, Math.max(2, firstAtLeast(x))));
      expect(sortedIndexOf(list, x)).toBe(values.indexOf(x));
    }
    expect(lowerBound(new Uint32Array(0), 1)).toBe(0);
    expect(sortedIndexOf(new Uint32Array(0), 0)).toBe(-1);
  });
});
