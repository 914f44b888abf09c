// The columns of the event list (what data/columns/ is written from), from the events in list
// order: the numbers and flags from the events, the strings as the rows hold them.
import type { Event } from '../../model/types.ts';
import type { TextlessEvent } from '../../model/event-texts.ts';
import { EVENT_FIELDS } from '../../model/event-fields.ts';
import { formatInstant } from '../../time/zone.ts';
import { FIELD_COUNT, valueSpanIn, type EventRows } from '../format/event-rows.ts';
import { BOOL_FIELDS, TEXT_FIELDS, TIME_FIELDS, type ColumnValues } from '../format/event-table.ts';

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

/** The columns of `events` (list order) whose fields are all there; ISO text in `zone`. */
export function columnValuesOf(events: readonly Event[], zone: string): ColumnValues {
  return {
    ...numberColumns(events),
    iso: byField(TIME_FIELDS, (f) => events.map((e) => (e[f] === null ? null : formatInstant(e[f], zone)))),
    text: byField(TEXT_FIELDS, (f) => events.map((e) => e[f])),
  };
}

/**
 * The number, flag and id-list columns, filled in place in one pass over the events: each event
 * is read once while it is in cache, and no list of plain numbers is made first. A -0 is written
 * as 0 (`+ 0`), as its row's JSON has it: a column is a function of the rows' bytes, which a build
 * over the previous one reuses rows by.
 */
function numberColumns(events: readonly TextlessEvent[]): Omit<ColumnValues, 'iso' | 'text'> {
  const n = events.length;
  const id = new Float64Array(n);
  const time = byField(TIME_FIELDS, () => new Float64Array(n));
  const times = TIME_FIELDS.map((f) => time[f]);
  const dfp_points = new Float64Array(n);
  const bool = byField(BOOL_FIELDS, () => new Uint8Array(n));
  const bools = BOOL_FIELDS.map((f) => bool[f]);
  const categories: Event['categories'][] = new Array(n);
  const groups: number[][] = new Array(n);
  for (let i = 0; i < n; i++) {
    const e = events[i];
    id[i] = (e.id ?? NaN) + 0;
    for (let k = 0; k < TIME_FIELDS.length; k++) times[k][i] = (e[TIME_FIELDS[k]] ?? NaN) + 0;
    dfp_points[i] = (e.dfp_points ?? NaN) + 0;
    for (let k = 0; k < BOOL_FIELDS.length; k++) bools[k][i] = e[BOOL_FIELDS[k]] ? 1 : 0;
    categories[i] = e.categories;
    groups[i] = groupIds(e.groups);
  }
  return { id, time, dfp_points, bool, categories, groups };
}

/**
 * As columnValuesOf, the strings (text fields, ISO text) taken from `rows`, the events' rows in
 * the same order, which hold them as JSON: the build's events may come without their texts
 * (TextlessEvent), and the ISO text is there formatted already. `held` false: each string column
 * is made from the rows whenever it is read, and not kept, for a caller that reads each once
 * (the column files of a whole list, each let go once written): a row's strings are most of the
 * heap, and ten columns of them held at once beside the rows are the build's peak.
 */
export function columnValuesFromRows(events: readonly TextlessEvent[], rows: EventRows, held = true): ColumnValues {
  if (rows.length !== events.length) throw new Error(`${rows.length} rows for ${events.length} events`);
  const strings = (field: string) => () => stringsFromRows(rows, rows.lineBytes, EVENT_FIELDS.indexOf(field as (typeof EVENT_FIELDS)[number]));
  const columns = <F extends string>(fields: readonly F[]) => (held ? byField(fields, (f) => strings(f)()) : madeWhenRead(byField(fields, strings)));
  return { ...numberColumns(events), iso: columns(TIME_FIELDS), text: columns(TEXT_FIELDS) };
}

/** An object whose every field is made by its function each time it is read (nothing kept). */
function madeWhenRead<F extends string, V>(makers: Record<F, () => V>): Record<F, V> {
  const record = {} as Record<F, V>;
  for (const name of Object.keys(makers) as F[]) Object.defineProperty(record, name, { enumerable: true, get: makers[name] });
  return record;
}

const STRIDE = FIELD_COUNT + 1;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/** One string field of every row (rowString). */
function stringsFromRows(rows: EventRows, bytes: Buffer, field: number): (string | null)[] {
  const out: (string | null)[] = new Array(rows.length);
  for (let row = 0; row < rows.length; row++) out[row] = rowString(bytes, rows.lineStart(row), rows.starts, row * STRIDE, field);
  return out;
}

/**
 * String field `field` of the row whose line starts at `lineStart` in `bytes` (its offsets at
 * `base` of `starts`), as its column holds it: the JSON string decoded (parsed only when it holds
 * an escape), or null.
 */
export function rowString(bytes: Buffer, lineStart: number, starts: ArrayLike<number>, base: number, field: number): string | null {
  const [a, b] = valueSpanIn(starts, base, field);
  const from = lineStart + a;
  const to = lineStart + b;
  // `null`: the only other value a string field holds
  if (bytes[from] !== QUOTE) return null;
  // looked for within the value, byte by byte: past it, indexOf would run on to the next
  // backslash anywhere in the rows, and a view to bound it costs more than the loop
  for (let i = from + 1; i < to - 1; i++) if (bytes[i] === BACKSLASH) return JSON.parse(bytes.toString('utf8', from, to)) as string;
  return bytes.toString('utf8', from + 1, to - 1);
}
