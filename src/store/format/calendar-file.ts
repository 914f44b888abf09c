// data/calendar.bin: each event's calendar entry as far as it depends on the event and the site's
// time zone alone — its VEVENT lines from DTSTART to CONTACT, escaped and folded, CRLF after each
// (api/ical/feed.ts entryBody) — so that a feed is assembled from stored bytes, not formatted per
// request. What depends on the request or on other data is not stored: the UID (the host of the
// base URL, which `aula serve --base-url` may change), DTSTAMP (the build time: an incremental
// build would otherwise rewrite every entry) and CATEGORIES (the categories' titles).
//
//   0  header: rows
//   1  starts   u32 × (rows + 1): row r's entry is entries[starts[r] .. starts[r+1])
//   2  entries  the entries' UTF-8, in row order
import type { Format } from './sections.ts';

export const CALENDAR_FORMAT: Format = { magic: 'aula-ics', version: 1, sections: 3, what: 'a calendar' };

export interface CalendarEntries {
  readonly rows: number;
  readonly starts: Uint32Array;
  readonly entries: Uint8Array;
}

/** Row `row`'s stored entry: a view of the file's bytes. */
export function entryOf(c: CalendarEntries, row: number): Uint8Array {
  return c.entries.subarray(c.starts[row], c.starts[row + 1]);
}
