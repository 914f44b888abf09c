// The filterable columns of the event list, as written to dist/ (plain JSON) and as loaded
// (typed arrays). Rows are in list order.
import type { Event } from '../model/types.ts';
import { formatInstant } from '../time/zone.ts';
import {
  BOOL_FIELDS, TEXT_FIELDS, TIME_FIELDS,
  type BoolField, type EventColumns, type EventTable, type TextField, type TimeField,
} from './event-table.ts';

export interface ColumnsFile {
  id: number[];
  time: Record<TimeField, (number | null)[]>;
  iso: Record<TimeField, (string | null)[]>;
  dfp_points: (number | null)[];
  bool: Record<BoolField, (0 | 1)[]>;
  text: Record<TextField, (string | null)[]>;
  categories: number[][];
  groups: number[][];
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

export function columnsOf(events: readonly Event[], zone: string): ColumnsFile {
  return {
    id: events.map((e) => e.id),
    time: byField(TIME_FIELDS, (f) => events.map((e) => e[f])),
    iso: byField(TIME_FIELDS, (f) => events.map((e) => (e[f] === null ? null : formatInstant(e[f], zone)))),
    dfp_points: events.map((e) => e.dfp_points),
    bool: byField(BOOL_FIELDS, (f) => events.map((e) => (e[f] ? 1 : 0))),
    text: byField(TEXT_FIELDS, (f) => events.map((e) => e[f])),
    categories: events.map((e) => e.categories),
    groups: events.map((e) => groupIds(e.groups)),
  };
}

const floats = (values: readonly (number | null)[]) => Float64Array.from(values, (v) => (v === null ? NaN : v));

export function tableFromColumns(file: ColumnsFile): EventTable {
  const columns: EventColumns = {
    id: floats(file.id),
    time: byField(TIME_FIELDS, (f) => floats(file.time[f])),
    iso: file.iso,
    dfp_points: floats(file.dfp_points),
    bool: byField(BOOL_FIELDS, (f) => Uint8Array.from(file.bool[f])),
    text: file.text,
    categories: file.categories,
    groups: file.groups,
  };
  const rowById = new Map<number, number>();
  file.id.forEach((id, row) => rowById.set(id, row));
  return { length: file.id.length, columns, rowById };
}
