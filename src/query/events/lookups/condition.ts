// What every parsed filter becomes: either a comparison on a numeric column (merged per column by
// the planner, since several of them on `start` make one row range) or a Condition that can list
// its rows or sieve a candidate list.
import type { TimeField } from '../../../store/format/event-table.ts';
import type { Comparison } from '../indexes/ordered-column.ts';
import type { RowSet } from '../indexes/rowset.ts';
import type { Matches } from '../matches.ts';

export interface Condition {
  /** the query parameter it came from (diagnostics, tests) */
  readonly param: string;
  /** relative cost of testing one candidate row; sieves run cheapest first */
  readonly testCost: number;
  /** cheap upper bound of the work / rows of `rows(lo, hi)` */
  estimate(lo: number, hi: number): number;
  /** the matching rows in [lo, hi), ascending */
  rows(lo: number, hi: number): RowSet;
  /** the members of `candidates` (ascending) that match, ascending */
  filter(candidates: RowSet): RowSet;
  /** optional: rows(lo, hi) as a count and pages, for conditions that can page without sorting */
  matches?(lo: number, hi: number): Matches;
  /**
   * optional: clears in `bits` (a bit set over the rows, search/bits.ts) the rows that do not
   * match, `count` of them set; returns how many are left set
   */
  sieveBits?(bits: Int32Array, count: number): number;
  /** optional: its rows in [lo, hi) as a fresh bit set over the rows, and their count */
  bitsIn?(lo: number, hi: number): { bits: Int32Array; count: number };
}

export const TEST_COST = {
  typed: 1,
  list: 2,
  string: 10,
  regex: 100,
} as const;

export type NumericColumn = TimeField | 'dfp_points';

export type Clause =
  | { kind: 'compare'; param: string; column: NumericColumn; op: Comparison; value: number }
  | { kind: 'condition'; condition: Condition };

/** Keeps the candidates for which `test(row)` holds. */
export function sieve(candidates: RowSet, test: (row: number) => boolean): RowSet {
  const out = new Uint32Array(candidates.length);
  let k = 0;
  for (let i = 0; i < candidates.length; i++) {
    const r = candidates[i];
    if (test(r)) out[k++] = r;
  }
  return out.subarray(0, k);
}
