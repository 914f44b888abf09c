// Time-zone arithmetic on top of Intl, so any IANA zone works without a tz database of our own.
import type { Instant } from '../model/types.ts';
import { offsetAt, offsetFormatter } from './offsets.ts';

export { offsetAt } from './offsets.ts';

/** The canonical zone names ICU knows: a list far cheaper to make than a first formatter (which loads ICU's formatting data). */
let canonicalZones: ReadonlySet<string> | null = null;

export function isValidZone(zone: string): boolean {
  if (typeof zone !== 'string' || zone === '') return false;
  // a canonical name is valid without a formatter: a process or isolate that answers nothing
  // in the site's local time (a text filter) never starts ICU's formatting; aliases ("UTC",
  // "Asia/Calcutta") and other spellings are asked of a formatter, as Intl takes them
  canonicalZones ??= new Set(typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : []);
  if (canonicalZones.has(zone)) return true;
  try {
    offsetFormatter(zone);
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

function fieldsAsUtc(t: LocalTime): number {
  const d = new Date(0);
  d.setUTCFullYear(t.year, t.month - 1, t.day);
  d.setUTCHours(t.hour, t.minute, t.second, t.millisecond);
  return d.getTime();
}

const pad = (n: number, width = 2) => String(Math.abs(n)).padStart(width, '0');

function formatOffset(offsetMs: number): string {
  // Python's isoformat() as used by DRF: UTC is written `Z` (DRF rewrites `+00:00`), and an
  // offset with seconds (local mean time, e.g. Berlin's +00:53:28 before 1893) keeps them, so the
  // text names the exact instant and parses back to it.
  if (offsetMs === 0) return 'Z';
  const seconds = Math.round(Math.abs(offsetMs) / 1000);
  const hhmm = `${offsetMs < 0 ? '-' : '+'}${pad(Math.floor(seconds / 3600))}:${pad(Math.floor(seconds / 60) % 60)}`;
  return seconds % 60 ? `${hhmm}:${pad(seconds % 60)}` : hhmm;
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
