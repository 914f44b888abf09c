// drf-flex-fields' sparse fields and expansion: `fields`, `omit` and `expand`, applied by splicing
// the pre-serialized segments of an event rather than re-serializing it.
import { EVENT_FIELDS } from '../../model/event-fields.ts';
import { fieldIndex, type EventRows } from '../../store/format/event-rows.ts';
import type { QueryParams } from '../../query/query-dict.ts';
import { charge } from '../../query/work-budget.ts';

export const SHAPE_PARAMS = ['fields', 'omit', 'expand'] as const;
export const EXPANDABLE = ['categories'] as const;
type Expandable = (typeof EXPANDABLE)[number];

const CATEGORIES = fieldIndex('categories')!;
const ALL_FIELDS = EVENT_FIELDS.map((_, i) => i);

export interface Shape {
  /** null: the whole event as serialized */
  fields: readonly number[] | null;
  expand: ReadonlySet<Expandable>;
  /** `param=name` for each name that was not understood */
  ignored: string[];
}

function names(params: QueryParams, key: string): string[] {
  return params.getAll(key).flatMap((v) => v.split(',')).map((s) => s.trim()).filter((s) => s !== '');
}

/** The shape of a request without shaping parameters (most): shared, so never mutated. */
const PLAIN: Shape = Object.freeze({ fields: null, expand: new Set<Expandable>(), ignored: Object.freeze([]) as unknown as string[] });

export function parseShape(params: QueryParams): Shape {
  if (!params.has('fields') && !params.has('omit') && !params.has('expand')) return PLAIN;
  const ignored: string[] = [];
  const pick = (key: string) => {
    const found = new Set<number>();
    for (const name of names(params, key)) {
      const i = fieldIndex(name);
      if (i === undefined) ignored.push(`${key}=${name}`);
      else found.add(i);
    }
    return found;
  };
  const only = pick('fields');
  const omit = pick('omit');
  const expand = new Set<Expandable>();
  for (const name of names(params, 'expand')) {
    if (name === '*') EXPANDABLE.forEach((e) => expand.add(e));
    else if ((EXPANDABLE as readonly string[]).includes(name)) expand.add(name as Expandable);
    else ignored.push(`expand=${name}`);
  }
  const restricted = only.size > 0 || omit.size > 0;
  const fields = restricted ? ALL_FIELDS.filter((i) => (only.size === 0 || only.has(i)) && !omit.has(i)) : null;
  return { fields, expand, ignored };
}

/** Whether the shape keeps events exactly as stored (so their bytes can be sent as they are). */
export function isPlain(shape: Shape): boolean {
  return shape.fields === null && shape.expand.size === 0;
}

/**
 * A renderer of one row under the shape: appends the row's JSON to `out` as byte chunks, given
 * the row's stored bytes (`whole`); the plain case appends the stored bytes untouched.
 */
export type RowRenderer = (row: number, whole: Buffer, out: Uint8Array[]) => void;

/**
 * The expanded `categories` of each row, serialized once per dataset rather than per request:
 * events share few distinct category lists, so a row's expansion is one of a few shared buffers,
 * found by row without decoding the stored value again. What is kept is bounded in bytes
 * (KEPT_EXPANSION_BYTES): past it, a list's expansion is made for the answer and let go with it,
 * so large category objects cannot make the dataset grow with every distinct list asked for.
 */
interface Expansions {
  categoryJson: ReadonlyMap<number, string>;
  /** stored value text → expanded JSON bytes */
  byValue: Map<string, Buffer>;
  /** the bytes byValue holds */
  kept: number;
  /** row → its expanded value (filled as rows are asked for, where kept) */
  byRow: (Buffer | undefined)[];
}

/** The most bytes of expansions a dataset keeps. */
const KEPT_EXPANSION_BYTES = 16 * 1024 * 1024;

/**
 * The expansion's bytes are the answer's, beyond the stored row's the page was charged for: a
 * unit per byte copied into the answer, charged before the answer's buffer is made, so a page of
 * short rows over large category objects is refused as too expensive rather than made.
 */
const charged = (json: Buffer): Buffer => {
  charge(json.length, 'the expanded categories');
  return json;
};

const expansionsOf = new WeakMap<EventRows, Expansions>();

function expansions(rows: EventRows, categoryJson: ReadonlyMap<number, string>): Expansions {
  let e = expansionsOf.get(rows);
  if (!e || e.categoryJson !== categoryJson) {
    e = { categoryJson, byValue: new Map(), kept: 0, byRow: new Array<Buffer | undefined>(rows.length) };
    expansionsOf.set(rows, e);
  }
  return e;
}

function expandedValue(e: Expansions, value: string): Buffer {
  let json = e.byValue.get(value);
  if (json === undefined) {
    json = Buffer.from(`[${(JSON.parse(value) as number[]).map((id) => e.categoryJson.get(id)).join(',')}]`);
    if (e.kept + json.length <= KEPT_EXPANSION_BYTES) {
      e.byValue.set(value, json);
      e.kept += json.length;
    }
  }
  return json;
}

/** The row's expansion: the one kept for it, else made (and kept for the row where its list's is). */
function rowExpansion(e: Expansions, row: number, whole: Buffer, from: number, to: number): Buffer {
  let json = e.byRow[row];
  if (json === undefined) {
    const value = whole.toString('utf8', from, to);
    json = expandedValue(e, value);
    if (e.byValue.get(value) === json) e.byRow[row] = json;
  }
  return json;
}

export function shapeRenderer(shape: Shape, rows: EventRows, categoryJson: ReadonlyMap<number, string>): RowRenderer {
  if (isPlain(shape)) return (_row, whole, out) => void out.push(whole);
  const e = expansions(rows, categoryJson);
  const expandCategories = (value: string) => charged(expandedValue(e, value)).toString();
  if (shape.fields === null) {
    // every field kept: splice the row's expanded value, serialized once, between the stored bytes
    return (row, whole, out) => {
      const [from, to] = rows.valueSpan(row, CATEGORIES);
      out.push(whole.subarray(0, from), charged(rowExpansion(e, row, whole, from, to)), whole.subarray(to));
    };
  }
  const replace = new Map<number, (value: string) => string>();
  if (shape.expand.has('categories')) replace.set(CATEGORIES, expandCategories);
  return (row, whole, out) => rows.projectInto(row, whole, shape.fields!, replace, out);
}

/**
 * A row under a shape that keeps every field and expands `categories` (the common `expand`), as
 * its size and a copy into place: the stored bytes around the value and the value's expansion,
 * copied straight into the answer, where chunks would be two slices per row and a join. Null for
 * any other shape.
 */
export interface RowSplicer {
  /** the row's size in the answer; call before `write`, for every row, in order */
  size(row: number, whole: Buffer): number;
  /** copies the row into `out` at `at`; returns where it ends */
  write(row: number, whole: Buffer, out: Buffer, at: number): number;
  /** Where the expanded value lies in the row's stored bytes, [from, to): what knownSize and moveWithin take. */
  span(row: number): [number, number];
  /**
   * The row's size in the answer without its bytes: known once its expansion is made (an earlier
   * answer listed it), and only where the expansion is no shorter than the stored value (else
   * moveWithin could not move it forward). -1 otherwise. Charges nothing (size does).
   */
  knownSize(row: number, span: [number, number]): number;
  /**
   * Moves the row, its stored bytes at `from` within `out`, to `at` with its value expanded
   * (knownSize's), and returns where it ends. The caller keeps `from - at` at least the row's
   * growth, so the expansion never reaches the bytes after the value before they are moved.
   */
  moveWithin(row: number, span: [number, number], out: Buffer, from: number, at: number): number;
}

/** Whether the shape keeps every field and expands `categories`: what rowSplicer splices. */
export function isSpliced(shape: Shape): boolean {
  return shape.fields === null && shape.expand.has('categories');
}

export function rowSplicer(shape: Shape, rows: EventRows, categoryJson: ReadonlyMap<number, string>): RowSplicer | null {
  if (!isSpliced(shape)) return null;
  const e = expansions(rows, categoryJson);
  // (size charges the expansion: the caller asks it for each row before it makes the answer's
  // buffer, and writes only after; a caller of knownSize charges the growth it sums)
  const span = (row: number) => rows.valueSpan(row, CATEGORIES);
  return {
    size(row, whole) {
      const [from, to] = span(row);
      return whole.length - (to - from) + charged(rowExpansion(e, row, whole, from, to)).length;
    },
    write(row, whole, out, at) {
      const [from, to] = span(row);
      at += whole.copy(out, at, 0, from);
      at += rowExpansion(e, row, whole, from, to).copy(out, at);
      return at + whole.copy(out, at, to);
    },
    span,
    knownSize(row, [from, to]) {
      const json = e.byRow[row];
      if (json === undefined || json.length < to - from) return -1;
      return rows.byteLength(row) - (to - from) + json.length;
    },
    moveWithin(row, [from, to], out, source, at) {
      const json = e.byRow[row]!;
      out.copyWithin(at, source, source + from);
      out.set(json, at + from);
      const end = at + from + json.length;
      out.copyWithin(end, source + to, source + rows.byteLength(row));
      return end + rows.byteLength(row) - to;
    },
  };
}
