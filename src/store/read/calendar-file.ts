// Reads the calendar's parts (src/store/format/calendar-file.ts) as views of their bytes.
import { CALENDAR_FORMAT, type CalendarEntries, type CalendarPart } from '../format/calendar-file.ts';
import { calendarPartFile, partFirsts, type EventPart } from '../format/dist-paths.ts';
import { FormatError } from '../format/sections.ts';
import { corrupt, type DistSource } from './dist-source.ts';
import { gatherNeeds } from './per-need.ts';
import { check, checkStarts, Sections } from './sections.ts';

const F = CALENDAR_FORMAT;

/** One part of `rows` rows. */
export function readCalendarFile(bytes: Uint8Array, rows: number): CalendarPart {
  const s = Sections.of(bytes, F);
  const [rowCount] = s.meta(0, 1);
  check(rowCount === rows, F, `of ${rowCount} rows, not the ${rows} of its event part`);
  const starts = s.u32(1, 'entry starts', rows + 1);
  const entries = s.u8(2, 'entries');
  checkStarts(starts, entries.byteLength, F, 'entry starts');
  return { rows, starts, entries };
}

/**
 * The entries of the rows of event parts `parts` from their parts' bytes, in order (`part(i)`); a
 * part that is not what it should be throws FormatError, given to `fault` with the part's name
 * first where given.
 */
export function calendarOfParts(parts: readonly EventPart[], part: (i: number) => Uint8Array, fault?: (rel: string, e: FormatError) => Error): CalendarEntries {
  const firsts = partFirsts(parts);
  const read = parts.map((p, i) => {
    try {
      return readCalendarFile(part(i), p.rows);
    } catch (e) {
      if (fault && e instanceof FormatError) throw fault(calendarPartFile(p.name), e);
      throw e;
    }
  });
  return { rows: firsts[firsts.length - 1], firsts, parts: read };
}

/**
 * The calendar parts of event parts `parts`, each read from `file` when asked for: the last one
 * read is held for the next ask (asked in row order, rows shifted by a row added or removed reach
 * each part from two new ones).
 */
export function calendarPartReader(file: (rel: string) => Uint8Array, parts: readonly EventPart[]): (part: number) => CalendarPart {
  let held: { part: number; entries: CalendarPart } | null = null;
  return (part) => {
    if (held?.part !== part) held = { part, entries: readCalendarFile(file(calendarPartFile(parts[part].name)), parts[part].rows) };
    return held.entries;
  };
}

/** The calendar of a dist whose event parts are `parts`, its parts asked for together; throws DistError naming a part that is not what it should be. */
export function readCalendar(source: DistSource, parts: readonly EventPart[]): CalendarEntries {
  const rels = parts.map((p) => calendarPartFile(p.name));
  const bytes: Uint8Array[] = [];
  // (a source loading per need is asked for every part it lacks at once)
  gatherNeeds(rels.map((rel, i) => () => void (bytes[i] = source.bytes(rel))));
  return calendarOfParts(parts, (i) => bytes[i], (rel, e) => corrupt(source, rel, e.message));
}
