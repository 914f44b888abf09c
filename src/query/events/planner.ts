// Turns the clauses of one request into its rows.
//
// 1. Comparisons are merged per column into one span. On `start` (the list order) the span is a
//    contiguous row range [lo, hi) that bounds every other step; on other columns it becomes a
//    SpanCondition.
// 2. The condition expected to yield the fewest rows (or the row range itself) drives: it lists
//    its rows within the range.
// 3. The others sieve that list, cheapest test first (typed arrays before strings before regex),
//    and stop as soon as nothing is left.
// No per-row objects are created; row sets are typed arrays, often views of cached ones. Each
// sieve is charged to its condition's parameter per candidate it tests (work-budget.ts).
// A lone condition that can page without sorting (a string lookup: a union of per-value row
// lists) is handed out as such, so that a page of twenty does not sort thousands of rows.
import type { Span } from './indexes/ordered-column.ts';
import { EMPTY, type RowSet } from './indexes/rowset.ts';
import type { TableIndexes } from './indexes/table-indexes.ts';
import { TEST_COST, type Clause, type Condition, type NumericColumn } from './lookups/condition.ts';
import { SpanCondition } from './lookups/ordered.ts';
import { materialized, type Matches } from './matches.ts';
import { BitsMatches } from './search/bits.ts';
import { bitmapWords } from '../../store/format/bitmap.ts';
import { charge } from '../work-budget.ts';
import { WORK } from './work-costs.ts';

export interface Evaluation {
  matches: Matches;
  /** candidate rows the sieves tested: roughly what computing the matches again would cost */
  sieved: number;
}

const done = (rows: RowSet, sieved = 0): Evaluation => ({ matches: materialized(rows), sieved });

/** One column's comparisons merged: the rows [from, to) of its order they keep. */
interface MergedSpan {
  column: NumericColumn;
  from: number;
  to: number;
  param: string;
}

export function evaluateMatches(ix: TableIndexes, clauses: readonly Clause[]): Evaluation {
  const planned = conditionsIn(ix, clauses);
  if (planned === null) return done(EMPTY);
  const { lo, hi, conditions } = planned;
  if (conditions.length === 0) return done(ix.all.subarray(lo, hi));
  return evaluateConditions(ix, lo, hi, conditions);
}

/** Whether `row` matches every clause: each condition tested on that row alone, charged as a sieve's candidate. */
export function rowMatches(ix: TableIndexes, clauses: readonly Clause[], row: number): boolean {
  const planned = conditionsIn(ix, clauses);
  if (planned === null || row < planned.lo || row >= planned.hi) return false;
  const one = Uint32Array.of(row);
  for (const c of planned.conditions) {
    charge(WORK.candidate, c.param);
    if (c.filter(one).length === 0) return false;
  }
  return true;
}

/** The clauses' comparisons merged into the row range [lo, hi) and span conditions, with the other conditions; null when nothing can match. */
function conditionsIn(ix: TableIndexes, clauses: readonly Clause[]): { lo: number; hi: number; conditions: Condition[] } | null {
  let lo = 0;
  let hi = ix.length;
  const conditions: Condition[] = [];
  // a request compares a few columns: a list of them, in the order first named
  const spans: MergedSpan[] = [];
  for (const c of clauses) {
    if (c.kind === 'condition') {
      conditions.push(c.condition);
      continue;
    }
    const s = ix.numeric(c.column).span(c.op, c.value);
    let prev: MergedSpan | undefined;
    for (const m of spans) if (m.column === c.column) prev = m;
    if (prev) {
      prev.from = Math.max(prev.from, s.from);
      prev.to = Math.min(prev.to, s.to);
    } else spans.push({ column: c.column, from: s.from, to: s.to, param: c.param });
  }
  for (const { column, from, to, param } of spans) {
    const col = ix.numeric(column);
    if (col.monotone) {
      lo = Math.max(lo, from);
      hi = Math.min(hi, to);
    } else {
      if (to <= from) return null;
      conditions.push(new SpanCondition(param, col, { from, to }, ix));
    }
  }
  return lo >= hi ? null : { lo, hi, conditions };
}

function evaluateConditions(ix: TableIndexes, lo: number, hi: number, conditions: Condition[]): Evaluation {

  // Typed-array conditions estimate in O(log n). String conditions may have to build an index
  // to estimate, which is pointless when a cheap condition already leaves a handful of rows.
  const estimates: number[] = [];
  let cheapest = Infinity;
  for (const c of conditions) {
    const e = c.testCost < TEST_COST.string ? c.estimate(lo, hi) : NaN;
    estimates.push(e);
    if (e < cheapest) cheapest = e;
  }
  for (let i = 0; i < conditions.length; i++) {
    if (estimates[i] !== estimates[i]) estimates[i] = cheapest <= ix.options.fewRows ? Infinity : conditions[i].estimate(lo, hi);
  }
  let driver = -1;
  let best = hi - lo;
  for (let i = 0; i < conditions.length; i++) {
    if (estimates[i] < best || (driver === -1 && estimates[i] === best)) {
      best = estimates[i];
      driver = i;
    }
  }
  const lone = conditions.length === 1 && driver === 0 ? conditions[0] : null;
  if (lone?.matches) return { matches: lone.matches(lo, hi), sieved: 0 };
  const inBits = bitsPlan(conditions, best, ix.length);
  if (inBits) return inBits(lo, hi);
  let rows = driver === -1 ? ix.all.subarray(lo, hi) : conditions[driver].rows(lo, hi);
  // the others, cheapest test first, then fewest rows; ties in the clauses' order (an insertion sort: a few conditions)
  const rest: number[] = [];
  const before = (a: number, b: number) => conditions[a].testCost - conditions[b].testCost || estimates[a] - estimates[b];
  for (let i = 0; i < conditions.length; i++) {
    if (i === driver) continue;
    let j = rest.length;
    rest.push(i);
    for (; j > 0 && before(rest[j - 1], i) > 0; j--) rest[j] = rest[j - 1];
    rest[j] = i;
  }
  let sieved = 0;
  for (const k of rest) {
    const c = conditions[k];
    if (rows.length === 0) break;
    sieved += rows.length;
    charge(rows.length * WORK.candidate, c.param);
    rows = c.filter(rows);
  }
  return done(rows, sieved);
}

/**
 * When one condition holds its rows as a bit set (a search) and every other can sieve one, and
 * no condition leaves fewer rows than the set has words: the matches as a bit set, the others
 * ANDed into a copy of it (a word at a time, or a test per row still set), never listed. A list
 * of thousands of candidates, sieved and listed again, then placed in an ordering, costs a pass
 * over each of them per step; the bit set is also what an ordered page walks (ordered-page.ts).
 */
function bitsPlan(conditions: readonly Condition[], fewest: number, rows: number) {
  const base = conditions.find((c) => c.bitsIn);
  if (!base || conditions.length < 2 || fewest * 2 < bitmapWords(rows)) return null;
  if (!conditions.every((c) => c === base || c.sieveBits)) return null;
  const rest = conditions.filter((c) => c !== base).sort((a, b) => a.testCost - b.testCost);
  return (lo: number, hi: number): Evaluation => {
    const { bits, count: found } = base.bitsIn!(lo, hi);
    let count = found;
    let sieved = 0;
    for (const c of rest) {
      if (count === 0) break;
      sieved += count;
      count = c.sieveBits!(bits, count);
    }
    return { matches: new BitsMatches(bits, count, base.param), sieved };
  };
}
