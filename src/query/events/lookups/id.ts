// `id`: at most one row, found through the table's id map.
import type { RowSet } from '../indexes/rowset.ts';
import { EMPTY, lowerBound } from '../indexes/rowset.ts';
import type { TableIndexes } from '../indexes/table-indexes.ts';
import { TEST_COST, type Condition } from './condition.ts';

export class IdCondition implements Condition {
  readonly testCost = TEST_COST.typed;
  private readonly row: number | undefined;
  constructor(
    readonly param: string,
    id: number,
    ix: TableIndexes,
  ) {
    this.row = ix.table.rowById.get(id);
  }

  estimate(lo: number, hi: number): number {
    return this.rows(lo, hi).length;
  }

  rows(lo: number, hi: number): RowSet {
    const r = this.row;
    return r !== undefined && r >= lo && r < hi ? Uint32Array.of(r) : EMPTY;
  }

  filter(candidates: RowSet): RowSet {
    const r = this.row;
    if (r === undefined) return EMPTY;
    const i = lowerBound(candidates, r);
    return i < candidates.length && candidates[i] === r ? Uint32Array.of(r) : EMPTY;
  }
}
