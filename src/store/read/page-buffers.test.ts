import { describe, expect, it } from 'vitest';
import { isPooled, pooledBytes, releaseBuffer, takeBuffer } from './page-buffers.ts';

describe('page buffers', () => {
  it('gives a released block to the next body of its size class, and only then', () => {
    const a = takeBuffer(40_000);
    expect(a.length).toBe(40_000);
    expect(isPooled(a)).toBe(true);
    a.fill(1);
    const b = takeBuffer(40_000);
    // a is still lent: b must not share its memory
    expect(b.buffer).not.toBe(a.buffer);
    releaseBuffer(a);
    const c = takeBuffer(50_000);
    expect(c.buffer).toBe(a.buffer);
    expect(c.length).toBe(50_000);
  });

  it('ignores a second release of one block, so a block is never lent twice at once', () => {
    const a = takeBuffer(10_000);
    releaseBuffer(a.subarray(0, 10));
    releaseBuffer(a.subarray(100, 200));
    const first = takeBuffer(10_000);
    const second = takeBuffer(10_000);
    expect(first.buffer).toBe(a.buffer);
    expect(second.buffer).not.toBe(first.buffer);
  });

  it('leaves buffers it did not lend alone, and does not pool bodies above 1 MiB', () => {
    const plain = Buffer.alloc(5000);
    expect(isPooled(plain)).toBe(false);
    const before = pooledBytes();
    releaseBuffer(plain);
    expect(pooledBytes()).toBe(before);
    const huge = takeBuffer(2 * 1024 * 1024);
    expect(isPooled(huge)).toBe(false);
    expect(takeBuffer(0).length).toBe(0);
  });

  it('keeps a bounded number of free blocks per size class', () => {
    const before = pooledBytes();
    const lent = Array.from({ length: 200 }, () => takeBuffer(60_000));
    lent.forEach(releaseBuffer);
    // 64 KiB blocks: at most 2 MiB of them are kept, the rest is garbage
    expect(pooledBytes() - before).toBeLessThanOrEqual(2 * 1024 * 1024);
    expect(pooledBytes()).toBeGreaterThan(before);
  });
});
