import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Format } from '../format/sections.ts';
import { meta, packSections, TailPacker } from './sections.ts';

const FORMAT: Format = { magic: 'aula-tst', version: 3, sections: 3, what: 'a test file' };

describe('TailPacker', () => {
  it('writes the bytes packSections writes, the last section appended piece by piece, whatever the guess', () => {
    const piece = fc.oneof(fc.string({ unit: fc.constantFrom('a', 'ä', '€', '\u{1F389}', '\ud800'), maxLength: 40 }), fc.uint8Array({ maxLength: 40 }));
    fc.assert(
      fc.property(fc.array(fc.integer(), { maxLength: 9 }), fc.array(piece, { maxLength: 30 }), fc.integer({ min: 0, max: 600 }), (numbers, pieces, guess) => {
        const head = meta(pieces.length);
        const ints = Int32Array.from(numbers);
        const packer = new TailPacker(FORMAT, [head.byteLength, ints.byteLength], guess);
        for (const p of pieces) {
          if (typeof p === 'string') expect(packer.text(p)).toBe(Buffer.byteLength(p));
          else packer.bytes(p);
        }
        const want = packSections(FORMAT, [head, ints, pieces.map((p) => (typeof p === 'string' ? Buffer.from(p) : p))]);
        expect(Buffer.from(packer.finish([head, ints])).equals(Buffer.from(want))).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it('refuses heads of other lengths than announced', () => {
    const packer = new TailPacker(FORMAT, [8, 4], 64);
    expect(() => packer.finish([meta(1), new Uint8Array(5)])).toThrow(/other lengths/);
  });
});
