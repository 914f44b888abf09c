// Reads a many-to-many column's file (src/store/format/relation-column-file.ts) as views of its bytes.
import { idsAtRow, RELATION_COLUMN_FORMAT, type RelationColumnData } from '../format/relation-column-file.ts';
import { check, checkBelow, checkStarts, Sections } from './sections.ts';

const F = RELATION_COLUMN_FORMAT;

export function readRelationColumn(bytes: Uint8Array, rows: number): RelationColumnData {
  const s = Sections.of(bytes, F);
  const [rowCount, idCount, links] = s.meta(0, 3);
  check(rowCount === rows, F, `of ${rowCount} rows, not the ${rows} of the event list`);
  check(Number.isInteger(idCount) && idCount >= 0 && Number.isInteger(links) && links >= 0, F, 'whose header is not a count of ids');
  const rowStart = s.u32(1, 'row lists', rows + 1);
  checkStarts(rowStart, links, F, 'row lists');
  const rowIds = s.f64(2, 'ids of rows', links);
  const ids = s.f64(3, 'ids', idCount);
  for (let i = 1; i < ids.length; i++) check(ids[i] > ids[i - 1], F, 'whose ids are not ascending');
  const idRowStart = s.u32(4, 'id lists', idCount + 1);
  const idRows = s.u32(5, 'rows of ids');
  checkStarts(idRowStart, idRows.length, F, 'id lists');
  checkBelow(idRows, rows, F, 'rows of ids');
  return { rows, rowStart, rowIds, ids, idRowStart, idRows, at: idsAtRow(rowStart, rowIds) };
}
