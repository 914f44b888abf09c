// Builds a boolean column's file (src/store/format/bool-column-file.ts).
import { BOOL_COLUMN_FORMAT, type BoolColumnData } from '../format/bool-column-file.ts';
import { bitmapWords } from '../format/bitmap.ts';
import { meta, packSections } from './sections.ts';

export function buildBoolColumn(column: ArrayLike<number>): BoolColumnData {
  const values = Uint8Array.from(column, (v) => (v ? 1 : 0));
  const t: number[] = [];
  const f: number[] = [];
  const bits = [new Int32Array(bitmapWords(values.length)), new Int32Array(bitmapWords(values.length))] as const;
  for (let r = 0; r < values.length; r++) {
    (values[r] ? t : f).push(r);
    bits[values[r]][r >>> 5] |= 1 << (r & 31);
  }
  return { values, rows: [Uint32Array.from(f), Uint32Array.from(t)], bits };
}

export function boolColumnFile(c: BoolColumnData): Uint8Array {
  return packSections(BOOL_COLUMN_FORMAT, [meta(c.values.length), c.values, c.rows[0], c.rows[1], c.bits[0], c.bits[1]]);
}
