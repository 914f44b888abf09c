// A calendar feed assembled from stored entries (data/calendar/): per entry its opening (UID,
// DTSTAMP), its stored lines copied as they are, its CATEGORIES and END; around them the calendar's
// properties and the VTIMEZONE of the entries' instants. The same bytes as renderCalendar (feed.ts)
// makes of the same events, whose pieces these are: no line is formatted here but those that do not
// depend on the event alone.
import { CALENDAR_CLOSING, calendarOpening, calendarZone, entryClosing, entryOpener } from './feed.ts';
import { utcValue } from './vtimezone.ts';
import { ZoneOffsets } from './zone-offsets.ts';

/** The entries a feed shows, in order, read through the stored data. */
export interface StoredEntries {
  readonly count: number;
  id(i: number): number;
  /** epoch ms */
  start(i: number): number;
  end(i: number): number;
  allday(i: number): boolean;
  /** the stored lines (entryBody's UTF-8) */
  body(i: number): Uint8Array;
  /** the event's categories as CATEGORIES lists them (each escaped, joined by commas); null for none */
  categories(i: number): string | null;
}

export interface FeedOptions {
  timezone: string;
  name: string;
  /** its host makes the UIDs unique */
  baseUrl: string;
  /** the DTSTAMP of every entry */
  now: Date;
}

export function assembleCalendar(entries: StoredEntries, options: FeedOptions): Buffer {
  const n = entries.count;
  // The text between one entry's stored lines and the next's is one string (an entry's closing,
  // the next one's opening): n + 1 texts around n stored pieces, measured, then written into one
  // buffer of the answer's size.
  const texts: string[] = new Array(n + 1);
  let head = calendarOpening(options.name, options.timezone);
  if (n > 0) {
    const instants = new Array<number>(2 * n);
    let anyTimed = false;
    for (let i = 0; i < n; i++) {
      instants[2 * i] = entries.start(i);
      instants[2 * i + 1] = entries.end(i);
      if (!entries.allday(i)) anyTimed = true;
    }
    head += calendarZone(new ZoneOffsets(options.timezone, instants), anyTimed);
    const opening = entryOpener(new URL(options.baseUrl).host, utcValue(options.now.getTime()));
    texts[0] = head + opening(entries.id(0));
    for (let i = 1; i < n; i++) texts[i] = entryClosing(entries.categories(i - 1)) + opening(entries.id(i));
    texts[n] = entryClosing(entries.categories(n - 1)) + CALENDAR_CLOSING;
  } else texts[0] = head + CALENDAR_CLOSING;
  let total = 0;
  for (let i = 0; i <= n; i++) total += Buffer.byteLength(texts[i]);
  for (let i = 0; i < n; i++) total += entries.body(i).byteLength;
  const out = Buffer.allocUnsafe(total);
  let at = 0;
  for (let i = 0; i < n; i++) {
    at += out.write(texts[i], at);
    const body = entries.body(i);
    out.set(body, at);
    at += body.byteLength;
  }
  out.write(texts[n], at);
  return out;
}
