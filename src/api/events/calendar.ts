// GET /v1/cms/event/?format=ics: the same query as a calendar feed. No pagination: every match up
// to a cap, since calendar clients fetch a feed once and do not follow links. The entries' lines
// that depend on the event alone are the build's (data/calendar/); the feed is assembled from
// them (ical/stored-feed.ts).
import { assembleCalendar, type StoredEntries } from '../ical/stored-feed.ts';
import { escapeText } from '../ical/lines.ts';
import { entryLength, entryOf } from '../../store/format/calendar-file.ts';
import type { Dataset } from '../../query/dataset.ts';
import type { QueryParams } from '../../query/query-dict.ts';
import { baseHeaders, ignoredHeader, invalid, type ApiResponse } from '../respond.ts';
import { listQuery } from './list.ts';
import { charge } from '../../query/work-budget.ts';

/** Most events one feed holds; a larger result is cut and says so in X-Calendar-Truncated. */
export const CALENDAR_CAP = 10_000;

/** site.yaml's `title`, else the host the API answers at: a subscriber's calendar app shows it. */
export function calendarName(site: Dataset['site'], baseUrl: string): string {
  return site.title ?? `Events (${new URL(baseUrl).host})`;
}

/** Each dataset's categories as CATEGORIES lists them, by id: titles escaped, read once from the categories' JSON. */
const titlesOf = new WeakMap<Dataset['categories'], ReadonlyMap<number, string>>();

function categoryTexts(ds: Dataset): ReadonlyMap<number, string> {
  let titles = titlesOf.get(ds.categories);
  if (titles === undefined) {
    titles = new Map([...ds.categories.json].map(([id, json]) => [id, escapeText(String((JSON.parse(json) as { title: unknown }).title))]));
    titlesOf.set(ds.categories, titles);
  }
  return titles;
}

/**
 * Work units (query/work-budget.ts) of a feed: per byte of the entries' stored lines, copied into
 * the answer, and per entry, its UID, DTSTAMP and CATEGORIES lines written and its instants taken
 * into the VTIMEZONE. The entries are made by the build (data/calendar/), so a feed of
 * CALENDAR_CAP entries fits the work limit.
 */
export const UNITS_PER_ENTRY_BYTE = 1;
export const UNITS_PER_ENTRY = 600;

export function eventCalendar(ds: Dataset, params: QueryParams): ApiResponse {
  const { table, calendar } = ds.events;
  const query = listQuery(ds, params);
  const ignored = ignoredHeader(query.ignored);
  if (!query.ok) return invalid(query.errors, ignored);
  const { count } = query;
  const shown = Math.min(count, CALENDAR_CAP);
  // in the query's order (`ordering=start`: the soonest first), cut after the first CALENDAR_CAP
  const rows = query.slice(0, shown);
  const rowAt = rows ? (i: number) => rows[i] : (i: number) => i;
  // the feed's bytes are known before any is copied: a feed too large to make is refused first
  let bytes = 0;
  for (let i = 0; i < shown; i++) {
    bytes += entryLength(calendar, rowAt(i));
  }
  charge(bytes * UNITS_PER_ENTRY_BYTE + shown * UNITS_PER_ENTRY, 'format=ics');
  const { id, time, bool } = table.columns;
  const { rowStart, rowIds } = table.stored.relation.categories;
  const texts = categoryTexts(ds);
  const categoriesOf = (row: number): string | null => {
    const from = rowStart[row];
    const to = rowStart[row + 1];
    if (from === to) return null;
    let joined = texts.get(rowIds[from]) ?? String(rowIds[from]);
    for (let k = from + 1; k < to; k++) joined += `,${texts.get(rowIds[k]) ?? String(rowIds[k])}`;
    return joined;
  };
  const entries: StoredEntries = {
    count: shown,
    id: (i) => id[rowAt(i)],
    start: (i) => time.start[rowAt(i)],
    end: (i) => time.end[rowAt(i)],
    allday: (i) => bool.allday[rowAt(i)] === 1,
    body: (i) => entryOf(calendar, rowAt(i)),
    categories: (i) => categoriesOf(rowAt(i)),
  };
  // DTSTAMP is the build time of the data, so the feed is a pure function of the dist (the build
  // writes events.ics by calling this, byte-identical to the server's answer).
  const body = assembleCalendar(entries, {
    timezone: ds.site.timezone,
    name: calendarName(ds.site, ds.baseUrl),
    baseUrl: ds.baseUrl,
    now: new Date(ds.manifest.built_at),
  });
  const headers = { ...baseHeaders('text/calendar; charset=utf-8'), ...ignored };
  if (count > CALENDAR_CAP) headers['X-Calendar-Truncated'] = `${CALENDAR_CAP} of ${count}`;
  return { status: 200, headers, body };
}
