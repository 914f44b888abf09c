// Reads a numeric column's file (src/store/format/ordered-column-file.ts) as views of its bytes.
import { ENVELOPE, MONOTONE, ORDERED_COLUMN_FORMAT, PERMUTATION, type OrderedColumnData, type Shape } from '../format/ordered-column-file.ts';
import { check, checkBelow, Sections } from './sections.ts';

const F = ORDERED_COLUMN_FORMAT;

export function readOrderedColumn(bytes: Uint8Array, rows: number): OrderedColumnData {
  const s = Sections.of(bytes, F);
  const [rowCount, shape, length] = s.meta(0, 3);
  check(rowCount === rows, F, `of ${rowCount} rows, not the ${rows} of the event list`);
  check(shape === MONOTONE || shape === ENVELOPE || shape === PERMUTATION, F, `of an unknown shape (${shape})`);
  check(Number.isInteger(length) && length >= 0 && length <= rows, F, 'whose header is not a count of rows');
  const values = s.f64(1, 'values', rows);
  const order = s.u32(2, 'order', length);
  checkBelow(order, rows, F, 'order');
  const ordered = shape === MONOTONE ? values : s.f64(3, 'values in order', length);
  check(shape !== MONOTONE || length === rows, F, 'of a monotone column with nulls');
  let envelope: OrderedColumnData['envelope'] = null;
  if (shape === ENVELOPE) {
    const hasNulls = length !== rows;
    const envelopeRows = hasNulls ? s.u32(4, 'envelope rows', length) : null;
    if (envelopeRows) checkBelow(envelopeRows, rows, F, 'envelope rows');
    envelope = {
      rows: envelopeRows,
      values: hasNulls ? s.f64(5, 'envelope values', length) : values,
      prefixMin: s.f64(6, 'envelope minima', length),
      suffixMax: s.f64(7, 'envelope maxima', length),
    };
  }
  return { shape: shape as Shape, values, order, ordered, envelope };
}
