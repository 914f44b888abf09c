import { createHash } from 'node:crypto';
import * as zlib from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { checksum, CHECKSUM, CHECKSUM_BYTES } from './checksum.ts';

describe('checksum', () => {
  const data = Buffer.from('a payload, a row, anything a cache file holds');

  it('is the same of parts as of their concatenation, and changes with any byte', () => {
    expect(checksum(data)).toHaveLength(CHECKSUM_BYTES);
    expect(checksum(data.subarray(0, 7), data.subarray(7)).equals(checksum(data))).toBe(true);
    expect(checksum(data.subarray(0, 7), new Uint8Array(0), data.subarray(7)).equals(checksum(data))).toBe(true);
    for (let i = 0; i < data.length; i++) {
      const damaged = Buffer.from(data);
      damaged[i] ^= 1;
      expect(checksum(damaged).equals(checksum(data))).toBe(false);
    }
  });

  it('is the one its name says', () => {
    const crc32 = (zlib as { crc32?: (d: Uint8Array) => number }).crc32;
    expect(CHECKSUM).toBe(crc32 ? 'crc32' : 'sha256/4');
    const expected = Buffer.alloc(4);
    if (crc32) expected.writeUInt32LE(crc32(data));
    else createHash('sha256').update(data).digest().copy(expected, 0, 0, 4);
    expect(checksum(data).equals(expected)).toBe(true);
  });
});
