// data/columns/<field>.ordered.bin: a numeric column of the event list (epoch ms of a timestamp,
// dfp_points, the id) with its sorted order, for range lookups (src/query/events/indexes/
// ordered-column.ts) and for ordering the list by the field.
//
// Rows are in list order (start descending). How a range is answered is decided here, once:
// - MONOTONE: the column never increases along the rows (always `start`): a range is a slice of rows;
// - ENVELOPE: the column roughly follows the row order (`end`): running minima and maxima over its
//   non-null rows bound where matches can be, and only a narrow band is tested;
// - PERMUTATION: otherwise, a range is a slice of the rows sorted by value.
// Sections:
//
//   0  header: rows, shape, non-null rows
//   1  values      f64 × rows: the column, NaN where null
//   2  order       u32 × non-null rows: the non-null rows sorted by (value, row) — whatever the shape
//   3  ordered     f64 × non-null rows: their values in that order (empty when MONOTONE: the
//                  values themselves are in order, descending)
//   4  envelope rows    u32: the non-null rows, ascending (empty: ENVELOPE over a column without
//                       nulls, where they are every row; or another shape)
//   5  envelope values  f64: their values (empty as 4)
//   6  prefixMin   f64: min of the envelope values [0..i]  (empty unless ENVELOPE)
//   7  suffixMax   f64: max of the envelope values [i..m)  (empty unless ENVELOPE)
import type { Format } from './sections.ts';

export const ORDERED_COLUMN_FORMAT: Format = { magic: 'aula-ord', version: 1, sections: 8, what: 'an ordered column' };

export const MONOTONE = 0;
export const ENVELOPE = 1;
export const PERMUTATION = 2;
export type Shape = typeof MONOTONE | typeof ENVELOPE | typeof PERMUTATION;

export interface Envelope {
  /** the non-null rows, ascending; null when there are no nulls (then they are 0..n-1) */
  rows: Uint32Array | null;
  /** the values of those rows */
  values: Float64Array;
  /** min of values[0..i] */
  prefixMin: Float64Array;
  /** max of values[i..m) */
  suffixMax: Float64Array;
  /**
   * Read in parts (an edge isolate's): the minima and maxima searched by block, not read whole.
   * `edge`: the first position whose value (both non-increasing) is ≤ x (< x when `strict`).
   */
  search?: { readonly length: number; edge(of: 'prefixMin' | 'suffixMax', x: number, strict: boolean): number; at(of: 'prefixMin' | 'suffixMax', p: number): number };
}

export interface OrderedColumnData {
  readonly shape: Shape;
  /** the column, NaN where null */
  readonly values: Float64Array;
  /** the non-null rows sorted by (value, row) */
  readonly order: Uint32Array;
  /** the values of `order` (MONOTONE: the column itself, descending) */
  readonly ordered: Float64Array;
  readonly envelope: Envelope | null;
  /**
   * A file read in parts (an edge isolate's): what a lookup asks of `ordered` answered by reading
   * the blocks a search reaches, not the whole column.
   */
  readonly search?: OrderedSearch;
}

export interface OrderedSearch {
  /** the count of non-null rows (the header's): the length of `ordered` */
  readonly nonNull: number;
  /** the row of a value (the smallest of those equal to it), or undefined */
  rowOf(value: number): number | undefined;
  /** the first position of `ordered` whose value is ≥ x (> x when `strict`; ≤ x, < x where MONOTONE) */
  edge(x: number, strict: boolean): number;
  /** `ordered[p]` */
  at(p: number): number;
}
