// Test helper: an EventTable built from plain records, ordered and rendered as the real store
// does (rows by start desc, end desc, id asc; ISO text in the site zone).
import type { EventColumns, EventTable } from '../../store/format/event-table.ts';
import { BOOL_FIELDS, TEXT_FIELDS, TIME_FIELDS } from '../../store/format/event-table.ts';
import { formatInstant } from '../../time/zone.ts';
import { parseTimestamp } from '../../time/parse.ts';

export const ZONE = 'Europe/Vienna';

export interface FixtureEvent {
  id: number;
  title?: string;
  /** ISO text (any form parseTimestamp reads, naive = ZONE) or epoch ms */
  start?: string | number;
  end?: string | number;
  registration_end?: string | number | null;
  last_modified?: string | number;
  organizer?: string | null;
  location?: string | null;
  teaser?: string;
  contact?: string | null;
  email?: string | null;
  dfp_points?: number | null;
  allday?: boolean;
  register?: boolean;
  attending_fees?: boolean;
  categories?: number[];
  groups?: number[];
}

function instant(v: string | number, zone: string): number {
  if (typeof v === 'number') return v;
  const r = parseTimestamp(v, zone);
  if (!r.ok) throw new Error(`fixture: bad timestamp ${v}`);
  return r.epochMs;
}

export function buildTable(events: readonly FixtureEvent[], zone = ZONE): EventTable {
  const base = Date.UTC(2025, 0, 1);
  const full = events.map((e) => {
    const start = instant(e.start ?? base + e.id * 3_600_000, zone);
    return {
      ...e,
      startMs: start,
      endMs: instant(e.end ?? start + 3_600_000, zone),
      regMs: e.registration_end === undefined || e.registration_end === null ? null : instant(e.registration_end, zone),
      modMs: instant(e.last_modified ?? base, zone),
    };
  });
  full.sort((a, b) => b.startMs - a.startMs || b.endMs - a.endMs || a.id - b.id);
  const n = full.length;
  const time = Object.fromEntries(TIME_FIELDS.map((f) => [f, new Float64Array(n)])) as EventColumns['time'];
  const iso = Object.fromEntries(TIME_FIELDS.map((f) => [f, new Array<string | null>(n)])) as EventColumns['iso'];
  const text = Object.fromEntries(TEXT_FIELDS.map((f) => [f, new Array<string | null>(n)])) as EventColumns['text'];
  const bool = Object.fromEntries(BOOL_FIELDS.map((f) => [f, new Uint8Array(n)])) as EventColumns['bool'];
  const columns: EventColumns = {
    id: new Float64Array(n),
    time,
    iso,
    dfp_points: new Float64Array(n),
    bool,
    text,
    categories: [],
    groups: [],
  };
  const rowById = new Map<number, number>();
  full.forEach((e, r) => {
    columns.id[r] = e.id;
    rowById.set(e.id, r);
    const times = { start: e.startMs, end: e.endMs, registration_end: e.regMs, last_modified: e.modMs };
    for (const f of TIME_FIELDS) {
      const t = times[f];
      time[f][r] = t === null ? NaN : t;
      iso[f][r] = t === null ? null : formatInstant(t, zone);
    }
    text.title[r] = e.title ?? `Event ${e.id}`;
    text.teaser[r] = e.teaser ?? '';
    for (const f of ['organizer', 'location', 'contact', 'email'] as const) text[f][r] = e[f] ?? null;
    columns.dfp_points[r] = e.dfp_points ?? NaN;
    for (const f of BOOL_FIELDS) bool[f][r] = e[f] ? 1 : 0;
    columns.categories.push(e.categories ?? []);
    columns.groups.push(e.groups ?? []);
  });
  return { length: n, columns, rowById };
}
