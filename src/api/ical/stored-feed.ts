// A calendar feed assembled from stored entries (data/calendar.bin): per entry its opening (UID,
// DTSTAMP), its stored lines copied as they are, its CATEGORIES and END; around them the calendar's
// properties and the VTIMEZONE of the entries' instants. The same bytes as renderCalendar (feed.ts)
// makes of the same events, whose pieces these are: no line is formatted here but those that do not
// depend on the event alone.
import { CALENDAR_CLOSING, calendarOpening, calendarZone, entryClosing, entryOpening } from './feed.ts';
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
  /** the event's categories, each escaped as CATEGORIES lists it */
  categories(i: number): readonly string[];
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
  const pieces: (string | Uint8Array)[] = [calendarOpening(options.name, options.timezone)];
  if (n > 0) {
    const instants = new Array<number>(2 * n);
    let anyTimed = false;
    for (let i = 0; i < n; i++) {
      instants[2 * i] = entries.start(i);
      instants[2 * i + 1] = entries.end(i);
      if (!entries.allday(i)) anyTimed = true;
    }
    pieces.push(calendarZone(new ZoneOffsets(options.timezone, instants), anyTimed));
    const stamp = utcValue(options.now.getTime());
    const host = new URL(options.baseUrl).host;
    for (let i = 0; i < n; i++) pieces.push(entryOpening(entries.id(i), host, stamp), entries.body(i), entryClosing(entries.categories(i)));
  }
  pieces.push(CALENDAR_CLOSING);
  return joined(pieces);
}

/** The pieces as one buffer: the texts encoded as UTF-8 into it, the bytes copied. */
function joined(pieces: readonly (string | Uint8Array)[]): Buffer {
  let total = 0;
  for (const p of pieces) total += typeof p === 'string' ? Buffer.byteLength(p) : p.byteLength;
  const out = Buffer.allocUnsafe(total);
  let at = 0;
  for (const p of pieces) {
    if (typeof p === 'string') at += out.write(p, at);
    else {
      out.set(p, at);
      at += p.byteLength;
    }
  }
  return out;
}
