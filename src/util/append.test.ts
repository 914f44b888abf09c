import { describe, expect, it } from 'vitest';
import { append } from './append.ts';

describe('append', () => {
  it('appends in order and returns the list it appended to', () => {
    const into = [1];
    expect(append(into, [2, 3])).toBe(into);
    expect(into).toEqual([1, 2, 3]);
  });

  it('appends more items than a spread into push can take', () => {
    const many = Array.from({ length: 1_000_000 }, (_, i) => i);
    expect(() => [].push(...(many as never[]))).toThrow(RangeError);
    const into: number[] = [];
    append(into, many);
    expect(into.length).toBe(1_000_000);
    expect(into[999_999]).toBe(999_999);
  });
});
