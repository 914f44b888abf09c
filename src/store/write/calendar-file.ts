// Writes data/calendar.bin (src/store/format/calendar-file.ts) from each row's entry bytes, made
// by the caller with the feed's own formatter (api/ical/feed.ts entryBody), or taken from a
// previous file where the row's event did not change.
import { CALENDAR_FORMAT, entryOf, type CalendarEntries } from '../format/calendar-file.ts';
import { meta, packSections } from './sections.ts';

/**
 * The file of `rows` entries, row r's `entry(r)`: its bytes, or its text (written as UTF-8 straight
 * into the file's bytes, not encoded into a buffer of its own first).
 */
export function calendarFile(rows: number, entry: (row: number) => Uint8Array | string): Uint8Array {
  const made: (Uint8Array | string)[] = new Array(rows);
  const starts = new Uint32Array(rows + 1);
  for (let r = 0; r < rows; r++) {
    const e = entry(r);
    made[r] = e;
    starts[r + 1] = starts[r] + (typeof e === 'string' ? Buffer.byteLength(e) : e.byteLength);
  }
  const entries = Buffer.allocUnsafe(starts[rows]);
  for (let r = 0; r < rows; r++) {
    const e = made[r];
    if (typeof e === 'string') entries.write(e, starts[r]);
    else entries.set(e, starts[r]);
  }
  return packSections(CALENDAR_FORMAT, [meta(rows), starts, entries]);
}

/**
 * The file of a new row order: row i is `old`'s row `order[i]` (its bytes copied as they are), or,
 * where that is negative, `fresh(-order[i] - 1)` (a patch's or an edit's new events).
 */
export function splicedCalendarFile(old: CalendarEntries, order: ArrayLike<number>, fresh: (j: number) => Uint8Array | string): Uint8Array {
  return calendarFile(order.length, (i) => (order[i] >= 0 ? entryOf(old, order[i]) : fresh(-order[i] - 1)));
}
