// data/columns/<field>.relation.bin: a many-to-many column of the event list (categories,
// groups): each row's ids as the event lists them, and each id's rows.
//
//   0  header: rows, distinct ids, ids listed in all
//   1  rowStart    u32 × (rows + 1), 2 rowIds f64: row r's ids are rowIds[rowStart[r] .. rowStart[r+1])
//   3  ids         f64 × distinct ids, ascending
//   4  idRowStart  u32 × (ids + 1), 5 idRows u32: id i's rows (ascending, each once) are
//                  idRows[idRowStart[i] .. idRowStart[i+1])
import type { Format } from './sections.ts';

export const RELATION_COLUMN_FORMAT: Format = { magic: 'aula-rel', version: 1, sections: 6, what: 'a relation column' };

export interface RelationColumnData {
  readonly rows: number;
  readonly rowStart: Uint32Array;
  readonly rowIds: Float64Array;
  readonly ids: Float64Array;
  readonly idRowStart: Uint32Array;
  readonly idRows: Uint32Array;
  /** the ids of `row`, as the event lists them */
  at(row: number): number[];
}

/** `at` of a column of these lists. */
export function idsAtRow(rowStart: Uint32Array, rowIds: Float64Array): (row: number) => number[] {
  return (row) => Array.from(rowIds.subarray(rowStart[row], rowStart[row + 1]));
}

/** Where `id` is in `c.ids`, or -1. */
export function idIndex(c: RelationColumnData, id: number): number {
  const ids = c.ids;
  let lo = 0;
  let hi = ids.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (ids[mid] < id) lo = mid + 1;
    else hi = mid;
  }
  return lo < ids.length && ids[lo] === id ? lo : -1;
}
