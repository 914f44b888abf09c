// drf-flex-fields' sparse fields and expansion: `fields`, `omit` and `expand`, applied by splicing
// the pre-serialized segments of an event rather than re-serializing it.
import { EVENT_FIELDS } from '../../model/event-fields.ts';
import { fieldIndex, type EventRows } from '../../store/format/event-rows.ts';
import type { QueryParams } from '../../query/query-dict.ts';

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
 * found by row without decoding the stored value again.
 */
interface Expansions {
  categoryJson: ReadonlyMap<number, string>;
  /** stored value text → expanded JSON bytes */
  byValue: Map<string, Buffer>;
  /** row → its expanded value (filled as rows are asked for) */
  byRow: (Buffer | undefined)[];
}

const expansionsOf = new WeakMap<EventRows, Expansions>();

function expansions(rows: EventRows, categoryJson: ReadonlyMap<number, string>): Expansions {
  let e = expansionsOf.get(rows);
  if (!e || e.categoryJson !== categoryJson) {
    e = { categoryJson, byValue: new Map(), byRow: new Array<Buffer | undefined>(rows.length) };
    expansionsOf.set(rows, e);
  }
  return e;
}

function expandedValue(e: Expansions, value: string): Buffer {
  let json = e.byValue.get(value);
  if (json === undefined) {
    json = Buffer.from(`[${(JSON.parse(value) as number[]).map((id) => e.categoryJson.get(id)).join(',')}]`);
    e.byValue.set(value, json);
  }
  return json;
}

export function shapeRenderer(shape: Shape, rows: EventRows, categoryJson: ReadonlyMap<number, string>): RowRenderer {
  if (isPlain(shape)) return (_row, whole, out) => void out.push(whole);
  const e = expansions(rows, categoryJson);
  const expandCategories = (value: string) => expandedValue(e, value).toString();
  if (shape.fields === null) {
    // every field kept: splice the row's expanded value, serialized once, between the stored bytes
    return (row, whole, out) => {
      const [from, to] = rows.valueSpan(row, CATEGORIES);
      let json = e.byRow[row];
      if (json === undefined) json = e.byRow[row] = expandedValue(e, whole.toString('utf8', from, to));
      out.push(whole.subarray(0, from), json, whole.subarray(to));
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
   * moveWithin could not move it forward). -1 otherwise.
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
  const expanded = (row: number, whole: Buffer, from: number, to: number) => {
    let json = e.byRow[row];
    if (json === undefined) json = e.byRow[row] = expandedValue(e, whole.toString('utf8', from, to));
    return json;
  };
  const span = (row: number) => rows.valueSpan(row, CATEGORIES);
  return {
    size(row, whole) {
      const [from, to] = span(row);
      return whole.length - (to - from) + expanded(row, whole, from, to).length;
    },
    write(row, whole, out, at) {
      const [from, to] = span(row);
      at += whole.copy(out, at, 0, from);
      at += expanded(row, whole, from, to).copy(out, at);
      return at + whole.copy(out, at, to);
    },
    span,
    knownSize(row, [from, to]) {
      const json = e.byRow[row];
      if (json === undefined) return -1;
      return json.length < to - from ? -1 : rows.byteLength(row) - (to - from) + json.length;
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
