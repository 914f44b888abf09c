// The calendar parts, data/calendar/<part>.bin: each event's calendar entry as far as it depends on
// the event and the site's time zone alone — its VEVENT lines from DTSTART to CONTACT, escaped and
// folded, CRLF after each (api/ical/feed.ts entryBody) — so that a feed is assembled from stored
// bytes, not formatted per request. What depends on the request or on other data is not stored:
// the UID (the host of the base URL, which `aula serve --base-url` may change), DTSTAMP (the build
// time: an incremental build would otherwise rewrite every entry) and CATEGORIES (the categories'
// titles). The entries are cut into parts as the event rows are (dist-paths.ts, the manifest's
// event_parts): an edit rewrites the parts of the rows it changes and the
// others stay as they are. Each part:
//
//   0  header: rows (of this part)
//   1  starts   u32 × (rows + 1): the part's row r's entry is entries[starts[r] .. starts[r+1])
//   2  entries  the entries' UTF-8, in row order
import { partOfRow } from './dist-paths.ts';
import type { Format } from './sections.ts';

export const CALENDAR_FORMAT: Format = { magic: 'aula-ics', version: 2, sections: 3, what: 'a calendar part' };

/** One part's entries. */
export interface CalendarPart {
  readonly rows: number;
  readonly starts: Uint32Array;
  readonly entries: Uint8Array;
}

/** Every row's entry: the parts in order, as the event parts are cut. */
export interface CalendarEntries {
  readonly rows: number;
  /** each part's first row, then `rows` (dist-paths.ts partFirsts) */
  readonly firsts: readonly number[];
  readonly parts: readonly CalendarPart[];
}

/** Row `row` of the part's own: a view of the part's bytes. */
export function partEntryOf(p: CalendarPart, row: number): Uint8Array {
  return p.entries.subarray(p.starts[row], p.starts[row + 1]);
}

/** Row `row`'s stored entry: a view of its part's bytes. */
export function entryOf(c: CalendarEntries, row: number): Uint8Array {
  const part = partOfRow(c.firsts, row);
  return partEntryOf(c.parts[part], row - c.firsts[part]);
}

/** Row `row`'s entry's byte length. */
export function entryLength(c: CalendarEntries, row: number): number {
  const part = partOfRow(c.firsts, row);
  const { starts } = c.parts[part];
  const r = row - c.firsts[part];
  return starts[r + 1] - starts[r];
}
