// Builds a string column's file (src/store/format/text-column-file.ts) from its values in row order.
import { fold } from '../format/fold.ts';
import { meta, packSections, type Section } from './sections.ts';
import { stringList } from '../format/string-table.ts';
import { stringAtRow, TEXT_COLUMN_FORMAT, TEXT_FLAGS, TEXT_SECTION, type TextColumnData } from '../format/text-column-file.ts';
import { TRIGRAM_SECTIONS, type TrigramData } from '../format/trigram-file.ts';
import { stringTableSections } from './string-table.ts';
import { buildTrigrams } from './trigram-builder.ts';
import { wordListSections } from './word-lists.ts';
import { fileSections, splicedStringTable, splicedWordLists, type Renumbering } from './text-splice.ts';
import { WORD_LISTS_FROM_UNITS, WORD_SECTIONS } from '../format/word-lists.ts';

export interface TextColumnOptions {
  /** whether the column has folded values (the case-insensitive lookups) */
  folded: boolean;
  /** the trigram index's byte budget for a column of `values` distinct values, or null for none (see column-files.ts) */
  trigramBudget: (values: number) => number | null;
  /**
   * a number per row whose order mostly agrees with the text's (a timestamp's instant for its
   * ISO text): the values are sorted from that order, which the sort then only has to mend
   */
  presort?: ArrayLike<number>;
  /**
   * the values of a previous column of the same field in their sorted order (byValue), mostly
   * this column's: the values are sorted from that order (new ones last), which the sort then
   * only has to mend. The order made is the same whatever the hint: the sort's is a total order.
   */
  sortedBefore?: () => Iterable<string>;
}

/** A column as built: its distinct values as plain strings, with everything its file holds. */
export interface BuiltTextColumn extends TextColumnData {
  readonly valueList: readonly string[];
  readonly foldedList: readonly string[] | null;
}

export function buildTextColumn(column: readonly (string | null)[], options: TextColumnOptions): BuiltTextColumn {
  const ids = new Map<string, number>();
  const values: string[] = [];
  const rowValue = new Int32Array(column.length);
  const counts: number[] = [];
  let nonNull = 0;
  for (let r = 0; r < column.length; r++) {
    const s = column[r];
    if (s === null || s === undefined) {
      rowValue[r] = -1;
      continue;
    }
    let id = ids.get(s);
    if (id === undefined) {
      id = values.length;
      ids.set(s, id);
      values.push(s);
      counts.push(0);
    }
    rowValue[r] = id;
    counts[id]++;
    nonNull++;
  }
  const { valueRowStart, valueRows } = valueRowsOf(rowValue, counts, nonNull);
  const foldedList = options.folded ? values.map(fold) : null;
  const budget = foldedList === null ? null : options.trigramBudget(values.length);
  const trigrams = budget === null ? null : buildTrigrams(foldedList!, budget);
  const start = options.sortedBefore ? hinted(options.sortedBefore(), ids, values.length) : options.presort ? presorted(options.presort, valueRowStart, valueRows) : undefined;
  const byValue = sortedOrder(values, start, true);
  // folding changes little of the order (mostly a capital letter that starts every value)
  const byFolded = foldedList === null ? null : sortedOrder(foldedList, byValue, false);
  return builtColumn({ rows: column.length, valueList: values, foldedList, rowValue, valueRowStart, valueRows, nonNullRows: nonNull, byValue, byFolded, trigrams });
}

/** Each value's rows, ascending, value by value (`counts`: each value's rows; `nonNull` their sum). */
export function valueRowsOf(rowValue: Int32Array, counts: readonly number[], nonNull: number): { valueRowStart: Uint32Array; valueRows: Uint32Array } {
  const valueRowStart = new Uint32Array(counts.length + 1);
  for (let v = 0; v < counts.length; v++) valueRowStart[v + 1] = valueRowStart[v] + counts[v];
  const cursor = valueRowStart.slice(0, counts.length);
  const valueRows = new Uint32Array(nonNull);
  for (let r = 0; r < rowValue.length; r++) {
    const v = rowValue[r];
    if (v >= 0) valueRows[cursor[v]++] = r;
  }
  return { valueRowStart, valueRows };
}

/** A built column of its parts: its values and folded values as string lists, and `at`. */
export function builtColumn(c: Omit<BuiltTextColumn, 'values' | 'folded' | 'at'>): BuiltTextColumn {
  const list = stringList(c.valueList);
  return { ...c, values: list, at: stringAtRow(list, c.rowValue), folded: c.foldedList === null ? null : stringList(c.foldedList) };
}

/**
 * The column's file; `wordsFromUnits`: folded values this long have word lists (word-lists.ts).
 * A spliced column (its `renumbering`) with the previous column's file (`previous`) takes its
 * string tables and word lists from that file's bytes where it can (text-splice.ts): the same bytes.
 */
export function textColumnFile(c: BuiltTextColumn & { renumbering?: Renumbering }, wordsFromUnits?: number, previous?: Uint8Array): Uint8Array {
  const r = c.renumbering;
  const old = r && previous ? fileSections(previous, TEXT_COLUMN_FORMAT) : null;
  const section = (first: number, count: number) => old!.slice(first, first + count);
  const table = (first: number, list: readonly string[]) => (old && r && splicedStringTable(section(first, 3), r.next, r.oldCount, list)) ?? stringTableSections(list);
  // (word lists for a column with trigrams whose folded text is long: word-lists.ts, its length the table's last UTF-16 start)
  const folded = c.foldedList;
  const foldedTable = folded !== null ? table(TEXT_SECTION.folded, folded) : null;
  const units = foldedTable === null ? 0 : (foldedTable[1] as Uint32Array)[folded!.length];
  const words = folded !== null && c.trigrams !== null && units >= (wordsFromUnits ?? WORD_LISTS_FROM_UNITS) ? ((old && r && splicedWordLists(section(TEXT_SECTION.words, WORD_SECTIONS), folded, r)) ?? wordListSections(folded, wordsFromUnits)) : null;
  const flags = (c.foldedList !== null ? TEXT_FLAGS.folded : 0) | (c.trigrams !== null ? TEXT_FLAGS.trigrams : 0) | (words !== null ? TEXT_FLAGS.words : 0);
  const none: Section[] = [new Uint8Array(0), new Uint8Array(0), new Uint8Array(0)];
  return packSections(TEXT_COLUMN_FORMAT, [
    meta(c.rows, c.valueList.length, c.nonNullRows, flags, c.trigrams?.coverage ?? 1),
    c.rowValue,
    c.valueRowStart,
    c.valueRows,
    c.byValue,
    ...table(TEXT_SECTION.values, c.valueList),
    c.byFolded ?? new Uint32Array(0),
    ...(foldedTable ?? none),
    ...trigramSections(c.trigrams),
    ...(words ?? Array.from({ length: WORD_SECTIONS }, () => new Uint8Array(0))),
  ]);
}

function trigramSections(t: TrigramData | null): Section[] {
  if (t === null) return Array.from({ length: TRIGRAM_SECTIONS }, () => new Uint8Array(0));
  return [t.codeOf, t.keys, t.counts, t.kinds, t.starts, t.varints, t.bitmaps];
}

/**
 * Value ids in code-unit order of their text (ties by id): the order in which a prefix's strings
 * are contiguous. `from`: an order to start from, which the sort (a merge sort that takes runs as
 * they come) mends in about one comparison per value where it is mostly right already; `distinct`:
 * the texts are all different, so one comparison decides.
 */
export function sortedOrder(texts: readonly string[], from?: ArrayLike<number>, distinct = false): Uint32Array {
  const order = from ? Array.from(from) : Array.from(texts.keys());
  if (distinct) order.sort((a, b) => (texts[a] < texts[b] ? -1 : 1));
  else {
    order.sort((a, b) => {
      const s = texts[a];
      const t = texts[b];
      return s < t ? -1 : s === t ? a - b : 1;
    });
  }
  return Uint32Array.from(order);
}

/** The value ids of `ids` in the order their texts come in `sorted`, then those not there (in id order). */
function hinted(sorted: Iterable<string>, ids: ReadonlyMap<string, number>, count: number): number[] {
  const placed = new Uint8Array(count);
  const order: number[] = [];
  for (const text of sorted) {
    const id = ids.get(text);
    if (id === undefined || placed[id] === 1) continue;
    placed[id] = 1;
    order.push(id);
  }
  for (let v = 0; v < count; v++) if (placed[v] === 0) order.push(v);
  return order;
}

/** Value ids in the order of their first row's key (ties by id). */
function presorted(key: ArrayLike<number>, valueRowStart: Uint32Array, valueRows: Uint32Array): number[] {
  const n = valueRowStart.length - 1;
  const first = new Float64Array(n);
  for (let v = 0; v < n; v++) first[v] = key[valueRows[valueRowStart[v]]];
  return Array.from(first.keys()).sort((a, b) => first[a] - first[b] || a - b);
}
