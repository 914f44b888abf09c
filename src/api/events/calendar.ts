// GET /v1/cms/event/?format=ics: the same query as a calendar feed. No pagination: every match up
// to a cap, since calendar clients fetch a feed once and do not follow links.
import { renderCalendar, type RenderedEvent } from '../ical/feed.ts';
import type { Dataset } from '../../query/dataset.ts';
import type { QueryParams } from '../../query/query-dict.ts';
import { baseHeaders, ignoredHeader, invalid, type ApiResponse } from '../respond.ts';
import { matchEvents } from '../../query/events/filter.ts';
import { LIST_RESERVED } from './list.ts';

/** Most events one feed holds; a larger result is cut and says so in X-Calendar-Truncated. */
export const CALENDAR_CAP = 10_000;

/** site.yaml's `title`, else the host the API answers at: a subscriber's calendar app shows it. */
export function calendarName(site: Dataset['site'], baseUrl: string): string {
  return site.title ?? `Events (${new URL(baseUrl).host})`;
}

/** Each dataset's category titles by id, read once from the categories' JSON. */
const titlesOf = new WeakMap<Dataset['categories'], ReadonlyMap<number, string>>();

function categoryTitles(ds: Dataset): ReadonlyMap<number, string> {
  let titles = titlesOf.get(ds.categories);
  if (titles === undefined) {
    titles = new Map([...ds.categories.json].map(([id, json]) => [id, String((JSON.parse(json) as { title: unknown }).title)]));
    titlesOf.set(ds.categories, titles);
  }
  return titles;
}

export function eventCalendar(ds: Dataset, params: QueryParams): ApiResponse {
  const { table, rows } = ds.events;
  const filtered = matchEvents(table, { timezone: ds.site.timezone, categoryIds: ds.categories.ids }, params, LIST_RESERVED);
  const ignored = ignoredHeader(filtered.ignored);
  if (!filtered.ok) return invalid(filtered.errors, ignored);
  const count = filtered.matches ? filtered.matches.count : table.length;
  const kept = filtered.matches ? filtered.matches.slice(0, Math.min(count, CALENDAR_CAP)) : null;
  const events: RenderedEvent[] = [];
  for (let i = 0; i < Math.min(count, CALENDAR_CAP); i++) {
    events.push(JSON.parse(rows.json(kept ? kept[i] : i)) as RenderedEvent);
  }
  // DTSTAMP is the build time of the data, so the feed is a pure function of the dist (the build
  // writes events.ics by calling this, byte-identical to the server's answer).
  const body = renderCalendar(events, {
    timezone: ds.site.timezone,
    name: calendarName(ds.site, ds.baseUrl),
    baseUrl: ds.baseUrl,
    now: new Date(ds.manifest.built_at),
    categoryTitles: categoryTitles(ds),
  });
  const headers = { ...baseHeaders('text/calendar; charset=utf-8'), ...ignored };
  if (count > CALENDAR_CAP) headers['X-Calendar-Truncated'] = `${CALENDAR_CAP} of ${count}`;
  return { status: 200, headers, body };
}
