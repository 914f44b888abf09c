// Reads a numeric column's file (src/store/format/ordered-column-file.ts) as views of its bytes.
// Read per need (`fault` given: an edge isolate's), the row lists (the order, the envelope's rows)
// are checked when a lookup first uses them: a range that scans the values needs neither. Read in
// parts, the values and the envelope are read when first used too, and a value's row, a span's
// edges and its bounds are found by block (`search`, ordered-search.ts).
import { ENVELOPE, MONOTONE, ORDERED_COLUMN_FORMAT, PERMUTATION, type Envelope, type OrderedColumnData, type OrderedSearch, type Shape } from '../format/ordered-column-file.ts';
import { FormatError, type Fault } from '../format/sections.ts';
import { check, checkBelow, Sections } from './sections.ts';
import { checkedOnce } from './per-need.ts';
import { lowerBoundInParts, rowOfInParts, valueAt } from './ordered-search.ts';

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
  check(shape !== MONOTONE || length === rows, F, 'of a monotone column with nulls');
  const order = rowList(2, 'order');
  // read in parts, a value's row is found by its blocks (ordered-search.ts): the values are read when first used
  const values = s.inParts ? checkedOnce(fault!, () => s.f64(1, 'values', rows)) : () => s.f64(1, 'values', rows);
  const ordered = shape === MONOTONE ? values : s.inParts ? checkedOnce(fault!, () => s.f64(3, 'values in order', length)) : () => s.f64(3, 'values in order', length);
  if (!s.inParts) {
    const [v, o] = [values(), ordered()];
    return withRowLists({ shape: shape as Shape, values: v, ordered: o, envelope: envelopeOf(s, shape, rows, length, () => v, rowList, fault) }, order, fault);
  }
  const inOrder = shape === MONOTONE ? 1 : 3;
  const search: OrderedSearch = {
    nonNull: length,
    rowOf: (x) => faultOf(fault!, () => rowOfInParts(s, inOrder, 2, length, rows, x, shape === MONOTONE)),
    edge: (x, strict) => faultOf(fault!, () => lowerBoundInParts(s, inOrder, length, x, shape === MONOTONE, strict)),
    at: (p) => faultOf(fault!, () => valueAt(s, inOrder, p)),
  };
  const data = { shape: shape as Shape, search } as { -readonly [K in keyof OrderedColumnData]: OrderedColumnData[K] };
  Object.defineProperty(data, 'values', { get: values, enumerable: true });
  Object.defineProperty(data, 'ordered', { get: ordered, enumerable: true });
  const envelope = checkedOnce(fault!, () => envelopeOf(s, shape, rows, length, values, rowList, fault));
  Object.defineProperty(data, 'envelope', { get: envelope, enumerable: true });
  return withRowLists(data, order, fault);
}

/** A search's FormatError, named as damage found at load is. */
function faultOf<T>(fault: Fault, find: () => T): T {
  try {
    return find();
  } catch (e) {
    throw e instanceof FormatError ? fault(e.message) : e;
  }
}

/** The envelope's sections of an ENVELOPE column (its rows a list read when first used, per need; read in parts, every part when first used). */
function envelopeOf(s: Sections, shape: number, rows: number, length: number, values: () => Float64Array, rowList: (section: number, what: string) => () => Uint32Array, fault: Fault | undefined): OrderedColumnData['envelope'] {
  const perNeed = fault !== undefined;
  if (shape !== ENVELOPE) return null;
  const hasNulls = length !== rows;
  const envelopeRows = hasNulls ? rowList(4, 'envelope rows') : () => null;
  if (!s.inParts) {
    const envelope: Envelope = {
      rows: null,
      values: hasNulls ? s.f64(5, 'envelope values', length) : values(),
      prefixMin: s.f64(6, 'envelope minima', length),
      suffixMax: s.f64(7, 'envelope maxima', length),
    };
    if (!perNeed) envelope.rows = envelopeRows();
    else Object.defineProperty(envelope, 'rows', { get: envelopeRows, enumerable: true });
    return envelope;
  }
  // read in parts: every array when first used, the minima and maxima searched by block
  const section = { prefixMin: 6, suffixMax: 7 } as const;
  check(s.byteLength(6) === length * 8 && s.byteLength(7) === length * 8, F, 'whose envelope is not one value a row');
  const envelope = {
    search: {
      length,
      edge: (of: 'prefixMin' | 'suffixMax', x: number, strict: boolean) => faultOf(fault!, () => lowerBoundInParts(s, section[of], length, x, true, strict)),
      at: (of: 'prefixMin' | 'suffixMax', p: number) => faultOf(fault!, () => valueAt(s, section[of], p)),
    },
  } as Envelope;
  const lazy = { rows: envelopeRows, values: hasNulls ? checkedOnce(fault!, () => s.f64(5, 'envelope values', length)) : values, prefixMin: checkedOnce(fault!, () => s.f64(6, 'envelope minima', length)), suffixMax: checkedOnce(fault!, () => s.f64(7, 'envelope maxima', length)) };
  for (const [name, get] of Object.entries(lazy)) Object.defineProperty(envelope, name, { get, enumerable: true });
  return envelope;
}

/** `data` with its order: a list read now, or (per need: `fault` given) when first used. */
function withRowLists(data: Omit<OrderedColumnData, 'order'>, order: () => Uint32Array, fault: Fault | undefined): OrderedColumnData {
  if (fault === undefined) return { ...data, order: order() } as OrderedColumnData;
  return Object.defineProperty(data, 'order', { get: order, enumerable: true }) as OrderedColumnData;
}
