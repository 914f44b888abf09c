// `search` as one of the list's conditions (lookups/condition.ts): the planner lets it drive, or
// sieves candidates with it, like any filter. Its rows are a bit set, made once per request.
import type { EventRows } from '../../../store/format/event-rows.ts';
import { TEST_COST, type Condition } from '../lookups/condition.ts';
import type { RowSet } from '../indexes/rowset.ts';
import type { Matches } from '../matches.ts';
import { andCount, BitsMatches, countIn, has, rowsIn } from './bits.ts';
import { searchRows, SEARCH_PARAM, type SearchResult } from './search.ts';
import type { WordIndex } from './word-index.ts';
import { charge } from '../../work-budget.ts';
import { WORK } from '../work-costs.ts';

export class SearchCondition implements Condition {
  readonly param = SEARCH_PARAM;
  readonly testCost = TEST_COST.typed;
  private result: SearchResult | null = null;
  /** the last range counted (countIn), of which result */
  private counted: { lo: number; hi: number; count: number; result: SearchResult | null } | null = null;

  constructor(
    private readonly index: WordIndex,
    private readonly events: EventRows,
    private readonly terms: readonly string[],
  ) {}

  private get found(): SearchResult {
    return (this.result ??= searchRows(this.index, this.events, this.terms));
  }

  estimate(lo: number, hi: number): number {
    const { count } = this.found;
    if (lo === 0 && hi >= this.index.rows) return count;
    charge(((hi - lo) >>> 5) * WORK.word, this.param);
    return this.countIn(lo, hi);
  }

  rows(lo: number, hi: number): RowSet {
    const { bits, count: all } = this.found;
    const count = lo === 0 && hi >= this.index.rows ? all : this.countIn(lo, hi);
    charge(((hi - lo) >>> 5) * WORK.word * 2 + count * WORK.row, this.param);
    return rowsIn(bits, lo, hi, count);
  }

  filter(candidates: RowSet): RowSet {
    const { bits } = this.found;
    const out = new Uint32Array(candidates.length);
    let k = 0;
    for (let i = 0; i < candidates.length; i++) {
      const r = candidates[i];
      out[k] = r;
      k += has(bits, r) ? 1 : 0;
    }
    return out.subarray(0, k);
  }

  bitsIn(lo: number, hi: number): { bits: Int32Array; count: number } {
    const { bits, count } = this.found;
    charge(bits.length * WORK.word * 2, this.param);
    const whole = lo === 0 && hi >= this.index.rows;
    const inRange = whole ? count : this.countIn(lo, hi);
    const own = this.handOver();
    if (whole) return { bits: own ?? bits.slice(), count };
    return { bits: own ? maskedInPlace(own, lo, hi) : masked(bits, lo, hi), count: inRange };
  }

  sieveBits(bits: Int32Array): number {
    const own = this.found.bits;
    charge(bits.length * WORK.word, this.param);
    return andCount(bits, own);
  }

  matches(lo: number, hi: number): Matches {
    const { bits, count } = this.found;
    if (lo === 0 && hi >= this.index.rows) return new BitsMatches(bits, count, this.param);
    charge(bits.length * WORK.word * 2, this.param);
    const inRange = this.countIn(lo, hi);
    const own = this.handOver();
    return new BitsMatches(own ? maskedInPlace(own, lo, hi) : masked(bits, lo, hi), inRange, this.param);
  }

  /** The matches in rows [lo, hi): counted once for the range the planner asks an estimate of, then its rows. */
  private countIn(lo: number, hi: number): number {
    const last = this.counted;
    if (last !== null && last.lo === lo && last.hi === hi && last.result === this.result) return last.count;
    const count = countIn(this.found.bits, lo, hi);
    this.counted = { lo, hi, count, result: this.result };
    return count;
  }

  /**
   * The search's bit set to write to, where it was made for this request alone (not a kept
   * term's): the caller takes it, and a later question searches again rather than read a set
   * changed under it.
   */
  private handOver(): Int32Array | null {
    const result = this.result;
    if (result === null || !result.own) return null;
    this.result = null;
    return result.bits;
  }
}

/** `bits` with the rows outside [lo, hi) cleared. */
function maskedInPlace(bits: Int32Array, lo: number, hi: number): Int32Array {
  const a = lo >>> 5;
  const b = (hi - 1) >>> 5;
  bits.fill(0, 0, a);
  bits.fill(0, b + 1);
  bits[a] &= -1 << (lo & 31);
  if ((hi & 31) !== 0) bits[b] &= (1 << (hi & 31)) - 1;
  return bits;
}

/** The bits of rows [lo, hi) only. */
function masked(bits: Int32Array, lo: number, hi: number): Int32Array {
  const out = new Int32Array(bits.length);
  const a = lo >>> 5;
  const b = (hi - 1) >>> 5;
  for (let w = a; w <= b; w++) {
    let x = bits[w];
    if (w === a) x &= -1 << (lo & 31);
    if (w === b && (hi & 31) !== 0) x &= (1 << (hi & 31)) - 1;
    out[w] = x;
  }
  return out;
}
