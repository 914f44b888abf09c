// The calendar entries (data/calendar/) of rows, made with the feed's own formatter (api/ical/feed.ts
// entryBody) from their columns and their rows: the event data stage (store/write/event-data.ts)
// makes the entries of the rows it makes anew with it, and takes the others' from the previous parts.
import { writeEntryBody, type EntryFields } from '../../api/ical/feed.ts';
import { ContentBytes } from '../../api/ical/lines.ts';
import { ZoneOffsets } from '../../api/ical/zone-offsets.ts';
import type { ColumnValues } from '../../store/format/event-table.ts';
import { FIELD_COUNT, fieldIndex, type EventRows } from '../../store/format/event-rows.ts';
import { rowString } from '../../store/write/column-values.ts';

const STRINGS = ['title', 'teaser', 'location', 'url', 'link', 'organizer', 'contact', 'email'] as const;
const FIELDS = STRINGS.map((f) => fieldIndex(f)!);

/** Each row's entry as bytes (one buffer's: valid until the next row's): the numbers and flags from the columns, the strings from the rows' JSON (no string column need be held: column-values.ts `held`). */
export function calendarData({ time, bool }: ColumnValues, rows: EventRows, timezone: string): (row: number) => Uint8Array {
  const zone = new ZoneOffsets(timezone, []);
  const out = new ContentBytes();
  return (row) => {
    const line = rows.bytes(row);
    const entry: Record<string, unknown> = { start: time.start[row], end: time.end[row], last_modified: time.last_modified[row], allday: bool.allday[row] === 1 };
    STRINGS.forEach((name, i) => (entry[name] = rowString(line, 0, rows.starts, row * (FIELD_COUNT + 1), FIELDS[i])));
    return writeEntryBody(entry as unknown as EntryFields, zone, out.clear()).bytes;
  };
}
