// Builds a boolean column's file (src/store/format/bool-column-file.ts).
import { BOOL_COLUMN_FORMAT, type BoolColumnData } from '../format/bool-column-file.ts';
import { bitmapWords } from '../format/bitmap.ts';
import { meta, packSections } from './sections.ts';

export function buildBoolColumn(column: ArrayLike<number>): BoolColumnData {
  const n = column.length;
  // typed arrays filled in place (counted first), not grown number arrays copied: a splice of a
  // 100k-row list makes every flag column again
  const values = new Uint8Array(n);
  let trues = 0;
  for (let r = 0; r < n; r++) if ((values[r] = column[r] ? 1 : 0) === 1) trues++;
  const rows = [new Uint32Array(n - trues), new Uint32Array(trues)] as const;
  const bits = [new Int32Array(bitmapWords(n)), new Int32Array(bitmapWords(n))] as const;
  const filled = [0, 0];
  for (let r = 0; r < n; r++) {
    const v = values[r];
    rows[v][filled[v]++] = r;
    bits[v][r >>> 5] |= 1 << (r & 31);
  }
  return { values, rows: [rows[0], rows[1]], bits };
}

export function boolColumnFile(c: BoolColumnData): Uint8Array {
  return packSections(BOOL_COLUMN_FORMAT, [meta(c.values.length), c.values, c.rows[0], c.rows[1], c.bits[0], c.bits[1]]);
}
