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
