// allday / register / attending_fees.
import type { BoolField } from '../../../store/format/event-table.ts';
import { restrict, type RowSet } from '../indexes/rowset.ts';
import type { TableIndexes } from '../indexes/table-indexes.ts';
import { TEST_COST, type Condition } from './condition.ts';
import { andCount } from '../search/bits.ts';
import { charge } from '../../work-budget.ts';
import { WORK } from '../work-costs.ts';

export class BoolCondition implements Condition {
  readonly testCost = TEST_COST.typed;
  private readonly list: RowSet;
  constructor(
    readonly param: string,
    private readonly field: BoolField,
    private readonly value: boolean,
    private readonly ix: TableIndexes,
  ) {
    this.list = ix.boolRows(field)[value ? 1 : 0];
  }

  estimate(lo: number, hi: number): number {
    return restrict(this.list, lo, hi).length;
  }

  rows(lo: number, hi: number): RowSet {
    return restrict(this.list, lo, hi);
  }

  filter(candidates: RowSet): RowSet {
    const col = this.ix.table.columns.bool[this.field];
    const flip = this.value ? 0 : 1;
    const out = this.ix.scratch;
    let k = 0;
    // branch-free: a mispredicted branch per row costs more than the whole loop body
    for (let i = 0; i < candidates.length; i++) {
      const r = candidates[i];
      out[k] = r;
      k += col[r] ^ flip;
    }
    return out.slice(0, k);
  }

  sieveBits(bits: Int32Array): number {
    const flag = this.ix.table.stored.bool[this.field].bits[this.value ? 1 : 0];
    charge(bits.length * WORK.word, this.param);
    return andCount(bits, flag);
  }
}
