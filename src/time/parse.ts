// Parsing of timestamps written by people (content files) and by clients (query parameters).
import type { Instant } from '../model/types.ts';
import { isWritable } from './range.ts';
import { daysInMonth, localToInstant, type LocalTime } from './zone.ts';

// Django's parse_datetime grammar (date, `T` or space, h:m[:s[.frac]], optional Z/±hh[:mm]),
// extended with a date-only form that means local midnight, and with offsets in seconds
// (±hh:mm:ss, as Python's fromisoformat reads and isoformat writes for local mean times).
const ISO = /^(\d{4})-(\d{1,2})-(\d{1,2})(?:[T ](\d{1,2}):(\d{1,2})(?::(\d{1,2})(?:[.,](\d{1,6})\d{0,6})?)?\s*(Z|[+-]\d{2}(?::\d{2}(?::\d{2})?|\d{2})?)?)?$/;

/**
 * `range`: a valid timestamp outside what the API can write (a year outside 1…9999 in UTC or in
 * the zone; src/time/range.ts). Python's datetime cannot hold it either.
 */
export type TimestampParse =
  | { ok: true; epochMs: Instant; dateOnly: boolean }
  | { ok: false; reason: 'invalid' | 'nonexistent' | 'ambiguous' | 'range'; local?: string };

/** Parses an ISO 8601 timestamp; a value without offset is wall time in `zone`. */
export function parseTimestamp(text: string, zone: string): TimestampParse {
  const fixed = readFixed(text);
  if (fixed !== undefined && fixed.offsetMs !== null) return atOffset(fixed.wallMs, fixed.offsetMs, zone);
  return parseByPattern(text, zone);
}

/** The instant of a wall time (read as if UTC) at a UTC offset, if the API can write it. */
export function atOffset(wallMs: number, offsetMs: number, zone: string): TimestampParse {
  const epochMs = wallMs - offsetMs;
  return isWritable(epochMs, zone) ? { ok: true, epochMs, dateOnly: false } : { ok: false, reason: 'range' };
}

const digit = (text: string, at: number) => {
  const c = text.charCodeAt(at) - 48;
  return c >= 0 && c <= 9 ? c : NaN;
};
const twoDigits = (text: string, at: number) => digit(text, at) * 10 + digit(text, at + 1);

/**
 * The forms nearly every timestamp in content is written in, read without the pattern (~1 µs of
 * the regular expression, its captures and two Dates, ~4 times an event): `YYYY-MM-DD`, `T` or a
 * space, `hh:mm`, optionally `:ss` and then optionally `.sss`, then nothing, `Z` or `±hh:mm`. Its
 * wall time as if it were UTC, and its offset (null: none). Undefined for anything else, or
 * anything doubtful (a year before 100, which Date.UTC would read as 19xx), which parseByPattern
 * then reads as it reads every form.
 */
export function readFixed(text: string): { wallMs: number; offsetMs: number | null } | undefined {
  const length = text.length;
  if (length < 16 || length > 29) return undefined;
  const sep = text.charCodeAt(10);
  if (text.charCodeAt(4) !== 45 || text.charCodeAt(7) !== 45 || (sep !== 84 && sep !== 32) || text.charCodeAt(13) !== 58) return undefined;
  const year = twoDigits(text, 0) * 100 + twoDigits(text, 2);
  const month = twoDigits(text, 5);
  const day = twoDigits(text, 8);
  const hour = twoDigits(text, 11);
  const minute = twoDigits(text, 14);
  let second = 0;
  let millisecond = 0;
  let at = 16;
  if (text.charCodeAt(16) === 58) {
    second = twoDigits(text, 17);
    at = 19;
    // a fraction of exactly three digits (the pattern reads others, up to twelve)
    if (text.charCodeAt(19) === 46) {
      millisecond = digit(text, 20) * 100 + twoDigits(text, 21);
      const next = text.charCodeAt(23);
      if (next >= 48 && next <= 57) return undefined;
      at = 23;
    }
  }
  // (NaN fails every comparison: a non-digit anywhere is refused here)
  if (!(year >= 100 && month >= 1 && month <= 12 && day >= 1 && day <= monthDays(year, month) && hour <= 23 && minute <= 59 && second <= 59 && millisecond >= 0)) return undefined;
  let offsetMs: number | null = null;
  const rest = length - at;
  if (rest === 1) {
    if (text.charCodeAt(at) !== 90) return undefined; // Z
    offsetMs = 0;
  } else if (rest === 6) {
    const sign = text.charCodeAt(at);
    const hh = twoDigits(text, at + 1);
    const mm = twoDigits(text, at + 4);
    if ((sign !== 43 && sign !== 45) || text.charCodeAt(at + 3) !== 58 || !(hh <= 23 && mm <= 59)) return undefined;
    offsetMs = (sign === 45 ? -1 : 1) * (hh * 60 + mm) * 60_000;
  } else if (rest !== 0) {
    return undefined;
  }
  return { wallMs: Date.UTC(year, month - 1, day, hour, minute, second, millisecond), offsetMs };
}

/** daysInMonth without a Date: the Gregorian rule. */
function monthDays(year: number, month: number): number {
  if (month !== 2) return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
  return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
}

/** parseTimestamp by the grammar's pattern, every form it allows: the reference readFixed must agree with. */
export function parseByPattern(text: string, zone: string): TimestampParse {
  const m = ISO.exec(text);
  if (!m) return { ok: false, reason: 'invalid' };
  const [, y, mo, d, h, mi, s, frac, tz] = m;
  const t: LocalTime = {
    year: Number(y),
    month: Number(mo),
    day: Number(d),
    hour: h === undefined ? 0 : Number(h),
    minute: mi === undefined ? 0 : Number(mi),
    second: s === undefined ? 0 : Number(s),
    millisecond: frac === undefined ? 0 : Math.floor(Number(frac.padEnd(6, '0')) / 1000),
  };
  if (
    t.month < 1 || t.month > 12 || t.day < 1 || t.day > daysInMonth(t.year, t.month) ||
    t.hour > 23 || t.minute > 59 || t.second > 59
  ) {
    return { ok: false, reason: 'invalid' };
  }
  const dateOnly = h === undefined;
  // Checked before resolving, so no zone arithmetic is done on years nobody can write.
  if (t.year < 1) return { ok: false, reason: 'range' };
  if (tz !== undefined) {
    const d0 = new Date(0);
    d0.setUTCFullYear(t.year, t.month - 1, t.day);
    d0.setUTCHours(t.hour, t.minute, t.second, t.millisecond);
    let offsetSec = 0;
    if (tz !== 'Z') {
      const digits = tz.slice(1).replaceAll(':', '');
      const [hh, mm, ss] = [digits.slice(0, 2), digits.slice(2, 4), digits.slice(4)].map((x) => Number(x || '0'));
      offsetSec = (hh * 60 + mm) * 60 + ss;
      if (offsetSec >= 24 * 3600 || mm > 59 || ss > 59) return { ok: false, reason: 'invalid' };
      if (tz[0] === '-') offsetSec = -offsetSec;
    }
    const epochMs = d0.getTime() - offsetSec * 1000;
    return isWritable(epochMs, zone) ? { ok: true, epochMs, dateOnly } : { ok: false, reason: 'range' };
  }
  const r = localToInstant(t, zone);
  if (r.ok) return isWritable(r.epochMs, zone) ? { ok: true, epochMs: r.epochMs, dateOnly } : { ok: false, reason: 'range' };
  const p = (n: number) => String(n).padStart(2, '0');
  const local = `${String(t.year).padStart(4, '0')}-${p(t.month)}-${p(t.day)} ${p(t.hour)}:${p(t.minute)}:${p(t.second)}`;
  return { ok: false, reason: r.reason, local };
}
