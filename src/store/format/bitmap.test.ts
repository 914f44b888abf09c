// The bit-set helpers the data files' readers and writers share, against the plain definitions;
// and a search index list read back row by row, whole or refused.
import { describe, expect, it } from 'vitest';
import { bitCount, bitmapOf, bitmapWords, eachSetBit, popcount32 } from './bitmap.ts';
import { BITMAP_REF, ByteList, decodeSearchIndex, eachPosting, encodeList, encodeSearchIndex, postingsInto } from './search/search-index-file.ts';

/** Numbers of a small generator of our own (the format layer has no test helpers to import). */
function* numbers(seed: number): Generator<number> {
  let x = seed;
  for (;;) yield (x = (Math.imul(x, 1103515245) + 12345) | 0);
}

const setBits = (bits: Int32Array) => {
  const out: number[] = [];
  eachSetBit(bits, (n) => out.push(n));
  return out;
};

describe('bit sets', () => {
  it('count, fill and list their bits as the plain definitions do', () => {
    const random = numbers(7);
    const words = [0, -1, 1, 1 << 31, 0x7fffffff, ...Array.from({ length: 200 }, () => random.next().value as number)];
    for (const x of words) expect(popcount32(x)).toBe([...Array(32).keys()].filter((b) => (x >>> b) & 1).length);
    const bits = Int32Array.from(words);
    expect(bitCount(bits)).toBe(words.reduce((n, x) => n + popcount32(x), 0));
    const listed = setBits(bits);
    expect(listed).toEqual([...Array(bits.length * 32).keys()].filter((n) => (bits[n >>> 5] >>> (n & 31)) & 1));
    expect(bitmapOf(listed, bits.length)).toEqual(bits);
  });
});

describe('a search index list', () => {
  const rows = 70;
  const perBitmap = bitmapWords(rows);
  const varintRows = [0, 5, 69];
  const bitRows = [1, 2, 33, 64, 69];
  /** An index of two characters, the first listed as varints, the second as a bit set. */
  const index = (bitmap: Int32Array, count = bitRows.length) => {
    const varints = new ByteList();
    encodeList(varintRows, varints);
    return decodeSearchIndex(encodeSearchIndex({
      rows, words: 0, spans: 0, chars: 2, grams: 0,
      text: Uint16Array.of(97, 98), textStart: Uint32Array.of(0, 1, 2),
      lists: Uint32Array.of(0, varintRows.length, BITMAP_REF | 0, count),
      varints: varints.done(), bitmaps: bitmap, gramLists: new Uint32Array(0), gramVarints: new Uint8Array(0),
    }));
  };
  const read = (d: ReturnType<typeof index>, i: number) => {
    const out: number[] = [];
    const whole = eachPosting(d, i, (r) => out.push(r));
    // postingsInto gives the same rows (at its offset), and refuses the same lists
    const into = new Uint32Array(d.lists[2 * i + 1] + 1);
    const n = postingsInto(d, i, into, 1);
    expect(n < 0 ? null : [...into.subarray(1, 1 + n)]).toEqual(whole ? out : null);
    return whole ? out : null;
  };

  it('gives its rows, as varints or as a bit set', () => {
    const d = index(bitmapOf(bitRows, perBitmap));
    expect(read(d, 0)).toEqual(varintRows);
    expect(read(d, 1)).toEqual(bitRows);
  });

  it('is refused where its bit set is not its count, sets a bit past the rows, or lies past the section', () => {
    expect(read(index(bitmapOf(bitRows, perBitmap), bitRows.length + 1), 1)).toBeNull();
    expect(read(index(bitmapOf(bitRows, perBitmap), bitRows.length - 1), 1)).toBeNull();
    expect(read(index(bitmapOf([...bitRows, rows], perBitmap), bitRows.length + 1), 1)).toBeNull();
    const d = index(bitmapOf(bitRows, perBitmap));
    expect(read({ ...d, lists: Uint32Array.of(0, 3, BITMAP_REF | 1, bitRows.length) }, 1)).toBeNull();
  });
});
