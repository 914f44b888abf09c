// Reads data/calendar.bin (src/store/format/calendar-file.ts) as views of its bytes.
import { CALENDAR_FORMAT, type CalendarEntries } from '../format/calendar-file.ts';
import { DATA_FILES } from '../format/dist-paths.ts';
import { FormatError } from '../format/sections.ts';
import { corrupt, type DistSource } from './dist-source.ts';
import { check, checkStarts, Sections } from './sections.ts';

const F = CALENDAR_FORMAT;

export function readCalendarFile(bytes: Uint8Array, rows: number): CalendarEntries {
  const s = Sections.of(bytes, F);
  const [rowCount] = s.meta(0, 1);
  check(rowCount === rows, F, `of ${rowCount} rows, not the ${rows} of the event list`);
  const starts = s.u32(1, 'entry starts', rows + 1);
  const entries = s.u8(2, 'entries');
  checkStarts(starts, entries.byteLength, F, 'entry starts');
  return { rows, starts, entries };
}

/** data/calendar.bin of a dist; throws DistError naming it when it is not what it should be. */
export function readCalendar(source: DistSource, rows: number): CalendarEntries {
  try {
    return readCalendarFile(source.bytes(DATA_FILES.calendar), rows);
  } catch (e) {
    if (e instanceof FormatError) throw corrupt(source, DATA_FILES.calendar, e.message);
    throw e;
  }
}
