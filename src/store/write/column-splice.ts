// The columns of a new row order made from the previous build's columns as loaded (their typed
// arrays), where rows were added or removed and every later row moved: row i of the list is the
// previous row order[i], or, where that is negative, the new row -order[i] - 1. The previous rows
// keep their order among themselves (order's non-negative entries ascend), so a previous row's
// number maps to its new one by one pass, and what was sorted by (value, row) stays sorted. Each
// column comes out as the one built from its values in the new order (column-files.ts), which the
// tests hold it to: a splice only spares the work of remaking it from strings.
import type { OrderedColumnData } from '../format/ordered-column-file.ts';
import { idIndex, idsAtRow, type RelationColumnData } from '../format/relation-column-file.ts';
import type { BoolColumnData } from '../format/bool-column-file.ts';
import { TEXT_COLUMN_FORMAT, TEXT_SECTION, type TextColumnData } from '../format/text-column-file.ts';
import { fold } from '../format/fold.ts';
import { canonicalFloats } from './sections.ts';
import { orderedColumnOf } from './ordered-column.ts';
import { builtColumn, sortedOrder, valueRowsOf, type BuiltTextColumn, type TextColumnOptions } from './text-column.ts';
import { alphabetOf, buildTrigrams, countUnits, countUtf8Units } from './trigram-builder.ts';
import { splicedTrigrams } from './trigram-splice.ts';
import { fileSections, noExceptions, type Renumbering } from './text-splice.ts';

/** Where each previous row is in the new order (-1: gone), and the first previous row not at its own place (the rows before it are). */
export function newPlaces(order: Int32Array, previousRows: number): { now: Int32Array; firstMoved: number } {
  const now = new Int32Array(previousRows).fill(-1);
  for (let i = 0; i < order.length; i++) if (order[i] >= 0) now[order[i]] = i;
  let firstMoved = 0;
  while (firstMoved < previousRows && now[firstMoved] === firstMoved) firstMoved++;
  return { now, firstMoved };
}

/**
 * A text column of the new order, from the previous column (`old`, as loaded) and the new rows'
 * strings (`fresh`, in their order). Values are numbered by first appearance: a pass over the rows
 * maps each previous value id (or a new value's) to its new one; a value no row has any more is
 * gone. The values' texts and folded texts are the previous ones by id (only new values are
 * folded), the sorted orders the previous ones renumbered, with the new values after them, which
 * the sort mends in a few comparisons per value; the trigrams spliced where they can be. With the
 * renumbering, textColumnFile takes the string tables and word lists from the previous file's bytes;
 * with the previous file (`previous`), the trigrams' alphabet is counted from its folded UTF-8.
 */
export function splicedTextColumn(old: TextColumnData, fresh: readonly (string | null)[], order: Int32Array, options: Pick<TextColumnOptions, 'folded' | 'trigramBudget'>, previous?: Uint8Array): BuiltTextColumn & { renumbering: Renumbering } {
  const oldCount = old.values.length;
  // the new rows' strings: a previous value (found in its sorted order) or a value of its own
  const added: string[] = [];
  const idOf = new Map<string, number>();
  const freshId = new Int32Array(fresh.length);
  fresh.forEach((s, j) => {
    if (s === null || s === undefined) {
      freshId[j] = -1;
      return;
    }
    let id = idOf.get(s);
    if (id === undefined) {
      id = findValue(old, s);
      if (id < 0) id = oldCount + added.push(s) - 1;
      idOf.set(s, id);
    }
    freshId[j] = id;
  });
  const rows = order.length;
  const next = new Int32Array(oldCount + added.length).fill(-1);
  const rowValue = new Int32Array(rows);
  const counts: number[] = [];
  let distinct = 0;
  let nonNull = 0;
  for (let i = 0; i < rows; i++) {
    const from = order[i];
    const was = from >= 0 ? old.rowValue[from] : freshId[-from - 1];
    if (was < 0) {
      rowValue[i] = -1;
      continue;
    }
    let v = next[was];
    if (v < 0) {
      v = next[was] = distinct++;
      counts.push(0);
    }
    rowValue[i] = v;
    counts[v]++;
    nonNull++;
  }
  if (options.folded && !old.folded && oldCount > 0) throw new Error('the previous column has no folded values');
  const wasOf = new Int32Array(distinct);
  for (let was = 0; was < next.length; was++) if (next[was] >= 0) wasOf[next[was]] = was;
  // (a previous value's text is read only where it is used: most come from the previous file's bytes)
  const valueList = madeWhenRead(distinct, (v) => (wasOf[v] < oldCount ? old.values.at(wasOf[v]) : added[wasOf[v] - oldCount]));
  const foldedList = options.folded ? madeWhenRead(distinct, (v) => (wasOf[v] < oldCount ? old.folded!.at(wasOf[v]) : fold(added[wasOf[v] - oldCount]))) : null;
  const { valueRowStart, valueRows } = valueRowsOf(rowValue, counts, nonNull);
  const byValue = withAdded(renumbered(old.byValue, next, oldCount), valueList, next, oldCount, true) ?? sortedOrder(valueList, renumbered(old.byValue, next, oldCount), true);
  const budget = foldedList === null ? null : options.trigramBudget(distinct);
  const byFolded = foldedList === null ? null : foldedOrder(old, foldedList, next, oldCount, byValue);
  // the previous index spliced where it can be, else made whole
  const oldFolded = (v: number) => old.folded!.at(v);
  const trigrams = budget === null ? null : ((old.trigrams && splicedTrigrams(old.trigrams, foldedList!, next, oldCount, oldFolded, budget, splicedAlphabet(previous, next, oldCount, oldFolded, foldedList!) ?? undefined)) ?? buildTrigrams(foldedList!, budget));
  const renumbering = { next, oldCount, oldFolded: old.folded ? (v: number) => old.folded!.at(v) : null };
  return { ...builtColumn({ rows, valueList, foldedList, rowValue, valueRowStart, valueRows, nonNullRows: nonNull, byValue, byFolded, trigrams }), renumbering };
}

/**
 * The alphabet of the spliced folded values (alphabet(folded)), counted from the previous file's
 * folded UTF-8 with the values gone taken out and those added put in: no value that stays is
 * decoded. Null without the previous file, or where its table has strings that are not their UTF-8.
 */
function splicedAlphabet(previous: Uint8Array | undefined, next: Int32Array, oldCount: number, oldFolded: (v: number) => string, folded: readonly string[]): Uint8Array | null {
  const sections = previous && fileSections(previous, TEXT_COLUMN_FORMAT);
  if (!sections || !noExceptions(sections[TEXT_SECTION.folded + 2])) return null;
  const freq = new Float64Array(0x10000);
  countUtf8Units(sections[TEXT_SECTION.folded], freq);
  for (let was = 0; was < next.length; was++) {
    if (was < oldCount ? next[was] < 0 : next[was] >= 0) countUnits(was < oldCount ? oldFolded(was) : folded[next[was]], freq, was < oldCount ? -1 : 1);
  }
  return alphabetOf(freq);
}

/**
 * A list of `count` strings, each made by `make` when first read, then kept: a previous column read
 * per need decodes only the strings read (string-table.ts), which a splice mostly takes as bytes.
 */
function madeWhenRead(count: number, make: (i: number) => string): readonly string[] {
  const made: string[] = new Array(count);
  return new Proxy(made, {
    get(target, key, receiver) {
      if (typeof key !== 'string') return Reflect.get(target, key, receiver);
      const i = Number(key);
      if (!(i >= 0 && i < count && String(i) === key)) return Reflect.get(target, key, receiver);
      return (target[i] ??= make(i));
    },
  });
}

/** The previous value id of `text`, by binary search of the column's sorted order; -1 where it has none. */
function findValue(c: TextColumnData, text: string): number {
  let lo = 0;
  let hi = c.byValue.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const t = c.values.at(c.byValue[mid]);
    if (t === text) return c.byValue[mid];
    if (t < text) lo = mid + 1;
    else hi = mid;
  }
  return -1;
}

/**
 * The values' order by folded text (ties by number), from the previous one where it has one: the
 * previous values whose numbers keep their order among themselves (most of them) keep their places
 * in it, and the others, with the new values, are put in by binary search (withAdded), so a
 * splice decodes a few folded values, not every one. Sorted where many moved.
 */
function foldedOrder(old: TextColumnData, folded: readonly string[], next: Int32Array, oldCount: number, byValue: Uint32Array): Uint32Array {
  if (!old.byFolded) return sortedOrder(folded, byValue, false);
  const moved = movedValues(next, oldCount);
  const hint = renumbered(old.byFolded, next, oldCount, moved);
  return (moved !== null ? withAdded(hint, folded, next, oldCount, false, moved.count) : null) ?? sortedOrder(folded, hint, false);
}

/**
 * The previous values (by new number) whose numbers do not keep the order of their previous ones:
 * those off a longest run that does (a longest increasing subsequence of `next`), the fewest whose
 * removal leaves the rest in order. Null where they are more than a sort of all is worth.
 */
function movedValues(next: Int32Array, oldCount: number): { marked: Uint8Array; count: number } | null {
  // patience sorting: tails[k], the least last number of a run of k + 1; back links to rebuild the run
  const tails = new Int32Array(oldCount);
  const tailAt = new Int32Array(oldCount);
  const back = new Int32Array(oldCount);
  let length = 0;
  for (let was = 0; was < oldCount; was++) {
    const v = next[was];
    if (v < 0) continue;
    let lo = 0;
    let hi = length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (tails[mid] < v) lo = mid + 1;
      else hi = mid;
    }
    tails[lo] = v;
    tailAt[lo] = was;
    back[was] = lo > 0 ? tailAt[lo - 1] : -1;
    if (lo === length) length++;
  }
  const marked = new Uint8Array(next.length);
  let kept = 0;
  for (let was = 0; was < oldCount; was++) {
    if (next[was] < 0) continue;
    marked[next[was]] = 1;
    kept++;
  }
  for (let was = length > 0 ? tailAt[length - 1] : -1; was >= 0; was = back[was]) marked[next[was]] = 0;
  const count = kept - length;
  return count * 16 > kept ? null : { marked, count };
}

/**
 * `hint` (renumbered: the previous values in their sorted order, then the new ones, then the
 * `moved` previous ones) with each of those last ones put in its place by binary search: (text,
 * number) order. Null where a previous value is out of order against a new one's neighbours (the
 * caller sorts instead).
 */
function withAdded(hint: Uint32Array, texts: readonly string[], next: Int32Array, oldCount: number, distinct: boolean, moved = 0): Uint32Array | null {
  let added = moved;
  for (let was = oldCount; was < next.length; was++) if (next[was] >= 0) added++;
  const kept = hint.length - added;
  const before = (a: number, b: number) => (texts[a] < texts[b] ? true : texts[a] === texts[b] ? !distinct && a < b : false);
  const fresh = Array.from(hint.subarray(kept)).sort((a, b) => (before(a, b) ? -1 : 1));
  const out = new Uint32Array(hint.length);
  let n = 0;
  let at = 0;
  for (const v of fresh) {
    // the first previous value in [at, kept) not before v
    let lo = at;
    let hi = kept;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (before(hint[mid], v)) lo = mid + 1;
      else hi = mid;
    }
    if (distinct && lo < kept && texts[hint[lo]] === texts[v]) return null;
    out.set(hint.subarray(at, lo), n);
    n += lo - at;
    out[n++] = v;
    at = lo;
  }
  out.set(hint.subarray(at, kept), n);
  return out;
}

/** A previous order of value ids in their new numbers (the gone, and those `moved`, left out), then the new values' ids, then those moved. */
function renumbered(order: Uint32Array, next: Int32Array, oldCount: number, moved?: { marked: Uint8Array } | null): Uint32Array {
  const out = new Uint32Array(next.length);
  const marked = moved?.marked;
  let n = 0;
  for (let k = 0; k < order.length; k++) {
    const v = next[order[k]];
    if (v >= 0 && marked?.[v] !== 1) out[n++] = v;
  }
  for (let was = oldCount; was < next.length; was++) if (next[was] >= 0) out[n++] = next[was];
  if (marked) for (let was = 0; was < oldCount; was++) if (next[was] >= 0 && marked[next[was]] === 1) out[n++] = next[was];
  return out.subarray(0, n);
}

/**
 * A numeric column of the new order: the previous rows' values and sorted order (rows renumbered:
 * still sorted by (value, row)), merged with the new rows' values, sorted.
 */
export function splicedOrderedColumn(old: OrderedColumnData, fresh: ArrayLike<number>, order: Int32Array, now: Int32Array): OrderedColumnData {
  const rows = order.length;
  const freshValues = canonicalFloats(fresh);
  const values = new Float64Array(rows);
  const freshRows: number[] = [];
  for (let i = 0; i < rows; i++) {
    const from = order[i];
    if (from >= 0) values[i] = old.values[from];
    else {
      values[i] = freshValues[-from - 1];
      if (values[i] === values[i]) freshRows.push(i);
    }
  }
  const byValue = (a: number, b: number) => values[a] - values[b] || a - b;
  freshRows.sort(byValue);
  const sorted = new Uint32Array(old.order.length + freshRows.length);
  let n = 0;
  let f = 0;
  for (let k = 0; k < old.order.length; k++) {
    const r = now[old.order[k]];
    if (r < 0) continue;
    while (f < freshRows.length && byValue(freshRows[f], r) < 0) sorted[n++] = freshRows[f++];
    sorted[n++] = r;
  }
  while (f < freshRows.length) sorted[n++] = freshRows[f++];
  return orderedColumnOf(values, sorted.slice(0, n));
}

/** A boolean column's values in the new order. */
export function splicedFlags(old: BoolColumnData, fresh: ArrayLike<number>, order: Int32Array): Uint8Array {
  const out = new Uint8Array(order.length);
  for (let i = 0; i < order.length; i++) {
    const from = order[i];
    out[i] = from >= 0 ? old.values[from] : fresh[-from - 1] ? 1 : 0;
  }
  return out;
}

/**
 * A many-to-many column of the new order: each row's ids the previous row's or the new row's;
 * each id's rows its previous rows renumbered (still ascending) merged with the new rows that
 * list it, an id no row lists any more left out.
 */
export function splicedRelationColumn(old: RelationColumnData, fresh: readonly (readonly number[])[], order: Int32Array, now: Int32Array): RelationColumnData {
  const rows = order.length;
  const rowStart = new Uint32Array(rows + 1);
  for (let i = 0; i < rows; i++) {
    const from = order[i];
    rowStart[i + 1] = rowStart[i] + (from >= 0 ? old.rowStart[from + 1] - old.rowStart[from] : fresh[-from - 1].length);
  }
  const rowIds = new Float64Array(rowStart[rows]);
  // the new rows that list each id, ascending (an id listed twice on one row: the row once)
  const joins = new Map<number, number[]>();
  for (let i = 0; i < rows; i++) {
    const from = order[i];
    if (from >= 0) {
      // a run of previous rows in order: their ids end to end in one copy, not a view per row
      let last = i;
      while (last + 1 < rows && order[last + 1] === order[last] + 1) last++;
      rowIds.set(old.rowIds.subarray(old.rowStart[from], old.rowStart[order[last] + 1]), rowStart[i]);
      i = last;
      continue;
    }
    const list = fresh[-from - 1];
    rowIds.set(canonicalFloats(list), rowStart[i]);
    for (const id of list) {
      let at = joins.get(id);
      if (at === undefined) joins.set(id, (at = []));
      if (at[at.length - 1] !== i) at.push(i);
    }
  }
  const added = Float64Array.from([...joins.keys()].filter((id) => idIndex(old, id) < 0)).sort();
  const ids: number[] = [];
  const idRowStart: number[] = [0];
  const idRows = new Uint32Array(old.idRows.length + [...joins.values()].reduce((n, l) => n + l.length, 0));
  let n = 0;
  const put = (id: number, from: number, to: number) => {
    const extra = joins.get(id) ?? [];
    let e = 0;
    const start = n;
    for (let k = from; k < to; k++) {
      const r = now[old.idRows[k]];
      if (r < 0) continue;
      while (e < extra.length && extra[e] < r) idRows[n++] = extra[e++];
      idRows[n++] = r;
    }
    while (e < extra.length) idRows[n++] = extra[e++];
    if (n === start) return;
    ids.push(id);
    idRowStart.push(n);
  };
  let a = 0;
  for (let i = 0; i < old.ids.length; i++) {
    while (a < added.length && added[a] < old.ids[i]) put(added[a++], 0, 0);
    put(old.ids[i], old.idRowStart[i], old.idRowStart[i + 1]);
  }
  while (a < added.length) put(added[a++], 0, 0);
  return { rows, rowStart, rowIds, ids: Float64Array.from(ids), idRowStart: Uint32Array.from(idRowStart), idRows: idRows.slice(0, n), at: idsAtRow(rowStart, rowIds) };
}
