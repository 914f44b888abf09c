// Reads a numeric column's file (src/store/format/ordered-column-file.ts) as views of its bytes.
// Read per need (`fault` given: an edge isolate's), the row lists (the order, the envelope's rows)
// are checked when a lookup first uses them: a range that scans the values needs neither.
import { ENVELOPE, MONOTONE, ORDERED_COLUMN_FORMAT, PERMUTATION, type OrderedColumnData, type Shape } from '../format/ordered-column-file.ts';
import { check, checkBelow, Sections } from './sections.ts';
import { checkedOnce } from './per-need.ts';
import type { Fault } from './string-table.ts';

const F = ORDERED_COLUMN_FORMAT;

export function readOrderedColumn(bytes: Uint8Array, rows: number, fault?: Fault): OrderedColumnData {
  const s = Sections.of(bytes, F);
  const [rowCount, shape, length] = s.meta(0, 3);
  check(rowCount === rows, F, `of ${rowCount} rows, not the ${rows} of the event list`);
  check(shape === MONOTONE || shape === ENVELOPE || shape === PERMUTATION, F, `of an unknown shape (${shape})`);
  check(Number.isInteger(length) && length >= 0 && length <= rows, F, 'whose header is not a count of rows');
  /** a list of rows, checked now, or (per need) when first used: found damaged then, named as damage found at load is */
  const rowList = (section: number, what: string): (() => Uint32Array) => {
    const read = () => {
      const list = s.u32(section, what, length);
      checkBelow(list, rows, F, what);
      return list;
    };
    if (fault === undefined) {
      const list = read();
      return () => list;
    }
    return checkedOnce(fault, read);
  };
  const values = s.f64(1, 'values', rows);
  const order = rowList(2, 'order');
  const ordered = shape === MONOTONE ? values : s.f64(3, 'values in order', length);
  check(shape !== MONOTONE || length === rows, F, 'of a monotone column with nulls');
  let envelope: OrderedColumnData['envelope'] = null;
  if (shape === ENVELOPE) {
    const hasNulls = length !== rows;
    const envelopeRows = hasNulls ? rowList(4, 'envelope rows') : () => null;
    envelope = {
      rows: null,
      values: hasNulls ? s.f64(5, 'envelope values', length) : values,
      prefixMin: s.f64(6, 'envelope minima', length),
      suffixMax: s.f64(7, 'envelope maxima', length),
    };
    if (fault === undefined) envelope.rows = envelopeRows();
    else Object.defineProperty(envelope, 'rows', { get: envelopeRows, enumerable: true });
  }
  const data = { shape: shape as Shape, values, order: null as unknown as Uint32Array, ordered, envelope };
  if (fault === undefined) return { ...data, order: order() };
  return Object.defineProperty(data, 'order', { get: order, enumerable: true });
}
