// Time-zone arithmetic on top of Intl, so any IANA zone works without a tz database of our own.
import type { Instant } from '../model/types.ts';

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(zone: string): Intl.DateTimeFormat {
  let f = formatters.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
      era: 'short',
    });
    formatters.set(zone, f);
  }
  return f;
}

export function isValidZone(zone: string): boolean {
  if (typeof zone !== 'string' || zone === '') return false;
  try {
    formatterFor(zone);
    return true;
  } catch {
    return false;
  }
}

/** Wall-clock fields of a local time. Months are 1-based. */
export interface LocalTime {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  millisecond: number;
}

function localFields(epochMs: Instant, zone: string): LocalTime {
  const whole = Math.floor(epochMs / 1000) * 1000;
  const parts = formatterFor(zone).formatToParts(new Date(whole));
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value);
  const era = parts.find((p) => p.type === 'era')?.value;
  let year = get('year');
  if (era === 'BC' || era === 'B') year = 1 - year;
  return {
    year,
    month: get('month'),
    day: get('day'),
    hour: get('hour'),
    minute: get('minute'),
    second: get('second'),
    millisecond: epochMs - whole,
  };
}

function fieldsAsUtc(t: LocalTime): number {
  const d = new Date(0);
  d.setUTCFullYear(t.year, t.month - 1, t.day);
  d.setUTCHours(t.hour, t.minute, t.second, t.millisecond);
  return d.getTime();
}

function rawOffset(epochMs: Instant, zone: string): number {
  const whole = Math.floor(epochMs / 1000) * 1000;
  return fieldsAsUtc(localFields(whole, zone)) - whole;
}

const HOUR = 3_600_000;
/** zone → hour number → the offset in force for the whole hour, or NaN when it changes within it */
const hourOffsets = new Map<string, Map<number, number>>();

/**
 * The zone's offset from UTC at an instant, in milliseconds (east positive). Intl costs several
 * microseconds a call, and builds format hundreds of thousands of timestamps, so offsets are
 * remembered per hour; an hour holding a transition is asked of Intl every time.
 */
export function offsetAt(epochMs: Instant, zone: string): number {
  let hours = hourOffsets.get(zone);
  if (!hours) hourOffsets.set(zone, (hours = new Map()));
  const hour = Math.floor(epochMs / HOUR);
  let offset = hours.get(hour);
  if (offset === undefined) {
    const first = rawOffset(hour * HOUR, zone);
    offset = first === rawOffset(hour * HOUR + HOUR - 1000, zone) ? first : NaN;
    if (hours.size > 500_000) hours.clear();
    hours.set(hour, offset);
  }
  return Number.isNaN(offset) ? rawOffset(epochMs, zone) : offset;
}

const pad = (n: number, width = 2) => String(Math.abs(n)).padStart(width, '0');

function formatOffset(offsetMs: number): string {
  // Python's isoformat() as used by DRF: UTC is written `Z` (DRF rewrites `+00:00`).
  if (offsetMs === 0) return 'Z';
  const minutes = Math.round(Math.abs(offsetMs) / 60000);
  return `${offsetMs < 0 ? '-' : '+'}${pad(Math.floor(minutes / 60))}:${pad(minutes % 60)}`;
}

/**
 * ISO 8601 as DRF's DateTimeField writes it: local wall time of the zone plus that instant's
 * offset, seconds always present, a fraction only when there is one (as microseconds, like Python).
 */
export function formatInstant(epochMs: Instant, zone: string): string {
  const offset = offsetAt(epochMs, zone);
  const l = new Date(epochMs + offset);
  const y = l.getUTCFullYear();
  const year = y >= 0 && y <= 9999 ? pad(y, 4) : String(y);
  const ms = l.getUTCMilliseconds();
  const fraction = ms ? `.${pad(ms, 3)}000` : '';
  return `${year}-${pad(l.getUTCMonth() + 1)}-${pad(l.getUTCDate())}T${pad(l.getUTCHours())}:${pad(l.getUTCMinutes())}:${pad(l.getUTCSeconds())}${fraction}${formatOffset(offset)}`;
}

export type LocalResolution =
  | { ok: true; epochMs: Instant }
  | { ok: false; reason: 'nonexistent' | 'ambiguous' };

/**
 * Resolves a wall-clock time in a zone to the one instant it names. A time skipped by a DST change
 * does not exist and one repeated by it is ambiguous; both are refused rather than guessed, as
 * Django does with `is_dst=None`.
 */
export function localToInstant(t: LocalTime, zone: string): LocalResolution {
  const asUtc = fieldsAsUtc(t);
  const day = 86_400_000;
  const candidates = new Set<number>();
  for (const probe of [asUtc - day, asUtc, asUtc + day]) {
    const instant = asUtc - offsetAt(probe, zone);
    if (offsetAt(instant, zone) === asUtc - instant) candidates.add(instant);
  }
  if (candidates.size === 1) return { ok: true, epochMs: [...candidates][0] };
  return { ok: false, reason: candidates.size === 0 ? 'nonexistent' : 'ambiguous' };
}

/** Days in a month of the proleptic Gregorian calendar; month is 1-based. */
export function daysInMonth(year: number, month: number): number {
  const d = new Date(0);
  d.setUTCFullYear(year, month, 0);
  return d.getUTCDate();
}
