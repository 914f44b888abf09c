import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { sha256 } from './sha256.ts';

const reference = (...parts: (Uint8Array | string)[]) => {
  const hash = createHash('sha256');
  for (const part of parts) hash.update(part);
  return hash.digest();
};

describe('sha256', () => {
  it('is a Hash’s digest of the parts end to end, strings as UTF-8, however large', () => {
    const cases: (Uint8Array | string)[][] = [
      [],
      [''],
      [Buffer.from('one part')],
      ['Café – „quoted“ 🎉\0', Buffer.from([0, 1, 2, 255])],
      [Buffer.alloc(32, 7), Buffer.alloc(32, 9), '12345'],
      // past the scratch buffer's first size, then a small one again in the grown buffer
      ['prefix\0', Buffer.alloc(100_000, 'é')],
      ['a', 'b'],
    ];
    for (const parts of cases) expect(sha256(...parts).equals(reference(...parts))).toBe(true);
    // a view into a larger buffer is hashed as its own bytes only
    const whole = Buffer.from('0123456789');
    expect(sha256(whole.subarray(2, 5)).equals(reference('234'))).toBe(true);
    expect(sha256('x', whole.subarray(2, 5)).equals(reference('x234'))).toBe(true);
  });
});
