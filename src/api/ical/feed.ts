// The event list as an iCalendar file (RFC 5545), from the events as the API renders them, so a
// calendar answer and the JSON answer for the same query cannot disagree. Its pieces are shared:
// the build stores each event's entryBody (data/calendar/) and a feed is assembled from those
// with the same openings and closings (stored-feed.ts); renderCalendar makes the whole of it from
// the events, the same bytes.
import { parseTimestamp } from '../../time/parse.ts';
import { ContentLines, CRLF, cleanValue, escapeText, fold, paramValue, type LineSink } from './lines.ts';
import { dateTimeValue, dateValue, utcValue, writeVtimezone } from './vtimezone.ts';
import { ZoneOffsets } from './zone-offsets.ts';

/** The keys of an API event object (interface.md §2.1) that a calendar entry shows. */
export interface RenderedEvent {
  id: number;
  /** ISO 8601 with offset, as the API writes it */
  start: string;
  end: string;
  last_modified?: string;
  allday: boolean;
  title: string;
  teaser?: string | null;
  location?: string | null;
  url?: string | null;
  link?: string | null;
  organizer?: string | null;
  contact?: string | null;
  email?: string | null;
  /**
   * `start`, `end` and `last_modified` as epoch milliseconds, where the caller has them already
   * (the event table's columns): then their text is not parsed again.
   */
  instants?: { start: number; end: number; last_modified: number };
  /** ids, or the Category objects of `expand=categories` */
  categories?: readonly (number | { id: number; title: string })[];
}

/** What an entry's stored lines are made of (entryBody): an event's fields, its times as instants. */
export interface EntryFields extends Pick<RenderedEvent, 'allday' | 'title' | 'teaser' | 'location' | 'url' | 'link' | 'organizer' | 'contact' | 'email'> {
  /** epoch ms */
  start: number;
  end: number;
  /** epoch ms, null for none */
  last_modified: number | null;
}

export interface CalendarOptions {
  /** the site's IANA zone: all-day dates are its local dates, timed events its wall times */
  timezone: string;
  /** the calendar's display name */
  name: string;
  /** origin + optional path prefix; its host makes the UIDs unique */
  baseUrl: string;
  /** the DTSTAMP of every event */
  now: Date;
  /** category id → title: CATEGORIES names an event's categories by title, as people read them */
  categoryTitles?: ReadonlyMap<number, string>;
}

const DAY = 86_400_000;


/** An API timestamp as an instant; a naive one (the API writes none) would be site time. */
function instant(text: string, key: string, id: number, zone: string): number {
  const r = parseTimestamp(text, zone);
  if (!r.ok) throw new Error(`event ${id}: ${key} is not a timestamp: ${JSON.stringify(text)}`);
  return r.epochMs;
}

/**
 * DTSTART/DTEND of a timed event: the site's wall time with TZID, except for a wall time that a
 * DST change repeats, which would mean its first occurrence (§3.3.5): that one is written in UTC.
 */
function dateTime(t: number, zone: ZoneOffsets): [string, Record<string, string>] {
  if (zone.isRepeated(t)) return [utcValue(t), {}];
  return [dateTimeValue(zone.wall(t)), tzidOf(zone.zone)];
}

let tzid: { zone: string; params: Readonly<Record<string, string>> } | undefined;
/** The TZID parameter of a zone: the last one made again (a feed or a build has one zone). */
function tzidOf(zone: string): Readonly<Record<string, string>> {
  if (tzid?.zone !== zone) tzid = { zone, params: { TZID: paramValue(zone) } };
  return tzid.params;
}

const isMidnight = (d: Date) => d.getUTCHours() === 0 && d.getUTCMinutes() === 0 && d.getUTCSeconds() === 0 && d.getUTCMilliseconds() === 0;
/** Midnight starting the (UTC-field) day of `d`; arithmetic, since Date.UTC reads years 0…99 as 19xx. */
const midnight = (d: Date) => d.getTime() - ((d.getTime() % DAY) + DAY) % DAY;
const dayAfter = (d: Date) => new Date(midnight(d) + DAY);

/**
 * All-day dates in the site zone, as the first day and the exclusive end: the day after the last
 * local day. An end at local midnight (after the start) already is that exclusive end: the event
 * does not reach into the day that begins then.
 */
function alldayDates(start: number, end: number, zone: ZoneOffsets): [Date, Date] {
  const first = zone.wall(start);
  const last = zone.wall(end);
  const exclusive = end > start && isMidnight(last) ? last : dayAfter(last);
  return [first, midnight(exclusive) > midnight(first) ? exclusive : dayAfter(first)];
}

function categoryText(c: number | { title: string }, titles: ReadonlyMap<number, string> | undefined): string {
  if (typeof c !== 'number') return escapeText(String(c.title));
  const title = titles?.get(c);
  return title === undefined ? String(c) : escapeText(title);
}

/**
 * The lines of an entry that depend on the event and the site zone alone (DTSTART to CONTACT),
 * folded, CRLF after each: what the build stores per event (data/calendar/), so that a feed is
 * assembled from them and not formatted per request. The zone's `wall` and `isRepeated` are
 * functions of the instant: any ZoneOffsets of the site zone gives the same lines.
 */
export function entryBody(e: EntryFields, zone: ZoneOffsets): string {
  return writeEntryBody(e, zone, new ContentLines()).toString();
}

/** entryBody's lines written to `out` (a build's ContentBytes: the same bytes, no string made). */
export function writeEntryBody<Sink extends LineSink>(e: EntryFields, zone: ZoneOffsets, out: Sink): Sink {
  const { start, end } = e;
  if (e.allday) {
    const [first, next] = alldayDates(start, end, zone);
    out.add('DTSTART', dateValue(first), { VALUE: 'DATE' });
    // After 31 December 9999 there is no date to write (four-digit years): a duration ends it.
    if (next.getUTCFullYear() <= 9999) out.add('DTEND', dateValue(next), { VALUE: 'DATE' });
    else out.add('DURATION', `P${Math.round((midnight(next) - midnight(first)) / DAY)}D`);
  } else {
    out.add('DTSTART', ...dateTime(start, zone));
    // DTEND must be later than DTSTART (§3.8.2.2); without one a timed event is an instant.
    if (end > start) out.add('DTEND', ...dateTime(end, zone));
  }
  if (e.last_modified !== null) out.add('LAST-MODIFIED', utcValue(e.last_modified));
  out.text('SUMMARY', e.title).text('DESCRIPTION', e.teaser).text('LOCATION', e.location);
  const url = e.url || e.link;
  if (url) out.add('URL', cleanValue(url));
  if (e.email) {
    const name = e.organizer || e.contact;
    out.add('ORGANIZER', `mailto:${cleanValue(e.email)}`, name ? { CN: paramValue(name) } : {});
  }
  if (e.contact) out.text('CONTACT', e.email ? `${e.contact} <${e.email}>` : e.contact);
  return out;
}

/**
 * What an entry writes before its stored lines, for the entries of one feed: BEGIN, the UID
 * (unique by the host the API answers at, which `aula serve --base-url` may change) and DTSTAMP
 * (the data's build time). What is the same for every entry is made once.
 */
export function entryOpener(host: string, stamp: string): (id: number) => string {
  // escapeText(`event-${id}@${host}`): nothing before the host is escaped
  const uidTail = `@${escapeText(host)}`;
  const stampLine = `${CRLF}${fold(`DTSTAMP:${stamp}`)}${CRLF}`;
  return (id) => `BEGIN:VEVENT${CRLF}${fold(`UID:event-${id}${uidTail}`)}${stampLine}`;
}

const END_VEVENT = `END:VEVENT${CRLF}`;

/** What an entry writes after its stored lines: CATEGORIES (`categories`: the escaped texts joined by commas; null for none), END. */
export function entryClosing(categories: string | null): string {
  return categories === null ? END_VEVENT : `${fold(`CATEGORIES:${categories}`)}${CRLF}${END_VEVENT}`;
}

/** The lines before the entries: the calendar's properties, its name and zone. */
export function calendarOpening(name: string, timezone: string): string {
  return new ContentLines()
    .add('BEGIN', 'VCALENDAR')
    .add('VERSION', '2.0')
    .add('PRODID', '-//aula//aula events//EN')
    .add('CALSCALE', 'GREGORIAN')
    .text('X-WR-CALNAME', name)
    .add('X-WR-TIMEZONE', escapeText(timezone))
    .toString();
}

export const CALENDAR_CLOSING = `END:VCALENDAR${CRLF}`;

/**
 * The VTIMEZONE of a feed (`zone`: made of its entries' instants), or '' when no entry is timed:
 * only timed events refer to the zone by TZID, all-day dates need none.
 */
export function calendarZone(zone: ZoneOffsets, anyTimed: boolean): string {
  if (!anyTimed) return '';
  const out = new ContentLines();
  writeVtimezone(out, zone);
  return out.toString();
}

export function renderCalendar(events: readonly RenderedEvent[], options: CalendarOptions): string {
  const tz = options.timezone;
  const spans = events.map((e) => ({
    event: e,
    fields: {
      ...e,
      start: e.instants?.start ?? instant(e.start, 'start', e.id, tz),
      end: e.instants?.end ?? instant(e.end, 'end', e.id, tz),
      last_modified: e.last_modified ? (e.instants?.last_modified ?? instant(e.last_modified, 'last_modified', e.id, tz)) : null,
    },
  }));
  let text = calendarOpening(options.name, tz);
  if (spans.length > 0) {
    const zone = new ZoneOffsets(tz, spans.flatMap((s) => [s.fields.start, s.fields.end]));
    text += calendarZone(zone, spans.some((s) => !s.event.allday));
    const stamp = utcValue(options.now.getTime());
    const opening = entryOpener(new URL(options.baseUrl).host, stamp);
    const titles = options.categoryTitles;
    for (const { event: e, fields } of spans) {
      text += opening(e.id) + entryBody(fields, zone) + entryClosing(e.categories?.length ? e.categories.map((c) => categoryText(c, titles)).join(',') : null);
    }
  }
  return text + CALENDAR_CLOSING;
}
