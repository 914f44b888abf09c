// The columns of the event list (what data/columns/ is written from), from the events in list
// order: the numbers and flags from the events, the strings as the rows hold them.
import type { Event } from '../../model/types.ts';
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

/** A number of each event (null: NaN), filled in place: no list of plain numbers first. */
function floats<E>(events: readonly E[], value: (e: E) => number | null): Float64Array {
  const out = new Float64Array(events.length);
  for (let i = 0; i < events.length; i++) {
    const v = value(events[i]);
    out[i] = v === null ? NaN : v;
  }
  return out;
}

function flags(events: readonly Event[], field: (typeof BOOL_FIELDS)[number]): Uint8Array {
  const out = new Uint8Array(events.length);
  for (let i = 0; i < events.length; i++) out[i] = events[i][field] ? 1 : 0;
  return out;
}

/** The columns of `events` (list order) whose fields are all there; ISO text in `zone`. */
export function columnValuesOf(events: readonly Event[], zone: string): ColumnValues {
  return {
    ...numberColumns(events),
    iso: byField(TIME_FIELDS, (f) => events.map((e) => (e[f] === null ? null : formatInstant(e[f], zone)))),
    text: byField(TEXT_FIELDS, (f) => events.map((e) => e[f])),
  };
}

function numberColumns(events: readonly Event[]): Omit<ColumnValues, 'iso' | 'text'> {
  return {
    id: floats(events, (e) => e.id),
    time: byField(TIME_FIELDS, (f) => floats(events, (e) => e[f])),
    dfp_points: floats(events, (e) => e.dfp_points),
    bool: byField(BOOL_FIELDS, (f) => flags(events, f)),
    categories: events.map((e) => e.categories),
    groups: events.map((e) => groupIds(e.groups)),
  };
}

/**
 * As columnValuesOf, the strings (text fields, ISO text) taken from `rows`, the events' rows in
 * the same order, which hold them as JSON: the build has let go of the events' own text fields
 * (parse-pool.ts), and the ISO text is there formatted already.
 */
export function columnValuesFromRows(events: readonly Event[], rows: EventRows): ColumnValues {
  if (rows.length !== events.length) throw new Error(`${rows.length} rows for ${events.length} events`);
  const bytes = rows.lineBytes;
  const strings = (field: string) => stringsFromRows(rows, bytes, EVENT_FIELDS.indexOf(field as (typeof EVENT_FIELDS)[number]));
  return {
    ...numberColumns(events),
    iso: byField(TIME_FIELDS, strings),
    text: byField(TEXT_FIELDS, strings),
  };
}

const STRIDE = FIELD_COUNT + 1;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/** One string field of every row: a JSON string decoded from its bytes (parsed only when it holds an escape), or null. */
function stringsFromRows(rows: EventRows, bytes: Buffer, field: number): (string | null)[] {
  const out: (string | null)[] = new Array(rows.length);
  for (let row = 0; row < rows.length; row++) {
    const [a, b] = valueSpanIn(rows.starts, row * STRIDE, field);
    const from = rows.lineStart(row) + a;
    const to = rows.lineStart(row) + b;
    if (bytes[from] !== QUOTE) {
      out[row] = null; // `null`: the only other value a string field holds
      continue;
    }
    const escaped = bytes.indexOf(BACKSLASH, from);
    out[row] = escaped >= 0 && escaped < to ? (JSON.parse(bytes.toString('utf8', from, to)) as string) : bytes.toString('utf8', from + 1, to - 1);
  }
  return out;
}
