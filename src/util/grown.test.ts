import { describe, expect, it } from 'vitest';
import { grown } from './grown.ts';

describe('grown', () => {
  it('keeps the values, doubles the length, or reaches past the index asked for', () => {
    const a = Int32Array.of(1, 2, 3);
    const b = grown(a, 3);
    expect([...b]).toEqual([1, 2, 3, 0, 0, 0]);
    expect(grown(a, 10).length).toBe(11);
    expect([...grown(a, 10).subarray(0, 4)]).toEqual([1, 2, 3, 0]);
  });
});
