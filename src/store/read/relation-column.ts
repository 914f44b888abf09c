// Reads a many-to-many column's file (src/store/format/relation-column-file.ts) as views of its bytes.
// Read per need (`fault` given: an edge isolate's), the rows' lists of ids are checked when first
// read: `categories=1` reads the rows of the ids, not the ids of every row.
import { idsAtRow, RELATION_COLUMN_FORMAT, type RelationColumnData } from '../format/relation-column-file.ts';
import { check, checkBelow, checkStarts, Sections } from './sections.ts';
import { checkedOnce, once } from './per-need.ts';
import type { Fault } from '../format/sections.ts';

const F = RELATION_COLUMN_FORMAT;

export function readRelationColumn(bytes: Uint8Array, rows: number, fault?: Fault): RelationColumnData {
  const s = Sections.of(bytes, F);
  const [rowCount, idCount, links] = s.meta(0, 3);
  check(rowCount === rows, F, `of ${rowCount} rows, not the ${rows} of the event list`);
  check(Number.isInteger(idCount) && idCount >= 0 && Number.isInteger(links) && links >= 0, F, 'whose header is not a count of ids');
  const readRowStart = () => {
    const starts = s.u32(1, 'row lists', rows + 1);
    checkStarts(starts, links, F, 'row lists');
    return starts;
  };
  const eager = fault === undefined ? readRowStart() : null;
  const rowIds = s.f64(2, 'ids of rows', links);
  const ids = s.f64(3, 'ids', idCount);
  for (let i = 1; i < ids.length; i++) check(ids[i] > ids[i - 1], F, 'whose ids are not ascending');
  const idRowStart = s.u32(4, 'id lists', idCount + 1);
  const idRows = s.u32(5, 'rows of ids');
  checkStarts(idRowStart, idRows.length, F, 'id lists');
  checkBelow(idRows, rows, F, 'rows of ids');
  if (eager !== null) return { rows, rowStart: eager, rowIds, ids, idRowStart, idRows, at: idsAtRow(eager, rowIds) };
  const rowStart = checkedOnce(fault!, readRowStart);
  const at = once(() => idsAtRow(rowStart(), rowIds));
  const data = { rows, rowStart: null as unknown as Uint32Array, rowIds, ids, idRowStart, idRows, at: (row: number) => at()(row) };
  return Object.defineProperty(data, 'rowStart', { get: rowStart, enumerable: true });
}
