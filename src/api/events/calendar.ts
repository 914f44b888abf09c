// GET /v1/cms/event/?format=ics: the same query as a calendar feed. No pagination: every match up
// to a cap, since calendar clients fetch a feed once and do not follow links.
import { renderCalendar, type RenderedEvent } from '../ical/feed.ts';
import type { Dataset } from '../../query/dataset.ts';
import type { QueryParams } from '../../query/query-dict.ts';
import { baseHeaders, ignoredHeader, invalid, type ApiResponse } from '../respond.ts';
import { matchEvents } from '../../query/events/filter.ts';
import { LIST_RESERVED } from './list.ts';
import { fieldIndex } from '../../store/format/event-rows.ts';
import { charge } from '../../query/work-budget.ts';

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

/**
 * Work units (query/work-budget.ts) of one calendar entry: its fields taken from the columns and
 * the row, formatted, escaped and folded. A feed is made per request, so the work limit bounds how
 * many events an uncached feed can hold; the build's events.ics has no such limit.
 */
const UNITS_PER_ENTRY = 20_000;

const URL_FIELD = fieldIndex('url')!;
const LINK_FIELD = fieldIndex('link')!;

/**
 * The events a feed shows, as the calendar needs them: from the table's columns, which hold
 * every field it shows but two (url, link: read from the rows' stored JSON, their values alone).
 * Parsing each row whole would cost more than formatting it.
 */
function calendarEvents(ds: Dataset, rows: ArrayLike<number> | null, n: number): RenderedEvent[] {
  const { id, time, iso, bool, text, categories } = ds.events.table.columns;
  const stored = ds.events.rows;
  const events: RenderedEvent[] = [];
  const valueOf = (row: number, bytes: Buffer, field: number): string | null => {
    const [from, to] = stored.valueSpan(row, field);
    return JSON.parse(bytes.toString('utf8', from, to)) as string | null;
  };
  stored.eachRow(rows, 0, n, (row, bytes) => {
    events.push({
      id: id[row],
      start: iso.start.at(row)!,
      end: iso.end.at(row)!,
      last_modified: iso.last_modified.at(row)!,
      instants: { start: time.start[row], end: time.end[row], last_modified: time.last_modified[row] },
      allday: bool.allday[row] === 1,
      title: text.title.at(row)!,
      teaser: text.teaser.at(row),
      location: text.location.at(row),
      url: valueOf(row, bytes, URL_FIELD),
      link: valueOf(row, bytes, LINK_FIELD),
      organizer: text.organizer.at(row),
      contact: text.contact.at(row),
      email: text.email.at(row),
      categories: categories.at(row),
    });
  });
  return events;
}

export function eventCalendar(ds: Dataset, params: QueryParams): ApiResponse {
  const { table } = ds.events;
  const filtered = matchEvents(table, { timezone: ds.site.timezone, categoryIds: ds.categories.ids }, params, LIST_RESERVED);
  const ignored = ignoredHeader(filtered.ignored);
  if (!filtered.ok) return invalid(filtered.errors, ignored);
  const count = filtered.matches ? filtered.matches.count : table.length;
  const shown = Math.min(count, CALENDAR_CAP);
  charge(shown * UNITS_PER_ENTRY, 'format=ics');
  const events = calendarEvents(ds, filtered.matches ? filtered.matches.slice(0, shown) : null, shown);
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
