// Test helper: an EventTable built from plain records, ordered and rendered as the real store
// does (rows by start desc, end desc, id asc; ISO text in the site zone), its column files written
// by the build's writer and read back by the server's loader.
import type { ColumnValues, EventTable } from '../../store/format/event-table.ts';
import { BOOL_FIELDS, TEXT_FIELDS, TIME_FIELDS } from '../../store/format/event-table.ts';
import { formatInstant } from '../../time/zone.ts';
import { parseTimestamp } from '../../time/parse.ts';
import { columnFiles, DEFAULT_COLUMN_FILE_OPTIONS, type ColumnFileOptions } from '../../store/write/column-files.ts';
import { readColumns } from '../../store/read/column-files.ts';
import { memorySource } from '../../store/read/dist-source.ts';
import { readInParts } from '../../store/read/sections.ts';

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

/**
 * `options`: how the column files are made (the trigram budget, …), the build's defaults if not
 * given; `inParts`: the files are read as an edge isolate reads them (tableFromValues).
 */
export function buildTable(events: readonly FixtureEvent[], zone = ZONE, options?: Partial<ColumnFileOptions>, inParts = false): EventTable {
  const values = columnValues(events, zone);
  return tableFromValues(values, options, inParts);
}

/**
 * The table the server loads from the column files made of `values`; `inParts`: the one an edge
 * isolate loads, each column when first used and read through its sections in parts (every part
 * at hand here).
 */
export function tableFromValues(values: ColumnValues, options?: Partial<ColumnFileOptions>, inParts = false): EventTable {
  const files = columnFiles(values, { ...DEFAULT_COLUMN_FILE_OPTIONS, ...options });
  const source = memorySource(files, 'fixture');
  if (!inParts) return readColumns(source, values.id.length);
  const sectioned = (rel: string) => {
    const bytes = source.bytes(rel);
    return readInParts(new Uint8Array(bytes.byteLength), { need: () => {}, at: (start, end) => bytes.subarray(start, end) });
  };
  return readColumns({ ...source, perNeed: true, sectioned }, values.id.length);
}

/** The columns of `events` in list order. */
export function columnValues(events: readonly FixtureEvent[], zone = ZONE): ColumnValues {
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
  const time = Object.fromEntries(TIME_FIELDS.map((f) => [f, new Float64Array(n)])) as Record<(typeof TIME_FIELDS)[number], Float64Array>;
  const iso = Object.fromEntries(TIME_FIELDS.map((f) => [f, new Array<string | null>(n)])) as Record<(typeof TIME_FIELDS)[number], (string | null)[]>;
  const text = Object.fromEntries(TEXT_FIELDS.map((f) => [f, new Array<string | null>(n)])) as Record<(typeof TEXT_FIELDS)[number], (string | null)[]>;
  const bool = Object.fromEntries(BOOL_FIELDS.map((f) => [f, new Uint8Array(n)])) as Record<(typeof BOOL_FIELDS)[number], Uint8Array>;
  const id = new Float64Array(n);
  const dfp = new Float64Array(n);
  const categories: number[][] = [];
  const groups: number[][] = [];
  full.forEach((e, r) => {
    id[r] = e.id;
    const times = { start: e.startMs, end: e.endMs, registration_end: e.regMs, last_modified: e.modMs };
    for (const f of TIME_FIELDS) {
      const t = times[f];
      time[f][r] = t === null ? NaN : t;
      iso[f][r] = t === null ? null : formatInstant(t, zone);
    }
    text.title[r] = e.title ?? `Event ${e.id}`;
    text.teaser[r] = e.teaser ?? '';
    for (const f of ['organizer', 'location', 'contact', 'email'] as const) text[f][r] = e[f] ?? null;
    dfp[r] = e.dfp_points ?? NaN;
    for (const f of BOOL_FIELDS) bool[f][r] = e[f] ? 1 : 0;
    categories.push(e.categories ?? []);
    groups.push(e.groups ?? []);
  });
  return { id, time, iso, dfp_points: dfp, bool, text, categories, groups };
}

/** A string column of a loaded table as an array (null where null). */
export function stringsOf(column: { at(row: number): string | null }, rows: number): (string | null)[] {
  return Array.from({ length: rows }, (_, row) => column.at(row));
}
