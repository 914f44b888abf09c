// The rows a filter matched, as the list endpoint uses them: a count and one page.
//
// An answer shows twenty rows of what may be thousands of matches. String lookups match whole
// distinct values, and a value's rows are one ascending list, so their matches are a union of
// disjoint lists: the count is a sum of lengths, and the first pages are a merge of the lists'
// heads. Sorting every matching row into one array (a pass over all of them and a bit set over
// the table, ~90 µs for 4,000 rows at 100k) is left for when a page lies deep in the list.
import { EMPTY, lowerBound, type RowSet } from './indexes/rowset.ts';
import { sortedIndexOf } from '../../util/first-index.ts';
import { charge } from '../work-budget.ts';
import { WORK } from './work-costs.ts';

export interface Matches {
  /** number of matching rows */
  readonly count: number;
  /**
   * The matching rows at positions [from, to) of the ascending list (0 ≤ from ≤ to ≤ count). May
   * be a view of an array that is kept: never write to it.
   */
  slice(from: number, to: number): RowSet;
  /** the matching rows as a bit set over the rows, when they are held so (search/bits.ts): never write to it */
  readonly bits?: Int32Array;
  /** whether `row` matches: what one event's lookup needs, without listing any page */
  has(row: number): boolean;
}

/** Matches held as one ascending array. */
export function materialized(rows: RowSet): Matches {
  return { count: rows.length, slice: (from, to) => rows.subarray(from, to), has: (row) => sortedIndexOf(rows, row) >= 0 };
}

/**
 * The union of `k` disjoint ascending lists, each a range [pos[i], end[i]) of `rows`. `sorted()`
 * gives the whole union as one ascending array (called at most once, then kept). A page is
 * charged to `what` for the merge or the sort its position needs, also when the sort is already
 * kept, so that a page costs the same whichever page was asked for before.
 */
export class UnionMatches implements Matches {
  readonly count: number;
  private all: RowSet | null = null;

  constructor(
    private readonly rows: Uint32Array,
    private readonly pos: Uint32Array,
    private readonly end: Uint32Array,
    private readonly sorted: () => RowSet,
    private readonly what = 'rows',
  ) {
    let n = 0;
    for (let i = 0; i < pos.length; i++) n += end[i] - pos[i];
    this.count = n;
  }

  slice(from: number, to: number): RowSet {
    if (to <= from) return EMPTY;
    const k = this.pos.length;
    if (this.all === null && k === 1) return this.rows.subarray(this.pos[0] + from, this.pos[0] + to);
    // A merge costs a heap of k lists plus ~log2(k) steps per row up to `to`; sorting all rows
    // costs about one step per row (and is kept for the next page).
    const merging = k + to * (32 - Math.clz32(k)) <= this.count;
    if (k > 1) charge((merging ? k + to * (32 - Math.clz32(k)) : 2 * this.count) * WORK.row, this.what);
    if (this.all === null && merging) return this.merge(from, to);
    this.all ??= this.sorted();
    return this.all.subarray(from, to);
  }

  /** Whether `row` is in one of the lists: a binary search in each, charged per list. */
  has(row: number): boolean {
    const k = this.pos.length;
    charge(k * (32 - Math.clz32(this.count)) * WORK.row, this.what);
    for (let i = 0; i < k; i++) {
      const at = lowerBound(this.rows, row, this.pos[i], this.end[i]);
      if (at < this.end[i] && this.rows[at] === row) return true;
    }
    return false;
  }

  /** Rows [from, to) of the union: a k-way merge through a binary min-heap of list heads. */
  private merge(from: number, to: number): RowSet {
    const rows = this.rows;
    const end = this.end;
    const pos = this.pos.slice();
    let size = 0;
    const heap = new Int32Array(pos.length);
    for (let i = 0; i < pos.length; i++) if (pos[i] < end[i]) heap[size++] = i;
    const head = (i: number) => rows[pos[i]];
    const down = (at: number) => {
      const item = heap[at];
      const key = head(item);
      for (;;) {
        let c = 2 * at + 1;
        if (c >= size) break;
        if (c + 1 < size && head(heap[c + 1]) < head(heap[c])) c++;
        if (head(heap[c]) >= key) break;
        heap[at] = heap[c];
        at = c;
      }
      heap[at] = item;
    };
    for (let i = (size >> 1) - 1; i >= 0; i--) down(i);
    const out = new Uint32Array(to - from);
    for (let n = 0; n < to && size > 0; n++) {
      const i = heap[0];
      if (n >= from) out[n - from] = rows[pos[i]];
      if (++pos[i] === end[i]) heap[0] = heap[--size];
      if (size > 0) down(0);
    }
    return out;
  }
}
