import { describe, expect, it } from 'vitest';
import { firstIndex } from './first-index.ts';

describe('firstIndex', () => {
  it('finds the first index where a monotone predicate turns true, n where it never does', () => {
    const values = [1, 3, 3, 5, 8];
    for (let x = 0; x <= 9; x++) {
      expect(firstIndex(values.length, (i) => values[i] >= x)).toBe(values.findIndex((v) => v >= x) === -1 ? values.length : values.findIndex((v) => v >= x));
    }
    expect(firstIndex(0, () => true)).toBe(0);
  });
});
