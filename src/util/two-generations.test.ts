import { describe, expect, it } from 'vitest';
import { TwoGenerations } from './two-generations.ts';

describe('TwoGenerations', () => {
  it('keeps at most its entries, a key asked for again stays, and null is a value kept', () => {
    const kept = new TwoGenerations<string, number | null>(4);
    kept.set('a', 1);
    kept.set('b', null);
    expect([kept.get('a'), kept.get('b'), kept.get('c')]).toEqual([1, null, undefined]);
    // the newer is full: 'a' and 'b' become the older, then 'a' asked for again moves back
    kept.set('c', 3);
    expect(kept.get('a')).toBe(1);
    kept.set('d', 4);
    kept.set('e', 5);
    // 'b' was let go of with its generation; 'a' stayed by being asked for
    expect([kept.get('b'), kept.get('a'), kept.get('e')]).toEqual([undefined, 1, 5]);
  });
});
