import { describe, expect, it } from 'vitest';
import { mulberry32 } from './mulberry32.ts';

describe('mulberry32', () => {
  it('draws the pinned sequence for a seed, so tests and benchmarks see the same data everywhere', () => {
    const r = mulberry32(42);
    expect([r(), r(), r()]).toEqual([0.6011037519201636, 0.44829055899754167, 0.8524657934904099]);
  });

  it('reads a seed modulo 2^32, in [0, 1)', () => {
    const a = mulberry32(-5);
    const b = mulberry32(2 ** 32 - 5);
    for (let i = 0; i < 1000; i++) {
      const x = a();
      expect(x).toBe(b());
      expect(x >= 0 && x < 1).toBe(true);
    }
  });
});
