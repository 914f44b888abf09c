import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { base64url, sha1 } from './sha1.ts';

const node = (input: string | Uint8Array) => createHash('sha1').update(input).digest('base64url');

describe('sha1', () => {
  it('matches node:crypto at every padding boundary', () => {
    for (let n = 0; n < 200; n++) {
      const text = 'é'.repeat(n % 7) + 'x'.repeat(n);
      expect(base64url(sha1(text))).toBe(node(text));
    }
  });

  it('matches node:crypto on bytes, including a view into a larger buffer', () => {
    const big = new Uint8Array(100_003).map((_, i) => (i * 31 + 7) & 255);
    expect(base64url(sha1(big))).toBe(node(big));
    const view = big.subarray(13, 5_013);
    expect(base64url(sha1(view))).toBe(node(view));
  });

  it('knows the published test vector', () => {
    expect(Buffer.from(sha1('abc')).toString('hex')).toBe('a9993e364706816aba3e25717850c26c9cd0d89d');
  });
});
