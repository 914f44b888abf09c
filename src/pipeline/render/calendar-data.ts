// data/calendar.bin of rows, made with the feed's own formatter (api/ical/feed.ts entryBody) from
// their columns and their rows: the event data stage (store/write/event-data.ts) makes the entries
// of the rows it makes anew with it, and takes the others' from the previous file.
import { writeEntryBody } from '../../api/ical/feed.ts';
import { ContentBytes } from '../../api/ical/lines.ts';
import { ZoneOffsets } from '../../api/ical/zone-offsets.ts';
import type { ColumnValues } from '../../store/format/event-table.ts';
import { FIELD_COUNT, fieldIndex, type EventRows } from '../../store/format/event-rows.ts';
import { rowString } from '../../store/write/column-values.ts';

const URL_FIELD = fieldIndex('url')!;
const LINK_FIELD = fieldIndex('link')!;

/** Each row's entry as bytes (one buffer's: valid until the next row's): the columns' values, and url and link (no column holds them) from the rows' JSON. */
export function calendarData(values: ColumnValues, rows: EventRows, timezone: string): (row: number) => Uint8Array {
  const zone = new ZoneOffsets(timezone, []);
  const { time, bool, text } = values;
  const out = new ContentBytes();
  return (row) => {
    const valueOf = (field: number): string | null => rowString(rows.bytes(row), 0, rows.starts, row * (FIELD_COUNT + 1), field);
    return writeEntryBody(
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
      out.clear(),
    ).bytes;
  };
}
