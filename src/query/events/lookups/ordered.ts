// Comparisons on a numeric column that is not in row order (end, registration_end,
// last_modified, dfp_points; `start` never gets here, the planner turns it into a row range).
import type { OrderedColumn, Span } from '../indexes/ordered-column.ts';
import { restrict, type RowSet } from '../indexes/rowset.ts';
import type { TableIndexes } from '../indexes/table-indexes.ts';
import { TEST_COST, type Condition } from './condition.ts';
import { charge } from '../../work-budget.ts';
import { WORK } from '../work-costs.ts';
import { popcount32 } from '../../../store/format/bitmap.ts';
import { andCount } from '../search/bits.ts';

export class SpanCondition implements Condition {
  readonly testCost = TEST_COST.typed;
  constructor(
    readonly param: string,
    private readonly column: OrderedColumn,
    private readonly span: Span,
    private readonly ix: TableIndexes,
  ) {}

  estimate(): number {
    return Math.max(0, this.span.to - this.span.from);
  }

  rows(lo: number, hi: number): RowSet {
    // the span's rows gathered and sorted through a bit set (or a scan of the column), charged
    // also when the column kept them from an earlier request
    charge((this.span.to - this.span.from) * WORK.row + (this.ix.length >>> 5) * WORK.word, this.param);
    return restrict(this.column.rows(this.span, this.ix.all, this.ix.bits, this.ix.scratch), lo, hi);
  }

  filter(candidates: RowSet): RowSet {
    if (this.span.to <= this.span.from) return candidates.subarray(0, 0);
    // inclusive bounds taken from the span itself, so nulls (NaN) fail both comparisons
    const [min, max] = this.column.bounds(this.span);
    const values = this.column.values;
    const out = this.ix.scratch;
    let k = 0;
    for (let i = 0; i < candidates.length; i++) {
      const r = candidates[i];
      const v = values[r];
      out[k] = r;
      k += +(v >= min) & +(v <= max); // branch-free; NaN (null) fails both
    }
    return out.slice(0, k);
  }

  sieveBits(bits: Int32Array, count: number): number {
    const size = this.span.to - this.span.from;
    // the fewer of the span's rows (marked in a bit set, ANDed) and the rows left (each tested)
    charge(bits.length * WORK.word + Math.min(size * WORK.row, count * WORK.candidate), this.param);
    if (size <= 0) {
      bits.fill(0);
      return 0;
    }
    // a column close to the row order: whole words of rows that cannot match, or surely match, are
    // not tested row by row
    const bands = this.column.rowBands(this.span);
    // else the span's rows as a bit set, when it is kept or has fewer rows than are left to test
    const spanBits = bands === null ? this.column.spanBits(this.span, size * WORK.row < count * WORK.candidate) : null;
    if (spanBits) return andCount(bits, spanBits);
    const [min, max] = this.column.bounds(this.span);
    const values = this.column.values;
    const { from, to, sureFrom, sureTo } = bands ?? { from: 0, to: bits.length << 5, sureFrom: 0, sureTo: 0 };
    let left = 0;
    for (let w = 0; w < bits.length; w++) {
      let x = bits[w];
      if (x === 0) continue;
      const base = w << 5;
      if (base + 32 <= from || base >= to) {
        bits[w] = 0;
        continue;
      }
      if (base >= sureFrom && base + 32 <= sureTo) {
        left += popcount32(x);
        continue;
      }
      let kept = x;
      while (x !== 0) {
        const low = x & -x;
        const v = values[base | (31 - Math.clz32(low))];
        // branch-free; NaN (null) fails both
        kept ^= low & ((+(v >= min) & +(v <= max)) - 1);
        x ^= low;
      }
      bits[w] = kept;
      left += popcount32(kept);
    }
    return left;
  }
}
