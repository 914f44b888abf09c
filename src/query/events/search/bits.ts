// Bit sets over the rows of the event table (an Int32Array, row r at bit r & 31 of word r >>> 5):
// what a search term's rows are gathered into, ANDed and counted. A table of 100k rows is 3,125
// words, so whole-set operations cost a few microseconds and are charged per word.
import { bitmapWords, popcount32 } from '../../../store/format/bitmap.ts';
import { charge } from '../../work-budget.ts';
import { WORK } from '../work-costs.ts';
import { EMPTY, type RowSet } from '../indexes/rowset.ts';
import type { Matches } from '../matches.ts';

export type Bits = Int32Array;

/** `bits` &= `other`, word by word; the set bits left. */
export function andCount(bits: Bits, other: Bits): number {
  let left = 0;
  for (let w = 0; w < bits.length; w++) left += popcount32((bits[w] &= other[w]));
  return left;
}

/** `a` & `b` into a new set, word by word; the set bits of it. */
export function andInto(out: Bits, a: Bits, b: Bits): number {
  let left = 0;
  for (let w = 0; w < out.length; w++) left += popcount32((out[w] = a[w] & b[w]));
  return left;
}

/** Every row of a table of `rows` rows. */
export function allBits(rows: number): Bits {
  const bits = new Int32Array(bitmapWords(rows)).fill(-1);
  if (rows & 31) bits[bits.length - 1] = (1 << (rows & 31)) - 1;
  return bits;
}

/** Set bits of rows [lo, hi). */
export function countIn(bits: Bits, lo: number, hi: number): number {
  if (hi <= lo) return 0;
  const a = lo >>> 5;
  const b = (hi - 1) >>> 5;
  let n = 0;
  for (let w = a; w <= b; w++) {
    let x = bits[w];
    if (w === a) x &= -1 << (lo & 31);
    if (w === b && (hi & 31) !== 0) x &= (1 << (hi & 31)) - 1;
    n += popcount32(x);
  }
  return n;
}

/** The set rows of [lo, hi), ascending. */
export function rowsIn(bits: Bits, lo: number, hi: number, count = countIn(bits, lo, hi)): RowSet {
  return count === 0 ? EMPTY : listInto(bits, lo, hi, new Uint32Array(count));
}

/** The set rows of [lo, hi), ascending, into `out`: as many as it holds. */
export function listInto(bits: Bits, lo: number, hi: number, out: Uint32Array): Uint32Array {
  let k = 0;
  const a = lo >>> 5;
  const b = (hi - 1) >>> 5;
  for (let w = a; w <= b && k < out.length; w++) {
    let x = bits[w];
    if (w === a) x &= -1 << (lo & 31);
    if (w === b && (hi & 31) !== 0) x &= (1 << (hi & 31)) - 1;
    const base = w << 5;
    while (x !== 0 && k < out.length) {
      const low = x & -x;
      out[k++] = base | (31 - Math.clz32(low));
      x ^= low;
    }
  }
  return out;
}

/** Whether row `r` is set. */
export const has = (bits: Bits, r: number) => (bits[r >>> 5] & (1 << (r & 31))) !== 0;

/**
 * The rows of a bit set as a count and pages (matches.ts). A page is found by counting whole words
 * up to where it starts, then listing its rows: both charged to `what` per word, whatever page was
 * asked before.
 */
export class BitsMatches implements Matches {
  constructor(
    readonly bits: Bits,
    readonly count: number,
    private readonly what: string,
  ) {}

  has(row: number): boolean {
    return has(this.bits, row);
  }

  slice(from: number, to: number): RowSet {
    if (to <= from) return EMPTY;
    const { rows, words } = setBitsAt(this.bits, from, to);
    charge(words * WORK.word + (to - from) * WORK.row, this.what);
    return rows;
  }
}

/**
 * The set bits at places [from, to) of the set ones, ascending (fewer where the set ends first):
 * found by counting whole words up to where they start; `words`: how many were counted.
 */
export function setBitsAt(bits: Bits, from: number, to: number): { rows: Uint32Array; words: number } {
  let seen = 0;
  let w = 0;
  for (; w < bits.length; w++) {
    const n = popcount32(bits[w]);
    if (seen + n > from) break;
    seen += n;
  }
  const words = w + 1;
  const out = new Uint32Array(to - from);
  let k = 0;
  for (; w < bits.length && k < out.length; w++) {
    let x = bits[w];
    const base = w << 5;
    while (x !== 0 && k < out.length) {
      const low = x & -x;
      if (seen >= from) out[k++] = base | (31 - Math.clz32(low));
      seen++;
      x ^= low;
    }
  }
  return { rows: k === out.length ? out : out.subarray(0, k), words };
}
