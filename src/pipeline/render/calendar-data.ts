// data/calendar.bin, made with the feed's own formatter (api/ical/feed.ts entryBody): every
// event's stored calendar lines, in list order. The full build makes them from the columns and the
// rows; a patch and `aula dev` take a row's bytes from the previous file where its event stayed
// (store/write/calendar-file.ts) and make only the new events', from the model's fields (the same
// values the rows hold).
import { entryBody, type EntryFields } from '../../api/ical/feed.ts';
import { ZoneOffsets } from '../../api/ical/zone-offsets.ts';
import type { Event } from '../../model/types.ts';
import type { ColumnValues } from '../../store/format/event-table.ts';
import { fieldIndex, type EventRows } from '../../store/format/event-rows.ts';
import { calendarFile, calendarFileReusing, splicedCalendarFile } from '../../store/write/calendar-file.ts';
import type { CalendarEntries } from '../../store/format/calendar-file.ts';

const URL_FIELD = fieldIndex('url')!;
const LINK_FIELD = fieldIndex('link')!;

/** The entries of the list's rows: the columns' values, and url and link (no column holds them) from the rows' JSON. */
export function calendarData(values: ColumnValues, rows: EventRows, timezone: string): Uint8Array {
  const zone = new ZoneOffsets(timezone, []);
  const { time, bool, text } = values;
  return calendarFile(rows.length, (row) => {
    const bytes = rows.bytes(row);
    const valueOf = (field: number): string | null => {
      const [from, to] = rows.valueSpan(row, field);
      return JSON.parse(bytes.toString('utf8', from, to)) as string | null;
    };
    return entryBody(
      {
        start: time.start[row],
        end: time.end[row],
        last_modified: time.last_modified[row],
        allday: bool.allday[row] === 1,
        title: text.title[row]!,
        teaser: text.teaser[row],
        location: text.location[row],
        url: valueOf(URL_FIELD),
        link: valueOf(LINK_FIELD),
        organizer: text.organizer[row],
        contact: text.contact[row],
        email: text.email[row],
      },
      zone,
    );
  });
}

/**
 * The entries of `events` (list order), row r's bytes taken from `last` at row `from[r]` where that
 * is not negative (the same event, in the same zone), else made from its event.
 */
export function calendarReusing(events: readonly Event[], timezone: string, from: ArrayLike<number>, last: CalendarEntries | null): Uint8Array {
  const zone = new ZoneOffsets(timezone, []);
  return calendarFileReusing(events.length, last, from, (row) => entryBody(events[row], zone));
}

/** The entries of a patch's new row order (splicedCalendarFile): the new events' made here. */
export function patchedCalendar(old: CalendarEntries, order: ArrayLike<number>, fresh: readonly Event[], timezone: string): Uint8Array {
  const zone = new ZoneOffsets(timezone, []);
  return splicedCalendarFile(old, order, (j) => entryBody(fresh[j], zone));
}
