import { describe, expect, it } from 'vitest';
import { collectGarbage } from './collect-garbage.ts';

describe('collectGarbage', () => {
  it('frees what is dead when the heap is over the bar, and leaves a small one alone', () => {
    let dead: Buffer[] | null = Array.from({ length: 64 }, () => Buffer.alloc(1 << 20, 1));
    const before = process.memoryUsage().arrayBuffers;
    dead = null;
    collectGarbage(0);
    expect(dead).toBeNull();
    expect(process.memoryUsage().arrayBuffers).toBeLessThan(before - 32 * (1 << 20));
    // far over any heap: no collection asked for, and no error
    expect(() => collectGarbage(Number.MAX_SAFE_INTEGER)).not.toThrow();
  });
});
