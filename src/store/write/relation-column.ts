// Builds a many-to-many column's file (src/store/format/relation-column-file.ts).
import { idsAtRow, RELATION_COLUMN_FORMAT, type RelationColumnData } from '../format/relation-column-file.ts';
import { canonicalFloats, meta, packSections } from './sections.ts';

export function buildRelationColumn(lists: readonly (readonly number[])[]): RelationColumnData {
  const rows = lists.length;
  const rowStart = new Uint32Array(rows + 1);
  for (let r = 0; r < rows; r++) rowStart[r + 1] = rowStart[r] + lists[r].length;
  const rowIds = canonicalFloats(lists.flat());
  const byId = new Map<number, number[]>();
  for (let r = 0; r < rows; r++) {
    for (const id of lists[r]) {
      let list = byId.get(id);
      if (!list) byId.set(id, (list = []));
      if (list[list.length - 1] !== r) list.push(r); // an id listed twice on one event
    }
  }
  const ids = Float64Array.from([...byId.keys()].sort((a, b) => a - b));
  const idRowStart = new Uint32Array(ids.length + 1);
  for (let i = 0; i < ids.length; i++) idRowStart[i + 1] = idRowStart[i] + byId.get(ids[i])!.length;
  const idRows = new Uint32Array(idRowStart[ids.length]);
  for (let i = 0; i < ids.length; i++) idRows.set(byId.get(ids[i])!, idRowStart[i]);
  return { rows, rowStart, rowIds, ids, idRowStart, idRows, at: idsAtRow(rowStart, rowIds) };
}

export function relationColumnFile(c: RelationColumnData): Uint8Array {
  return packSections(RELATION_COLUMN_FORMAT, [meta(c.rows, c.ids.length, c.rowIds.length), c.rowStart, c.rowIds, c.ids, c.idRowStart, c.idRows]);
}
