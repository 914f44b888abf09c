// The filterable columns of the event list, as written to dist/ (plain JSON) and as loaded
// (typed arrays). Rows are in list order.
import type { Event } from '../../model/types.ts';
import { formatInstant } from '../../time/zone.ts';
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

/** A time column as ISO strings in the site's zone (events.text.json's `iso`). */
const isoColumn = (events: readonly Event[], f: TimeField, zone: string) => events.map((e) => (e[f] === null ? null : formatInstant(e[f], zone)));
/** A text column as it is (events.text.json's `text`). */
const textColumn = (events: readonly Event[], f: TextField) => events.map((e) => e[f]);

export function textColumnsOf(events: readonly Event[], zone: string): TextColumnsFile {
  return {
    iso: byField(TIME_FIELDS, (f) => isoColumn(events, f, zone)),
    text: byField(TEXT_FIELDS, (f) => textColumn(events, f)),
  };
}

/**
 * JSON.stringify(textColumnsOf(events, zone)) as UTF-8, byte for byte, made a column at a time:
 * at 100k events the whole as one string was ~90 MB of heap (the text is two-byte), then copied
 * to UTF-8 to be hashed and written, at the build's peak; a column is a few MB.
 */
export function textColumnsJson(events: readonly Event[], zone: string): Buffer {
  const parts: Buffer[] = [];
  const group = <F extends string>(name: string, fields: readonly F[], column: (f: F) => unknown[]) => {
    fields.forEach((f, i) => parts.push(Buffer.from(`${i === 0 ? `"${name}":{` : ','}${JSON.stringify(f)}:${JSON.stringify(column(f))}`)));
    if (fields.length === 0) parts.push(Buffer.from(`"${name}":{`));
    parts.push(Buffer.from('}'));
  };
  parts.push(Buffer.from('{'));
  group('iso', TIME_FIELDS, (f) => isoColumn(events, f, zone));
  parts.push(Buffer.from(','));
  group('text', TEXT_FIELDS, (f) => textColumn(events, f));
  parts.push(Buffer.from('}'));
  return Buffer.concat(parts);
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
