// Builds a boolean column's file (src/store/format/bool-column-file.ts).
import { BOOL_COLUMN_FORMAT, type BoolColumnData } from '../format/bool-column-file.ts';
import { meta, packSections } from './sections.ts';

export function buildBoolColumn(column: ArrayLike<number>): BoolColumnData {
  const values = Uint8Array.from(column, (v) => (v ? 1 : 0));
  const t: number[] = [];
  const f: number[] = [];
  for (let r = 0; r < values.length; r++) (values[r] ? t : f).push(r);
  return { values, rows: [Uint32Array.from(f), Uint32Array.from(t)] };
}

export function boolColumnFile(c: BoolColumnData): Uint8Array {
  return packSections(BOOL_COLUMN_FORMAT, [meta(c.values.length), c.values, c.rows[0], c.rows[1]]);
}
