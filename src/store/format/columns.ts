// The filterable columns of the event list, as written to dist/ (plain JSON) and as loaded
// (typed arrays). Rows are in list order.
import type { Event } from '../../model/types.ts';
import { EVENT_FIELDS, type EventField } from '../../model/event-fields.ts';
import { formatInstant } from '../../time/zone.ts';
import { FIELD_COUNT, valueSpanIn, type EventRows } from './event-rows.ts';
import {
  BOOL_FIELDS, TEXT_FIELDS, TIME_FIELDS,
  type BoolField, type EventColumns, type EventTable, type TextField, type TimeField,
} from './event-table.ts';

/** data/events.columns.json: what most filters and every start-up need. */
export interface ColumnsFile {
  id: number[];
  time: Record<TimeField, (number | null)[]>;
  dfp_points: (number | null)[];
  bool: Record<BoolField, (0 | 1)[]>;
  categories: number[][];
  groups: number[][];
}

/**
 * data/events.text.json: the text and ISO-string columns, read only when a text or timestamp
 * string lookup first needs them. At 100k events they are ~50 MB of JSON, and parsing them
 * was half of the server's cold start.
 */
export interface TextColumnsFile {
  iso: Record<TimeField, (string | null)[]>;
  text: Record<TextField, (string | null)[]>;
}

/** Group references may be bare ids or objects carrying one; anything else has no id to filter on. */
export function groupIds(groups: readonly unknown[]): number[] {
  const ids: number[] = [];
  for (const g of groups) {
    const id = typeof g === 'object' && g !== null ? (g as { id?: unknown }).id : g;
    if (typeof id === 'number' && Number.isInteger(id)) ids.push(id);
  }
  return ids;
}

const byField = <F extends string, V>(fields: readonly F[], value: (f: F) => V) =>
  Object.fromEntries(fields.map((f) => [f, value(f)])) as Record<F, V>;

export function columnsOf(events: readonly Event[]): ColumnsFile {
  return {
    id: events.map((e) => e.id),
    time: byField(TIME_FIELDS, (f) => events.map((e) => e[f])),
    dfp_points: events.map((e) => e.dfp_points),
    bool: byField(BOOL_FIELDS, (f) => events.map((e) => (e[f] ? 1 : 0))),
    categories: events.map((e) => e.categories),
    groups: events.map((e) => groupIds(e.groups)),
  };
}

/** A time value as an ISO string in the site's zone (events.text.json's `iso`). */
const isoValue = (e: Event, f: TimeField, zone: string) => (e[f] === null ? null : formatInstant(e[f], zone));

export function textColumnsOf(events: readonly Event[], zone: string): TextColumnsFile {
  return {
    iso: byField(TIME_FIELDS, (f) => events.map((e) => isoValue(e, f, zone))),
    // (a text column is its values as they are)
    text: byField(TEXT_FIELDS, (f) => events.map((e) => e[f])),
  };
}

/**
 * JSON.stringify(textColumnsOf(events, zone)) as UTF-8, byte for byte, made a column at a time:
 * at 100k events the whole as one string was ~90 MB of heap (the text is two-byte), then copied
 * to UTF-8 to be hashed and written, at the build's peak; a column is a few MB.
 *
 * `rows`: the events' rows (list order, as `events`), whose fields hold these very values as
 * JSON: each value is then copied from its row, not formatted and stringified again (~0.8 s of
 * the build's main thread at 100k events, with the other core idle), and the events' own text
 * fields are not read (the build has let go of them: parse-pool.ts). A row holds the bytes of
 * JSON.stringify(value) unless serializeEvent escaped a line or paragraph separator in it
 * (toJson): a value holding the text `\u202` is parsed from the row and stringified again, which
 * undoes those escapes (and, harmlessly, takes a value that holds that text itself the long way).
 */
export function textColumnsJson(events: readonly Event[], zone: string, rows?: EventRows): Buffer {
  if (rows !== undefined && rows.length !== events.length) throw new Error(`${rows.length} rows for ${events.length} events`);
  const view = rows === undefined ? null : rowView(rows);
  const parts: Buffer[] = [];
  const group = <F extends EventField>(name: string, fields: readonly F[], value: (e: Event, f: F) => unknown) => {
    fields.forEach((f, i) => {
      const head = Buffer.from(`${i === 0 ? `"${name}":{` : ','}${JSON.stringify(f)}:`);
      parts.push(head, view === null ? Buffer.from(JSON.stringify(events.map((e) => value(e, f)))) : columnFromRows(view, EVENT_FIELDS.indexOf(f)));
    });
    if (fields.length === 0) parts.push(Buffer.from(`"${name}":{`));
    parts.push(Buffer.from('}'));
  };
  parts.push(Buffer.from('{'));
  group('iso', TIME_FIELDS, (e, f) => isoValue(e, f, zone));
  parts.push(Buffer.from(','));
  group('text', TEXT_FIELDS, (e, f) => e[f]);
  parts.push(Buffer.from('}'));
  return Buffer.concat(parts);
}

/** The rows, their bytes, and where a separator escape (`\u202`) may be in those. */
interface RowView {
  rows: EventRows;
  bytes: Buffer;
  /** offsets of `\u202` in `bytes`, ascending (usually none) */
  escapes: number[];
}

const STRIDE = FIELD_COUNT + 1;
const ESCAPE = Buffer.from('\\u202');

function rowView(rows: EventRows): RowView {
  const bytes = rows.lineBytes;
  const escapes: number[] = [];
  for (let at = bytes.indexOf(ESCAPE); at >= 0; at = bytes.indexOf(ESCAPE, at + 1)) escapes.push(at);
  return { rows, bytes, escapes };
}

/** One column as JSON (`[v,v,…]`), each value copied from its row (stringified anew where the row may hold it escaped). */
function columnFromRows(view: RowView, field: number): Buffer {
  const { rows, bytes, escapes } = view;
  const count = rows.length;
  const from = new Float64Array(count);
  const to = new Float64Array(count);
  const made = new Map<number, Buffer>();
  let length = 2 + Math.max(count - 1, 0);
  let next = 0;
  for (let row = 0; row < count; row++) {
    const [a, b] = valueSpanIn(rows.starts, row * STRIDE, field);
    from[row] = rows.lineStart(row) + a;
    to[row] = rows.lineStart(row) + b;
    while (next < escapes.length && escapes[next] < from[row]) next++;
    if (next < escapes.length && escapes[next] < to[row]) {
      const value = Buffer.from(JSON.stringify(JSON.parse(bytes.toString('utf8', from[row], to[row]))));
      made.set(row, value);
      length += value.length;
    } else length += to[row] - from[row];
  }
  const out = Buffer.allocUnsafe(length);
  let at = 0;
  out[at++] = 0x5b; // [
  for (let row = 0; row < count; row++) {
    if (row > 0) out[at++] = 0x2c; // ,
    const value = made.get(row);
    at += value ? value.copy(out, at) : bytes.copy(out, at, from[row], to[row]);
  }
  out[at++] = 0x5d; // ]
  return out;
}

const isList = (value: unknown, length: number) => Array.isArray(value) && value.length === length;
const allLists = (group: unknown, fields: readonly string[], length: number) =>
  typeof group === 'object' && group !== null && fields.every((f) => isList((group as Record<string, unknown>)[f], length));

/** What is wrong with a columns file's shape for `length` rows, or null. */
export function columnsShapeProblem(file: ColumnsFile | null, length: number): string | null {
  if (typeof file !== 'object' || file === null) return 'expected an object of columns';
  const ok =
    isList(file.id, length) && isList(file.dfp_points, length) && isList(file.categories, length) && isList(file.groups, length) &&
    allLists(file.time, TIME_FIELDS, length) && allLists(file.bool, BOOL_FIELDS, length);
  return ok ? null : `expected every column to hold ${length} rows`;
}

export function textColumnsShapeProblem(file: TextColumnsFile | null, length: number): string | null {
  if (typeof file !== 'object' || file === null) return 'expected an object of columns';
  return allLists(file.iso, TIME_FIELDS, length) && allLists(file.text, TEXT_FIELDS, length) ? null : `expected every column to hold ${length} rows`;
}

// Plain loops: TypedArray.from goes through the iterator protocol (and the map callback) per
// value, ~60 ms of the server's cold start for the 600k values at 100k events; these take ~3.
function floats(values: readonly (number | null)[]): Float64Array {
  const out = new Float64Array(values.length);
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    out[i] = v === null ? NaN : v;
  }
  return out;
}

function bytes(values: readonly (0 | 1)[]): Uint8Array {
  const out = new Uint8Array(values.length);
  for (let i = 0; i < values.length; i++) out[i] = values[i];
  return out;
}

export function tableFromColumns(file: ColumnsFile, readText: () => TextColumnsFile): EventTable {
  let text: TextColumnsFile | undefined;
  const lazyText = () => (text ??= readText());
  const columns: EventColumns = {
    id: floats(file.id),
    time: byField(TIME_FIELDS, (f) => floats(file.time[f])),
    get iso() {
      return lazyText().iso;
    },
    dfp_points: floats(file.dfp_points),
    bool: byField(BOOL_FIELDS, (f) => bytes(file.bool[f])),
    get text() {
      return lazyText().text;
    },
    categories: file.categories,
    groups: file.groups,
  };
  const rowById = new Map<number, number>();
  for (let row = 0; row < file.id.length; row++) rowById.set(file.id[row], row);
  return { length: file.id.length, columns, rowById };
}
