// Reads a boolean column's file (src/store/format/bool-column-file.ts) as views of its bytes.
// Read per need (`fault` given: an edge isolate's), each value's rows and bits are checked when a
// lookup first reads them: `register=true` listed from its rows checks neither the false rows nor
// any bit set.
import { bitCount, bitmapWords } from '../format/bitmap.ts';
import { BOOL_COLUMN_FORMAT, type BoolColumnData } from '../format/bool-column-file.ts';
import { check, checkBelow, Sections } from './sections.ts';
import { checkedOnce } from './per-need.ts';
import type { Fault } from '../format/sections.ts';

const F = BOOL_COLUMN_FORMAT;

export function readBoolColumn(bytes: Uint8Array, rows: number, fault?: Fault): BoolColumnData {
  const s = Sections.of(bytes, F);
  const [rowCount] = s.meta(0, 1);
  check(rowCount === rows, F, `of ${rowCount} rows, not the ${rows} of the event list`);
  const values = s.u8(1, 'values', rows);
  const lists = [s.u32(2, 'rows of false'), s.u32(3, 'rows of true')] as const;
  check(lists[0].length + lists[1].length === rows, F, 'whose rows do not add up');
  const sets = [s.i32(4, 'bits of false', bitmapWords(rows)), s.i32(5, 'bits of true', bitmapWords(rows))] as const;
  const what = ['rows of false', 'rows of true'] as const;
  /** a value's rows, checked to lie in the list */
  const rowsOf = (v: 0 | 1) => {
    checkBelow(lists[v], rows, F, what[v]);
    return lists[v];
  };
  /** a value's bits: a search narrowed by the flag reads the bits, a filter the rows, both must say the same */
  const bitsOf = (v: 0 | 1) => {
    check(holds(sets[v], rowsOf(v)), F, 'whose bit sets are not its rows');
    return sets[v];
  };
  if (fault === undefined) {
    const listed = [rowsOf(0), rowsOf(1)] as const;
    check(holds(sets[0], listed[0]) && holds(sets[1], listed[1]), F, 'whose bit sets are not its rows');
    return { values, rows: listed, bits: sets };
  }
  /** each read when first used: found damaged then, named as damage found at load is */
  const later = <T>(read: () => T) => checkedOnce(fault, read);
  const lazyPair = <T>(read: (v: 0 | 1) => T): readonly [T, T] =>
    Object.defineProperties([] as unknown as [T, T], { 0: { get: later(() => read(0)), enumerable: true }, 1: { get: later(() => read(1)), enumerable: true } });
  return { values, rows: lazyPair(rowsOf), bits: lazyPair(bitsOf) };
}

/** Whether `bits` are exactly the (distinct) `rows`: each listed row's bit set, and no other. */
function holds(bits: Int32Array, rows: Uint32Array): boolean {
  if (bitCount(bits) !== rows.length) return false;
  // (an indexed loop: an iterator's calls cost a fresh isolate more than the test itself)
  for (let i = 0; i < rows.length; i++) {
    const r = rows[i];
    if (!((bits[r >>> 5] >>> (r & 31)) & 1)) return false;
  }
  return true;
}
