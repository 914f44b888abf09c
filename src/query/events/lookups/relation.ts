// categories / groups: rows having any of the given ids (each row once).
import { intersect, restrict, type RowSet } from '../indexes/rowset.ts';
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
    return (this.union ??= this.index.union(this.ids, this.ix.bits));
  }

  estimate(lo: number, hi: number): number {
    let sum = 0;
    for (const id of this.ids) sum += restrict(this.index.rows(id), lo, hi).length;
    return sum;
  }

  rows(lo: number, hi: number): RowSet {
    return restrict(this.all(), lo, hi);
  }

  filter(candidates: RowSet): RowSet {
    return intersect(candidates, this.all());
  }
}
