import { describe, expect, it } from 'vitest';
import { sectionParts, sectionReader } from './typed-sections.ts';

const joined = (parts: Uint8Array[]) => {
  const bytes = Buffer.allocUnsafeSlow(parts.reduce((n, p) => n + p.byteLength, 0));
  Buffer.concat(parts).copy(bytes);
  return bytes;
};

describe('typed sections', () => {
  it('are taken back as views of the bytes written, each at a multiple of 8', () => {
    const bytes = joined(sectionParts([new Uint8Array([1, 2, 3]), new Float64Array([1.5, -2]), new Uint32Array([7]), new BigInt64Array([-1n, 5n])]));
    const sections = sectionReader(bytes);
    expect([...sections.take(Uint8Array, 3)]).toEqual([1, 2, 3]);
    const floats = sections.take(Float64Array, 2);
    expect([...floats]).toEqual([1.5, -2]);
    expect(floats.buffer).toBe(bytes.buffer);
    expect([...sections.take(Uint32Array, 1)]).toEqual([7]);
    expect([...sections.take(BigInt64Array, 2)]).toEqual([-1n, 5n]);
    expect(() => sections.end()).not.toThrow();
  });

  it('refuse bytes that end first, are left over, or do not start at a multiple of 8', () => {
    const bytes = joined(sectionParts([new Float64Array([1, 2])]));
    expect(() => sectionReader(bytes).take(Float64Array, 3)).toThrow();
    const some = sectionReader(bytes);
    some.take(Float64Array, 1);
    expect(() => some.end()).toThrow();
    expect(() => sectionReader(bytes.subarray(4)).take(Uint8Array, 1)).toThrow();
  });
});
