// Time: wall-clock values in Europe/Vienna, kept as "floating" milliseconds
// (Date.UTC of the local fields), converted to instants only when an offset is written.
// No Intl: its time-zone data varies between Node builds, and the output must not.
import type { Random } from './random.ts';

const HOUR = 3_600_000;
export const DAY = 24 * HOUR;
export const FIRST_DAY = Date.UTC(2025, 0, 1);
export const DAYS_IN_RANGE = (Date.UTC(2026, 11, 31) - FIRST_DAY) / DAY + 1;

function lastSundayOf(year: number, month0: number): number {
  const lastDay = new Date(Date.UTC(year, month0 + 1, 0));
  return lastDay.getUTCDate() - lastDay.getUTCDay();
}

const summerTimeCache = new Map<number, [number, number]>();

/**
 * The EU rule (in force since 1996) for Europe/Vienna as a wall-clock range: summer time
 * from the last Sunday of March 03:00 to the last Sunday of October 02:00. The hours
 * 02:00–03:59 around both switches are never generated, so the gap and the repeated hour
 * never need resolving.
 */
function viennaOffsetHours(wall: number): 1 | 2 {
  const year = new Date(wall).getUTCFullYear();
  let range = summerTimeCache.get(year);
  if (!range) {
    range = [Date.UTC(year, 2, lastSundayOf(year, 2), 3), Date.UTC(year, 9, lastSundayOf(year, 9), 2)];
    summerTimeCache.set(year, range);
  }
  return wall >= range[0] && wall < range[1] ? 2 : 1;
}

export type TimestampForm = 'offset' | 'z' | 'z-millis' | 'naive-space' | 'naive-t' | 'naive-t-minutes';

const TIMESTAMP_FORMS: readonly (readonly [TimestampForm, number])[] = [
  ['offset', 40],
  ['z', 18],
  ['z-millis', 5],
  ['naive-space', 15],
  ['naive-t', 12],
  ['naive-t-minutes', 10],
];

export const pad2 = (n: number): string => String(n).padStart(2, '0');

function isoFields(ms: number): string {
  // toISOString is "YYYY-MM-DDTHH:MM:SS.sssZ"; the first 19 characters are the fields.
  return new Date(ms).toISOString().slice(0, 19);
}

/** Writes a wall time in one of the ISO 8601 forms the content format accepts. */
function formatTimestamp(wall: number, form: TimestampForm): string {
  const hour = new Date(wall).getUTCHours();
  // Naive times are read as Vienna local time; in or next to a DST switch they would be
  // ambiguous or nonexistent, so those (never generated anyway) get an explicit offset.
  if (form.startsWith('naive') && (hour === 2 || hour === 3)) form = 'offset';
  const offset = viennaOffsetHours(wall);
  switch (form) {
    case 'offset':
      return `${isoFields(wall)}+${pad2(offset)}:00`;
    case 'z':
      return `${isoFields(wall - offset * HOUR)}Z`;
    case 'z-millis':
      return new Date(wall - offset * HOUR).toISOString();
    case 'naive-space':
      return isoFields(wall).replace('T', ' ');
    case 'naive-t':
      return isoFields(wall);
    case 'naive-t-minutes':
      // Dropping the seconds would change the instant, so only for whole minutes.
      return wall % 60_000 === 0 ? isoFields(wall).slice(0, 16) : isoFields(wall);
  }
}

export function randomTimestamp(rng: Random, wall: number): string {
  return formatTimestamp(wall, rng.weighted(TIMESTAMP_FORMS));
}

/** A wall time on the given day with an hour in [fromHour, toHour], never 02:00–03:59. */
export function wallOnDay(rng: Random, day: number, fromHour: number, toHour: number, withSeconds: boolean): number {
  const hour = rng.int(Math.max(fromHour, 4), toHour);
  const minute = withSeconds ? rng.int(0, 59) : rng.pick([0, 0, 0, 15, 30, 30, 45]);
  const second = withSeconds ? rng.int(0, 59) : 0;
  return FIRST_DAY + day * DAY + hour * HOUR + minute * 60_000 + second * 1000;
}
