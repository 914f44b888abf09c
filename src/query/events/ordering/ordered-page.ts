// A page of the list in an `ordering`: the rows at places [from, to) of the matching rows sorted
// by the keys, ties broken by row (the default order).
//
// By the first key, every row has a place of its own in that field's order (field-orders.ts), so
// the matching rows are put in order without comparing values: all of them are that order itself
// (a page is a slice of it); many are marked in a bit set over the places and read back in order;
// a few are sorted by their places. Where the first key ties, the tied rows on the page (and the
// rest of their run of ties) are put in order by the next key the same way.
//
// Charged to `ordering`: rows placed and read back, bit-set words scanned, sort steps.
import { charge } from '../../work-budget.ts';
import type { Matches } from '../matches.ts';
import { bitmapWords } from '../../../store/format/bitmap.ts';
import { listInto, rowsIn, setBitsAt } from '../search/bits.ts';
import { WORK } from '../work-costs.ts';
import type { OrderSource } from './field-orders.ts';
import { ORDERING_PARAM, type OrderKey } from './ordering-param.ts';

/** The rows a page is taken from: every row, a list, or a bit set over the rows. */
type RowsIn = null | Uint32Array | { bits: Int32Array; count: number };

/** Rows of a page in `keys` order: of all rows (`matches` null) or of the matches. */
export function orderedPage(source: OrderSource, keys: readonly OrderKey[], matches: Matches | null, from: number, to: number): Uint32Array {
  if (to <= from) return new Uint32Array(0);
  const rows: RowsIn = matches === null ? null : matches.bits ? { bits: matches.bits, count: matches.count } : matches.slice(0, matches.count);
  return ordered(source, keys, rows, from, to);
}

const sizeOf = (rows: RowsIn, n: number) => (rows === null ? n : rows instanceof Uint32Array ? rows.length : rows.count);

/** `rows` at places [from, to) of `keys` order. */
function ordered(source: OrderSource, keys: readonly OrderKey[], rows: RowsIn, from: number, to: number): Uint32Array {
  const n = source.rows;
  if (keys.length === 0) {
    // only the tie-break is left: row order
    if (rows === null) return iotaSlice(from, to);
    if (rows instanceof Uint32Array) return sortedRows(rows).subarray(from, to);
    return listOf(rows, n).subarray(from, to);
  }
  const order = source.field(keys[0].field);
  const perm = keys[0].descending ? order.descending : order.ascending;
  const place = keys[0].descending ? order.descendingPlace : order.ascendingPlace;
  const m = sizeOf(rows, n);
  to = Math.min(to, m);
  if (to <= from) return new Uint32Array(0);
  const rank = order.rank;
  // the rows up to `to` in the first key's order, and (with more keys) the rest of the run of
  // ties that reaches past it
  let inOrder: Uint32Array | null = null;
  // a walk costs `to * n / m` steps when the matches are spread evenly over the order; matches
  // bunched at its far end (a filter on a field the order follows) would cost up to every row, so
  // a walk gives up after twice what placing every match costs, and they are placed
  const placing = m + bitmapWords(n);
  if (rows === null) inOrder = perm;
  else if (!(rows instanceof Uint32Array) && to * (n / m) < placing) inOrder = walk(perm, rows.bits, to, keys.length > 1 ? rank : null, 2 * placing);
  if (inOrder === null) {
    const list = rows instanceof Uint32Array ? rows : listed(rows!, n);
    if (keys.length === 1) return byPlace(list, perm, place, n, from, to);
    inOrder = byPlace(list, perm, place, n, 0, m);
  }
  if (keys.length === 1) {
    charge((to - from) * WORK.row, ORDERING_PARAM);
    return inOrder.slice(from, to);
  }
  const known = inOrder === perm ? m : inOrder.length;
  let start = from;
  let end = to;
  while (start > 0 && rank[inOrder[start - 1]] === rank[inOrder[from]]) start--;
  while (end < known && rank[inOrder[end]] === rank[inOrder[to - 1]]) end++;
  charge((from - start + end - to) * WORK.row, ORDERING_PARAM);
  const out = new Uint32Array(to - from);
  let k = 0;
  for (let i = start; i < end; ) {
    let j = i + 1;
    while (j < end && rank[inOrder[j]] === rank[inOrder[i]]) j++;
    const a = Math.max(i, from);
    const b = Math.min(j, to);
    if (j - i === 1) out[k++] = inOrder[i];
    else {
      // the run of ties, in the remaining keys' order: only its part on the page is kept
      const run = ordered(source, keys.slice(1), inOrder.slice(i, j), a - i, b - i);
      out.set(run, k);
      k += run.length;
    }
    i = j;
  }
  return out;
}

/** The rows of a bit set over `n` rows, ascending: every word scanned, every row listed. */
function listOf(rows: { bits: Int32Array; count: number }, n: number): Uint32Array {
  charge(bitmapWords(n) * WORK.word + rows.count * WORK.row, ORDERING_PARAM);
  return rowsIn(rows.bits, 0, n, rows.count);
}

/**
 * As listOf, into a list this module reuses: byPlace places the rows at once and keeps none of
 * them, so thousands of matches listed make no new array each time.
 */
function listed(rows: { bits: Int32Array; count: number }, n: number): Uint32Array {
  charge(bitmapWords(n) * WORK.word + rows.count * WORK.row, ORDERING_PARAM);
  if (scratchRows.length < rows.count) scratchRows = new Uint32Array(Math.max(rows.count, 2 * scratchRows.length));
  return listInto(rows.bits, 0, n, scratchRows.subarray(0, rows.count));
}

let scratchRows = new Uint32Array(1024);

/**
 * The first `to` rows of `bits` in the order `perm`, read by walking it (and, with `rank`, those
 * after them that tie with the last): for a page near the start of many matches, far less than
 * placing every match. Null once it has taken `steps` steps without them.
 */
function walk(perm: Uint32Array, bits: Int32Array, to: number, rank: Uint32Array | null, steps: number): Uint32Array | null {
  const out: number[] = [];
  let i = 0;
  for (; i < perm.length; i++) {
    if (i >= steps) {
      charge(i * WORK.row, ORDERING_PARAM);
      return null;
    }
    const r = perm[i];
    if ((bits[r >>> 5] & (1 << (r & 31))) === 0) continue;
    if (out.length >= to && (rank === null || rank[r] !== rank[out[out.length - 1]])) break;
    out.push(r);
    if (out.length === to && rank === null) {
      i++;
      break;
    }
  }
  charge(i * WORK.row, ORDERING_PARAM);
  return Uint32Array.from(out);
}

/** `rows` at places [from, to) of the order `perm` (`place`: each row's place in it), over `n` rows. */
function byPlace(rows: Uint32Array, perm: Uint32Array, place: Uint32Array, n: number, from: number, to: number): Uint32Array {
  const m = rows.length;
  to = Math.min(to, m);
  if (to <= from) return new Uint32Array(0);
  const steps = 32 - Math.clz32(m);
  if (m * steps * 2 < m + bitmapWords(n)) {
    // few: sorted by their places
    charge(m * steps * WORK.row, ORDERING_PARAM);
    const places = new Uint32Array(m);
    for (let i = 0; i < m; i++) places[i] = place[rows[i]];
    places.sort();
    const out = new Uint32Array(to - from);
    for (let i = from; i < to; i++) out[i - from] = perm[places[i]];
    return out;
  }
  // many: marked in a bit set over the places, read back from the place of the page's first
  charge(m * WORK.row + bitmapWords(n) * WORK.word + (to - from) * WORK.row, ORDERING_PARAM);
  if (scratchPlaces.length !== bitmapWords(n)) scratchPlaces = new Int32Array(bitmapWords(n));
  const bits = scratchPlaces;
  for (let i = 0; i < m; i++) {
    const p = place[rows[i]];
    bits[p >>> 5] |= 1 << (p & 31);
  }
  const { rows: places } = setBitsAt(bits, from, to);
  bits.fill(0);
  const out = new Uint32Array(places.length);
  for (let i = 0; i < places.length; i++) out[i] = perm[places[i]];
  return out;
}

/** byPlace's set over the places, cleared after each use: a table's worth of words made once. */
let scratchPlaces = new Int32Array(0);

function sortedRows(rows: Uint32Array): Uint32Array {
  charge(rows.length * WORK.word, ORDERING_PARAM);
  for (let i = 1; i < rows.length; i++) {
    if (rows[i] < rows[i - 1]) {
      charge(rows.length * (32 - Math.clz32(rows.length)) * WORK.row, ORDERING_PARAM);
      return rows.slice().sort();
    }
  }
  return rows;
}

function iotaSlice(from: number, to: number): Uint32Array {
  const out = new Uint32Array(to - from);
  for (let i = 0; i < out.length; i++) out[i] = from + i;
  return out;
}
