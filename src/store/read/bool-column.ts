// Reads a boolean column's file (src/store/format/bool-column-file.ts) as views of its bytes.
import { bitCount, bitmapWords } from '../format/bitmap.ts';
import { BOOL_COLUMN_FORMAT, type BoolColumnData } from '../format/bool-column-file.ts';
import { check, checkBelow, Sections } from './sections.ts';

const F = BOOL_COLUMN_FORMAT;

export function readBoolColumn(bytes: Uint8Array, rows: number): BoolColumnData {
  const s = Sections.of(bytes, F);
  const [rowCount] = s.meta(0, 1);
  check(rowCount === rows, F, `of ${rowCount} rows, not the ${rows} of the event list`);
  const values = s.u8(1, 'values', rows);
  const falseRows = s.u32(2, 'rows of false');
  const trueRows = s.u32(3, 'rows of true');
  check(falseRows.length + trueRows.length === rows, F, 'whose rows do not add up');
  checkBelow(falseRows, rows, F, 'rows of false');
  checkBelow(trueRows, rows, F, 'rows of true');
  const falseBits = s.i32(4, 'bits of false', bitmapWords(rows));
  const trueBits = s.i32(5, 'bits of true', bitmapWords(rows));
  // a search narrowed by the flag reads the bits, a filter the rows: both must say the same
  check(holds(falseBits, falseRows) && holds(trueBits, trueRows), F, 'whose bit sets are not its rows');
  return { values, rows: [falseRows, trueRows], bits: [falseBits, trueBits] };
}

/** Whether `bits` are exactly the (distinct) `rows`: each listed row's bit set, and no other. */
function holds(bits: Int32Array, rows: Uint32Array): boolean {
  if (bitCount(bits) !== rows.length) return false;
  for (const r of rows) if (!((bits[r >>> 5] >>> (r & 31)) & 1)) return false;
  return true;
}
