// The value forms of RFC 5545 dates and a VTIMEZONE written from a zone's real offset changes.
// Each change is its own STANDARD or DAYLIGHT observance (no RRULE): exact for any zone in any
// year, where a rule holds only while the zone's law does.
import { escapeText, type ContentLines } from './lines.ts';
import { startOfYear } from '../../time/offsets.ts';
import type { ZoneOffsets } from './zone-offsets.ts';

const pad = (n: number, width = 2) => String(n).padStart(width, '0');
/** 0…99 in two digits: a feed writes a date or time per entry, whose fields are all in range. */
const TWO_DIGITS = Array.from({ length: 100 }, (_, n) => pad(n));
const two = (n: number) => TWO_DIGITS[n] ?? pad(n);
const four = (year: number) => (year >= 1000 && year <= 9999 ? String(year) : pad(year, 4));

/** `YYYYMMDD` of a Date read as UTC. */
export function dateValue(d: Date): string {
  return four(d.getUTCFullYear()) + two(d.getUTCMonth() + 1) + two(d.getUTCDate());
}

/** `YYYYMMDDTHHMMSS` of a Date read as UTC (DATE-TIME has no fraction of a second). */
export function dateTimeValue(d: Date): string {
  return `${dateValue(d)}T${two(d.getUTCHours())}${two(d.getUTCMinutes())}${two(d.getUTCSeconds())}`;
}

export const utcValue = (epochMs: number) => `${dateTimeValue(new Date(epochMs))}Z`;

/** A UTC-OFFSET (§3.3.14): ±hhmm, with seconds only when there are some (old mean times). */
function offsetValue(ms: number): string {
  const total = Math.round(Math.abs(ms) / 1000);
  const seconds = total % 60;
  return `${ms < 0 ? '-' : '+'}${pad(Math.floor(total / 3600))}${pad(Math.floor(total / 60) % 60)}${seconds ? pad(seconds) : ''}`;
}

/** 1 January and 1 July of a year, UTC (Date.UTC would read years 0…99 as 19xx). */
function janAndJuly(year: number): [number, number] {
  const d = new Date(0);
  d.setUTCFullYear(year, 6, 1);
  return [startOfYear(year), d.getTime()];
}

/** DAYLIGHT when the offset is above the year's standard one: the smaller of January's and July's. */
function isDaylight(zone: ZoneOffsets, at: number, offset: number): boolean {
  const [january, july] = janAndJuly(new Date(at).getUTCFullYear());
  return offset > Math.min(zone.offset(january), zone.offset(july));
}

/** The VTIMEZONE of the table: for each span, the offset in force where it starts, then every change. */
export function writeVtimezone(out: ContentLines, zone: ZoneOffsets): void {
  out.add('BEGIN', 'VTIMEZONE').add('TZID', escapeText(zone.zone));
  for (const span of zone.spans) {
    const observances = [{ at: span.from, from: span.initial, to: span.initial }, ...span.changes];
    for (const o of observances) {
      const kind = isDaylight(zone, o.at, o.to) ? 'DAYLIGHT' : 'STANDARD';
      // An onset is written in the wall time in force before it (§3.6.5).
      out
        .add('BEGIN', kind)
        .add('DTSTART', dateTimeValue(new Date(o.at + o.from)))
        .add('TZOFFSETFROM', offsetValue(o.from))
        .add('TZOFFSETTO', offsetValue(o.to))
        .add('END', kind);
    }
  }
  out.add('END', 'VTIMEZONE');
}
