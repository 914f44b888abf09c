// data/calendar.bin of rows, made with the feed's own formatter (api/ical/feed.ts entryBody) from
// their columns and their rows: the event data stage (store/write/event-data.ts) makes the entries
// of the rows it makes anew with it, and takes the others' from the previous file.
import { entryBody } from '../../api/ical/feed.ts';
import { ZoneOffsets } from '../../api/ical/zone-offsets.ts';
import type { ColumnValues } from '../../store/format/event-table.ts';
import { fieldIndex, type EventRows } from '../../store/format/event-rows.ts';

const URL_FIELD = fieldIndex('url')!;
const LINK_FIELD = fieldIndex('link')!;

/** Each row's entry: the columns' values, and url and link (no column holds them) from the rows' JSON. */
export function calendarData(values: ColumnValues, rows: EventRows, timezone: string): (row: number) => string {
  const zone = new ZoneOffsets(timezone, []);
  const { time, bool, text } = values;
  return (row) => {
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
  };
}
