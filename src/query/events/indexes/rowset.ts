// Operations on row sets: ascending Uint32Arrays of row indices.
//
// Row sets handed out may be views (subarray) of arrays cached in the indexes, so nothing here or
// downstream may write into an input set. Data-dependent branches are the main cost of loops over
// 100k rows on current engines, so the hot loops accumulate branch-free where they can.

import { lowerBound } from '../../../util/first-index.ts';

export type RowSet = Uint32Array;

export const EMPTY: RowSet = new Uint32Array(0);

/** 0, 1, …, n-1: lets a contiguous row range be handed out as a view without copying. */
export function iota(n: number): RowSet {
  const a = new Uint32Array(n);
  for (let i = 0; i < n; i++) a[i] = i;
  return a;
}

/** First index i in a set with set[i] >= row. */
export { lowerBound };

/** The members of `set` in [lo, hi), as a view. */
export function restrict(set: RowSet, lo: number, hi: number): RowSet {
  if (set.length === 0) return set;
  if (set[0] >= lo && set[set.length - 1] < hi) return set;
  const a = lowerBound(set, lo);
  const b = lowerBound(set, hi, a);
  return set.subarray(a, b);
}

/** Sorted intersection. Gallops through the longer set when the sizes differ a lot. */
export function intersect(a: RowSet, b: RowSet): RowSet {
  if (a.length > b.length) [a, b] = [b, a];
  if (a.length === 0) return EMPTY;
  const out = new Uint32Array(a.length);
  let k = 0;
  if (a.length * 16 < b.length) {
    let j = 0;
    for (let i = 0; i < a.length && j < b.length; i++) {
      const x = a[i];
      // exponential probe, then binary search inside the bracket
      let step = 1;
      let hi = j;
      while (hi < b.length && b[hi] < x) {
        j = hi + 1;
        hi += step;
        step <<= 1;
      }
      j = lowerBound(b, x, j, Math.min(hi + 1, b.length));
      if (j < b.length && b[j] === x) out[k++] = x;
    }
  } else {
    let i = 0;
    let j = 0;
    while (i < a.length && j < b.length) {
      const x = a[i];
      const y = b[j];
      if (x === y) {
        out[k++] = x;
        i++;
        j++;
      } else if (x < y) i++;
      else j++;
    }
  }
  return out.subarray(0, k);
}

/**
 * Reusable bit set over the rows of one table. Marking then sweeping sorts and de-duplicates a
 * bag of rows in O(bag + rows/32), far cheaper than a comparison sort of typed arrays here.
 */
export class RowBits {
  private readonly words: Int32Array;
  constructor(readonly size: number) {
    this.words = new Int32Array((size + 31) >>> 5);
  }
  get byteSize(): number {
    return this.words.byteLength;
  }
  mark(rows: ArrayLike<number>, from = 0, to = rows.length): void {
    const w = this.words;
    for (let i = from; i < to; i++) {
      const r = rows[i];
      w[r >>> 5] |= 1 << (r & 31);
    }
  }
  /** Collects the marked rows in ascending order and clears the set for the next use. */
  drain(expected: number): RowSet {
    const w = this.words;
    const out = new Uint32Array(expected);
    let k = 0;
    for (let i = 0; i < w.length; i++) {
      let x = w[i];
      if (x === 0) continue;
      w[i] = 0;
      const base = i << 5;
      while (x !== 0) {
        const low = x & -x;
        out[k++] = base | (31 - Math.clz32(low));
        x ^= low;
      }
    }
    return k === expected ? out : out.subarray(0, k);
  }
}

/** Sorts and de-duplicates a bag of rows (`bits` must be empty and is left empty). */
export function sortRows(bag: Uint32Array, bits: RowBits): RowSet {
  let sorted = true;
  for (let i = 1; i < bag.length; i++) {
    if (bag[i] <= bag[i - 1]) {
      sorted = false;
      break;
    }
  }
  if (sorted) return bag;
  bits.mark(bag);
  return bits.drain(bag.length);
}

/** Union of several row sets. */
export function unionAll(sets: readonly RowSet[], bits: RowBits): RowSet {
  const nonEmpty = sets.filter((s) => s.length > 0);
  if (nonEmpty.length === 0) return EMPTY;
  if (nonEmpty.length === 1) return nonEmpty[0];
  let total = 0;
  for (const s of nonEmpty) {
    bits.mark(s);
    total += s.length;
  }
  return bits.drain(total);
}
