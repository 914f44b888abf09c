// The column files of the event list (src/store/format/column-files.ts), written from the columns'
// values: a pure function of the values and the options, so a build over the previous one that
// makes them from the same values writes the same bytes as a clean build.
import { columnFile } from '../format/column-files.ts';
import { BOOL_FIELDS, ORDERED_FIELDS, RELATION_FIELDS, TEXT_FIELDS, TIME_FIELDS, type ColumnValues, type EventTable } from '../format/event-table.ts';
import type { TextColumnData } from '../format/text-column-file.ts';
import { WORD_LISTS_FROM_UNITS } from '../format/word-lists.ts';
import { boolColumnFile, buildBoolColumn } from './bool-column.ts';
import { buildOrderedColumn, orderedColumnFile } from './ordered-column.ts';
import { buildRelationColumn, relationColumnFile } from './relation-column.ts';
import { buildTextColumn, textColumnFile } from './text-column.ts';
import { splicedFlags, splicedOrderedColumn, splicedRelationColumn, splicedTextColumn } from './column-splice.ts';

export interface ColumnFileOptions {
  /**
   * Byte budget of one text column's trigram postings, per distinct value: 160 B/value is 40
   * postings per value, ≤ 16 MB per column at 100k values. See trigram-builder.ts for what it trades.
   */
  trigramBytesPerValue: number;
  /** lower bound of that budget, so that small tables always get a complete index */
  trigramMinBytes: number;
  /** text columns with at most this many distinct values get no trigram index: a scan of them is as quick */
  scanBelowValues: number;
  /** text columns whose folded values hold this many code units have word lists (word-lists.ts) */
  wordListsFromUnits: number;
}

export const DEFAULT_COLUMN_FILE_OPTIONS: ColumnFileOptions = { trigramBytesPerValue: 160, trigramMinBytes: 1 << 20, scanBelowValues: 256, wordListsFromUnits: WORD_LISTS_FROM_UNITS };

/**
 * A previous build's list, read at single rows: its columns as loaded from their files, and the
 * string fields as its rows hold them (a text column's file decodes all its text to give one
 * string; a row's field is a few bytes).
 */
export interface PreviousColumns {
  table(): EventTable;
  string(field: string, row: number): string | null;
}

/** One column file: where it goes, and how it is made from the values (reading only `input` of them). */
export interface ColumnFileMaker {
  rel: string;
  /** the column it is made of (a build over the previous one compares it with the previous build's) */
  input(values: ColumnValues): ArrayLike<unknown>;
  /** the value at `row` of this column in the previous build (as `input` gives it) */
  at(previous: PreviousColumns, row: number): unknown;
  /** `before`: a previous build's columns, where the caller has them (its sorted values speed up the sorts; the file is the same) */
  make(values: ColumnValues, before?: () => EventTable): Uint8Array;
  /**
   * the file of a new row order (column-splice.ts: `order`, and `now`, newPlaces's), made from the
   * previous build's column and the new rows' values; `previous`: the previous build's file, where
   * the caller has it (a text column's string tables and word lists are spliced from its bytes)
   */
  splice(before: EventTable, fresh: ColumnValues, order: Int32Array, now: Int32Array, previous?: () => Uint8Array): Uint8Array;
}

export function columnFileMakers(options: ColumnFileOptions = DEFAULT_COLUMN_FILE_OPTIONS): ColumnFileMaker[] {
  const budget = (n: number) => (n > options.scanBelowValues ? Math.max(options.trigramMinBytes, n * options.trigramBytesPerValue) : null);
  return [
    ...TEXT_FIELDS.map((f) => ({
      rel: columnFile.text(f),
      input: (v: ColumnValues) => v.text[f],
      at: (p: PreviousColumns, row: number) => p.string(f, row),
      make: (v: ColumnValues, before?: () => EventTable) => textColumnFile(buildTextColumn(v.text[f], { folded: true, trigramBudget: budget, sortedBefore: before && (() => sortedValues(before().stored.text[f])) }), options.wordListsFromUnits),
      splice: (before: EventTable, fresh: ColumnValues, order: Int32Array, _now: Int32Array, previous?: () => Uint8Array) => {
        const bytes = previous?.();
        return textColumnFile(splicedTextColumn(before.stored.text[f], fresh.text[f], order, { folded: true, trigramBudget: budget }, bytes), options.wordListsFromUnits, bytes);
      },
    })),
    ...TIME_FIELDS.map((f) => ({
      rel: columnFile.iso(f),
      input: (v: ColumnValues) => v.iso[f],
      at: (p: PreviousColumns, row: number) => p.string(f, row),
      // the ISO text is matched as it is (`contains`, `startswith`), and has a dozen distinct
      // characters: neither folded values nor trigrams would narrow anything down
      make: (v: ColumnValues, before?: () => EventTable) => textColumnFile(buildTextColumn(v.iso[f], { folded: false, trigramBudget: () => null, presort: v.time[f], sortedBefore: before && (() => sortedValues(before().stored.iso[f])) })),
      splice: (before: EventTable, fresh: ColumnValues, order: Int32Array, _now: Int32Array, previous?: () => Uint8Array) => textColumnFile(splicedTextColumn(before.stored.iso[f], fresh.iso[f], order, { folded: false, trigramBudget: () => null }), undefined, previous?.()),
    })),
    ...ORDERED_FIELDS.map((f) => {
      const of = (v: ColumnValues) => (f === 'id' ? v.id : f === 'dfp_points' ? v.dfp_points : v.time[f]);
      const at = (p: PreviousColumns, row: number) => p.table().stored.ordered[f].values[row];
      const splice = (before: EventTable, fresh: ColumnValues, order: Int32Array, now: Int32Array) => orderedColumnFile(splicedOrderedColumn(before.stored.ordered[f], of(fresh), order, now));
      return { rel: columnFile.ordered(f), input: of, at, make: (v: ColumnValues) => orderedColumnFile(buildOrderedColumn(of(v))), splice };
    }),
    ...BOOL_FIELDS.map((f) => ({
      rel: columnFile.bool(f),
      input: (v: ColumnValues) => v.bool[f],
      at: (p: PreviousColumns, row: number) => p.table().stored.bool[f].values[row],
      make: (v: ColumnValues) => boolColumnFile(buildBoolColumn(v.bool[f])),
      splice: (before: EventTable, fresh: ColumnValues, order: Int32Array) => boolColumnFile(buildBoolColumn(splicedFlags(before.stored.bool[f], fresh.bool[f], order))),
    })),
    ...RELATION_FIELDS.map((f) => ({
      rel: columnFile.relation(f),
      input: (v: ColumnValues) => v[f],
      at: (p: PreviousColumns, row: number) => p.table().stored.relation[f].at(row),
      make: (v: ColumnValues) => relationColumnFile(buildRelationColumn(v[f])),
      splice: (before: EventTable, fresh: ColumnValues, order: Int32Array, now: Int32Array) => relationColumnFile(splicedRelationColumn(before.stored.relation[f], fresh[f], order, now)),
    })),
  ];
}

/** A column's values in its sorted order (byValue), each decoded as it is reached. */
function* sortedValues(c: TextColumnData): Iterable<string> {
  for (let k = 0; k < c.byValue.length; k++) yield c.values.at(c.byValue[k]);
}

/** Every column file of these values, by path under dist/. */
export function columnFiles(values: ColumnValues, options?: ColumnFileOptions): Map<string, Uint8Array> {
  return new Map(columnFileMakers(options).map((m) => [m.rel, m.make(values)]));
}

/**
 * The columns of a table as loaded, as plain values (the strings made from its string tables),
 * each column made when first read: a build over the previous one reads only the columns that
 * changed.
 */
export function columnValuesOfTable(table: EventTable): ColumnValues {
  const { stored } = table;
  const strings = (c: TextColumnData) => Array.from({ length: table.length }, (_, row) => c.at(row));
  return lazyFields({
    id: () => stored.ordered.id.values,
    time: () => lazyFields(byField(TIME_FIELDS, (f) => () => stored.ordered[f].values)),
    iso: () => lazyFields(byField(TIME_FIELDS, (f) => () => strings(stored.iso[f]))),
    dfp_points: () => stored.ordered.dfp_points.values,
    bool: () => lazyFields(byField(BOOL_FIELDS, (f) => () => stored.bool[f].values)),
    text: () => lazyFields(byField(TEXT_FIELDS, (f) => () => strings(stored.text[f]))),
    categories: () => Array.from({ length: table.length }, (_, row) => stored.relation.categories.at(row)),
    groups: () => Array.from({ length: table.length }, (_, row) => stored.relation.groups.at(row)),
  });
}

/**
 * The columns of a new row order: row i is `old`'s row `order[i]`, or, where that is negative,
 * `fresh`'s row -order[i] - 1 (the rows of a build over the previous one that stay, and its new
 * events); each column made when first read.
 */
export function splicedColumnValues(old: ColumnValues, fresh: ColumnValues, order: Int32Array): ColumnValues {
  const pick = <T>(a: ArrayLike<T>, b: ArrayLike<T>): T[] => Array.from(order, (from) => (from >= 0 ? a[from] : b[-from - 1]));
  const floats = (a: ArrayLike<number>, b: ArrayLike<number>) => Float64Array.from(pick(a, b));
  return lazyFields({
    id: () => floats(old.id, fresh.id),
    time: () => lazyFields(byField(TIME_FIELDS, (f) => () => floats(old.time[f], fresh.time[f]))),
    iso: () => lazyFields(byField(TIME_FIELDS, (f) => () => pick(old.iso[f], fresh.iso[f]))),
    dfp_points: () => floats(old.dfp_points, fresh.dfp_points),
    bool: () => lazyFields(byField(BOOL_FIELDS, (f) => () => Uint8Array.from(pick(old.bool[f], fresh.bool[f])))),
    text: () => lazyFields(byField(TEXT_FIELDS, (f) => () => pick(old.text[f], fresh.text[f]))),
    categories: () => pick(old.categories, fresh.categories),
    groups: () => pick(old.groups, fresh.groups),
  });
}

/**
 * An object whose every field is made by its function when first read, then kept. A function is
 * let go once it has made its field: what it reads (a previous build's values, which `aula dev`
 * splices build after build) is not held by the values made from it.
 */
function lazyFields<T extends object>(makers: { [K in keyof T]: () => T[K] }): T {
  const record = {} as T;
  for (const name of Object.keys(makers) as (keyof T)[]) {
    let make: (() => T[keyof T]) | null = makers[name];
    let value: T[keyof T];
    Object.defineProperty(record, name, {
      enumerable: true,
      get: () => {
        if (make !== null) {
          value = make();
          make = null;
        }
        return value;
      },
    });
  }
  return record;
}

/** Two values of a column as written: numbers bit for bit (NaN is NaN, -0 is not 0), lists element by element. */
export function sameValue(a: unknown, b: unknown): boolean {
  if (Object.is(a, b)) return true;
  return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((v, k) => Object.is(v, b[k]));
}

/**
 * The column files of `values`, made, but where the column holds the same values in `previous`:
 * a file is a pure function of its column, so it would come out the previous file's bytes.
 * `reused` names those (the caller takes them from the previous build). `put`: given each file as
 * it is made, instead of `files`.
 */
export function columnFilesReusing(values: ColumnValues, previous: ColumnValues | null, options?: ColumnFileOptions, before?: () => EventTable, put?: (rel: string, bytes: Uint8Array) => void): { files: Map<string, Uint8Array>; reused: Set<string> } {
  const files = new Map<string, Uint8Array>();
  const reused = new Set<string>();
  for (const m of columnFileMakers(options)) {
    if (previous && sameColumn(m.input(values), m.input(previous))) reused.add(m.rel);
    else (put ?? files.set.bind(files))(m.rel, m.make(values, before));
  }
  return { files, reused };
}

/** Whether two columns hold the same values (sameValue, row by row). */
function sameColumn(a: ArrayLike<unknown>, b: ArrayLike<unknown>): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (!sameValue(a[i], b[i])) return false;
  return true;
}

const byField = <F extends string, V>(fields: readonly F[], value: (f: F) => V) => Object.fromEntries(fields.map((f) => [f, value(f)])) as Record<F, V>;
