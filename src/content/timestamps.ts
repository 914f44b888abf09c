// parseTimestamp with a memo for naive (offset-less) times. parseTimestamp resolves those
// through Intl (~90 µs each), which made timestamps one of the largest costs of a 100,000
// event build. Here each local day is resolved once per zone: when its first and last instant
// resolve to one offset, the whole day has it, and any naive time that day is then parsed with
// that offset written out, through the parser's fast offset path. That inference assumes no two
// offset changes within a day, which is the assumption localToInstant (src/time/zone.ts) makes
// anyway with its ±1 day probes, so results are always parseTimestamp's own; days with a change,
// and anything unusual, go to parseTimestamp unchanged. timestamps.test.ts checks this around
// DST changes. (A memo inside src/time would serve every caller, rendering included.)
import { atOffset, parseByPattern, parseTimestamp, readFixed, type TimestampParse } from '../time/parse.ts';

const LOCAL_DATE_TIME = /^(\d{4}-\d{2}-\d{2})[T ]\d/;
const HAS_OFFSET = /(?:Z|[+-]\d{2}(?::\d{2}(?::\d{2})?|\d{2})?)$/;

/** A day's one offset: as `±hh:mm`, and in milliseconds. */
interface DayOffset {
  text: string;
  ms: number;
}

/** `${zone} ${date}` → that day's offset, or null when it is not one offset (the other forms). */
const dayOffsets = new Map<string, DayOffset | null>();
/** The same for readFixed's forms, by zone and day number (days since 1970 of the wall time): no key string to make. */
const dayOffsetsByNumber = new Map<string, Map<number, DayOffset | null>>();

export function readTimestamp(text: string, zone: string): TimestampParse {
  // the common form (parse.ts readFixed), its day's offset applied as a number: the same instant
  // parseTimestamp finds with the offset written out, without writing it out and reading it back
  // (readFixed has read `text` here, or refused it: what parseTimestamp would do next is the
  // pattern, so the fallbacks below go there, not through readFixed again)
  const fixed = readFixed(text);
  if (fixed !== undefined) {
    if (fixed.offsetMs !== null) return atOffset(fixed.wallMs, fixed.offsetMs, zone);
    let byDay = dayOffsetsByNumber.get(zone);
    if (byDay === undefined) dayOffsetsByNumber.set(zone, (byDay = new Map()));
    const dayNumber = Math.floor(fixed.wallMs / 86_400_000);
    let offset = byDay.get(dayNumber);
    if (offset === undefined) byDay.set(dayNumber, (offset = uniformOffset(text.slice(0, 10), zone)));
    if (offset === null) return parseByPattern(text, zone);
    const r = atOffset(fixed.wallMs, offset.ms, zone);
    return r.ok ? r : parseByPattern(text, zone);
  }
  const m = LOCAL_DATE_TIME.exec(text);
  if (!m || HAS_OFFSET.test(text)) return parseByPattern(text, zone);
  const offset = dayOffset(m[1], zone);
  if (offset === null) return parseByPattern(text, zone);
  const r = parseTimestamp(text + offset.text, zone);
  return r.ok ? r : parseByPattern(text, zone);
}

function dayOffset(date: string, zone: string): DayOffset | null {
  const key = `${zone} ${date}`;
  let offset = dayOffsets.get(key);
  if (offset === undefined) {
    offset = uniformOffset(date, zone);
    dayOffsets.set(key, offset);
  }
  return offset;
}

function uniformOffset(date: string, zone: string): DayOffset | null {
  const first = offsetOf(`${date}T00:00:00`, zone);
  const last = offsetOf(`${date}T23:59:59.999`, zone);
  // The ISO grammar only writes whole-minute offsets (old local mean times have seconds).
  // (nor offsets of a day or more, which it refuses)
  if (first === null || first !== last || first % 60_000 !== 0 || Math.abs(first) >= 86_400_000) return null;
  const minutes = Math.abs(first) / 60_000;
  const pad = (n: number) => String(n).padStart(2, '0');
  return { text: `${first < 0 ? '-' : '+'}${pad(Math.floor(minutes / 60))}:${pad(minutes % 60)}`, ms: first };
}

/** The zone's offset at a local time, or null when that time is invalid, skipped or repeated. */
function offsetOf(local: string, zone: string): number | null {
  const inZone = parseTimestamp(local, zone);
  const asUtc = parseTimestamp(`${local}Z`, zone);
  return inZone.ok && asUtc.ok ? asUtc.epochMs - inZone.epochMs : null;
}
