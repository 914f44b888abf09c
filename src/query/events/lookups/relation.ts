// categories / groups: rows having any of the given ids (each row once). The ids are as many as
// the request lists (10,000 are a few hundred bytes of query), so their loops are charged.
import { intersect, restrict, type RowSet } from '../indexes/rowset.ts';
import { charge } from '../../work-budget.ts';
import { WORK } from '../work-costs.ts';
import type { RelationIndex, TableIndexes } from '../indexes/table-indexes.ts';
import { TEST_COST, type Condition } from './condition.ts';

export class RelationCondition implements Condition {
  readonly testCost = TEST_COST.list;
  private union: RowSet | null = null;
  constructor(
    readonly param: string,
    private readonly index: RelationIndex,
    private readonly ids: readonly number[],
    private readonly ix: TableIndexes,
  ) {}

  private all(): RowSet {
    if (this.union === null) {
      // charged for the union as computed, also when the index kept it from an earlier request
      let rows = 0;
      for (const id of this.ids) rows += this.index.rows(id).length;
      charge(this.ids.length * WORK.id + rows * WORK.row, this.param);
      this.union = this.index.union(this.ids, this.ix.bits);
    }
    return this.union;
  }

  estimate(lo: number, hi: number): number {
    charge(this.ids.length * WORK.id, this.param);
    let sum = 0;
    for (const id of this.ids) sum += restrict(this.index.rows(id), lo, hi).length;
    return sum;
  }

  rows(lo: number, hi: number): RowSet {
    return restrict(this.all(), lo, hi);
  }

  filter(candidates: RowSet): RowSet {
    const all = this.all();
    charge(all.length * WORK.candidate, this.param);
    return intersect(candidates, all);
  }
}
