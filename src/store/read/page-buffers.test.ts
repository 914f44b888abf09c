import { describe, expect, it } from 'vitest';
import { dropKept, isKept, isPooled, keepBuffer, keepLent, pin, pooledBytes, releaseBuffer, takeBuffer, unpin } from './page-buffers.ts';

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

  it('gives a kept block back only when the cache drops it, and never through releaseBuffer', () => {
    const kept = keepBuffer(30_000);
    expect(isKept(kept)).toBe(true);
    // the server releases every body it wrote: a kept one is the cache's, so that does nothing
    releaseBuffer(kept);
    expect(takeBuffer(30_000).buffer).not.toBe(kept.buffer);
    dropKept(kept);
    expect(isKept(kept)).toBe(false);
    expect(takeBuffer(30_000).buffer).toBe(kept.buffer);
  });

  it('does not reuse a dropped block while a write of it is pinned', () => {
    const kept = keepBuffer(20_000);
    pin(kept);
    pin(kept);
    dropKept(kept);
    expect(takeBuffer(20_000).buffer).not.toBe(kept.buffer);
    unpin(kept);
    expect(takeBuffer(20_000).buffer).not.toBe(kept.buffer);
    unpin(kept);
    expect(takeBuffer(20_000).buffer).toBe(kept.buffer);
    // pins on bytes that are not kept do nothing
    const plain = Buffer.alloc(100);
    pin(plain);
    unpin(plain);
    const lent = takeBuffer(100);
    pin(lent);
    releaseBuffer(lent);
    expect(takeBuffer(100).buffer).toBe(lent.buffer);
  });

  it('takes over a lent body of its own block without a copy, nothing else', () => {
    const lent = takeBuffer(12_000);
    expect(keepLent(lent.subarray(10))).toBe(false);
    expect(keepLent(lent)).toBe(true);
    expect(isKept(lent)).toBe(true);
    expect(keepLent(lent)).toBe(false);
    expect(keepLent(Buffer.alloc(10))).toBe(false);
    releaseBuffer(lent);
    expect(takeBuffer(12_000).buffer).not.toBe(lent.buffer);
    dropKept(lent);
    expect(takeBuffer(12_000).buffer).toBe(lent.buffer);
  });
});
