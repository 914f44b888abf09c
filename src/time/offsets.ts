// A zone's UTC offsets as a table of transitions, found through Intl and then looked up by
// arithmetic. Intl has no API for transitions, so they are found by sampling and bisection, in
// chunks of 63 days that are computed when first asked for and kept: the work is bounded by the
// chunks the data touches, never by the span of years between two timestamps.
//
// Two facts of the tz database bound it further, whatever the data:
// - No zone changes its offset before 1800 (every zone starts with local mean time, and the
//   earliest change in the database is at the end of 1844), so every earlier instant has the
//   offset in force at 1800.
// - From 2100 on, every zone follows its last rule for ever, and such rules ("last Sunday of
//   March") repeat with the Gregorian calendar every 400 years (146,097 days, a whole number of
//   weeks). Offsets from 2500 on are those of the same instant 400·k years earlier.
// So at most the chunks of 1800…2500 are ever asked of Intl; offsets.test.ts checks both facts
// against Intl for every zone.
import type { Instant } from '../model/types.ts';

const SECOND = 1000;
const DAY = 86_400_000;
/**
 * Samples are this far apart. A period shorter than the step can fall between two samples and
 * be missed; the shortest in the full tz database lasts 3.99 days (Africa/Freetown, 1939), the
 * shortest in the data Node's ICU carries 7 (America/Noronha 2000, Gaza's predicted Ramadan
 * breaks), so every period is seen.
 */
const STEP = 3 * DAY;
/** A divisor of the 400-year cycle (146,097 = 3³·7·773 days) and a multiple of STEP. */
const CHUNK = 63 * DAY;
const CYCLE = 146_097 * DAY;
const CHUNKS_PER_CYCLE = CYCLE / CHUNK;

/** An instant of a (possibly small) year's 1 January, UTC; Date.UTC would read 0…99 as 19xx. */
export function startOfYear(year: number): number {
  const d = new Date(0);
  d.setUTCFullYear(year, 0, 1);
  return d.getTime();
}

/** Chunks before this one all have the offset at its start. */
const PAST_CHUNK = Math.floor(startOfYear(1800) / CHUNK);
/** Chunks from here on repeat those one cycle earlier; [FOLD_BASE, FOLD_BASE + a cycle) is computed. */
const FOLD_BASE = Math.ceil(startOfYear(2100) / CHUNK);
const FOLD_END = FOLD_BASE + CHUNKS_PER_CYCLE;

export interface OffsetChange {
  /** the first instant with the new offset */
  at: number;
  from: number;
  to: number;
}

interface Chunk {
  /** the offset at the chunk's start */
  initial: number;
  /** changes after the start, up to and including the next chunk's start, in order */
  changes: OffsetChange[];
}

const offsetFormatters = new Map<string, Intl.DateTimeFormat>();

/** A formatter that writes the zone's offset, e.g. `1/1/1, GMT+00:53:28`; throws for an unknown zone. */
export function offsetFormatter(zone: string): Intl.DateTimeFormat {
  let f = offsetFormatters.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', { timeZone: zone, timeZoneName: 'longOffset' });
    offsetFormatters.set(zone, f);
  }
  return f;
}

/**
 * Makes the zone's formatter now. The first formatter of a process loads ICU's zone data, which
 * the first request whose dates are in the zone would otherwise pay.
 */
export function warmZone(zone: string): void {
  offsetFormatter(zone).format(0);
}

const GMT = /GMT(?:([+-])(\d{2}):(\d{2})(?::(\d{2}))?)?$/;

/** The offset Intl reports for the whole second of `t` (several microseconds a call). */
export function intlOffset(t: Instant, zone: string): number {
  const m = GMT.exec(offsetFormatter(zone).format(Math.floor(t / SECOND) * SECOND));
  if (!m) throw new Error(`no UTC offset for ${zone} at ${t}`);
  if (m[1] === undefined) return 0;
  const ms = ((Number(m[2]) * 60 + Number(m[3])) * 60 + Number(m[4] ?? 0)) * SECOND;
  return m[1] === '-' ? -ms : ms;
}

/** The first whole second in (lo, hi] with the offset of hi; lo and hi are whole seconds. */
function changeBetween(lo: number, hi: number, target: number, zone: string): number {
  while (hi - lo > SECOND) {
    const mid = lo + Math.floor((hi - lo) / (2 * SECOND)) * SECOND;
    if (intlOffset(mid, zone) === target) hi = mid;
    else lo = mid;
  }
  return hi;
}

/** The changes in (lo, hi] between two samples of different offsets, oldest first. */
function changesBetweenSamples(lo: number, loOffset: number, hi: number, hiOffset: number, zone: string, out: OffsetChange[]): void {
  const at = changeBetween(lo, hi, hiOffset, zone);
  const before = intlOffset(at - SECOND, zone);
  // Two changes between the samples (A→B→C): the bisection found the last; look before it.
  if (before !== loOffset && at - SECOND > lo) changesBetweenSamples(lo, loOffset, at - SECOND, before, zone, out);
  out.push({ at, from: before, to: hiOffset });
}

function computeChunk(index: number, zone: string): Chunk {
  const start = index * CHUNK;
  const initial = intlOffset(start, zone);
  const changes: OffsetChange[] = [];
  let [t, offset] = [start, initial];
  while (t < start + CHUNK) {
    const next = t + STEP;
    const nextOffset = intlOffset(next, zone);
    if (nextOffset !== offset) changesBetweenSamples(t, offset, next, nextOffset, zone, changes);
    [t, offset] = [next, nextOffset];
  }
  return { initial, changes };
}

/** zone → canonical chunk index → chunk; at most FOLD_END − PAST_CHUNK (about 4,000) per zone */
const chunks = new Map<string, Map<number, Chunk>>();

/**
 * A zone's changes over a span of whole chunks [first, end), as Intl gave them where they were
 * found (the build's): the chunks of the span are made from it, not asked of Intl. The first
 * formatter of a process loads ICU's formatting data, which costs an edge isolate more than the
 * rest of its first answer to a date filter; with the table, a date in the span needs none.
 */
interface ZoneTable {
  first: number;
  end: number;
  /** the offset at the span's start */
  initial: number;
  /** the changes in the span, oldest first (each's `from` the one before's `to`) */
  changes: OffsetChange[];
}

/** zone → its table: as given (read when a chunk is first made from it), read, or null (not a table: Intl is asked) */
const tables = new Map<string, string | ZoneTable | null>();

/** The table's span: the years dates are asked in; earlier and later ones are asked of Intl. */
const TABLE_YEARS = [1900, 2100] as const;

/**
 * The zone's changes over TABLE_YEARS as zoneTable text: `first end initial` (chunk indexes, the
 * offset in seconds), then `at:to` per change (seconds since the epoch, the offset in seconds).
 */
export function zoneTableText(zone: string): string {
  const first = Math.floor(startOfYear(TABLE_YEARS[0]) / CHUNK);
  const end = Math.min(FOLD_BASE, Math.ceil(startOfYear(TABLE_YEARS[1]) / CHUNK));
  const parts = [`${first} ${end} ${offsetAt(first * CHUNK, zone) / SECOND}`];
  for (const c of changesBetween(first * CHUNK, end * CHUNK, zone)) parts.push(`${c.at / SECOND}:${c.to / SECOND}`);
  return parts.join(' ');
}

/** An integer of up to 12 digits, or NaN. */
function integer(word: string): number {
  const n = word.length > 0 && word.length <= 13 ? Number(word) : NaN;
  return Number.isInteger(n) && word.trim() === word ? n : NaN;
}

/** zoneTableText's text read back, or null when it is not such a text. */
function readZoneTable(text: string): ZoneTable | null {
  const words = text.split(' ');
  if (words.length < 3) return null;
  const first = integer(words[0]);
  const end = integer(words[1]);
  const initial = integer(words[2]);
  // (NaN fails every comparison)
  if (!(first >= PAST_CHUNK && end <= FOLD_BASE && first < end && initial === initial)) return null;
  const changes: OffsetChange[] = [];
  let at = first * CHUNK;
  let offset = initial * SECOND;
  for (let i = 3; i < words.length; i++) {
    const word = words[i];
    const colon = word.indexOf(':');
    const next = integer(word.slice(0, colon)) * SECOND;
    const to = integer(word.slice(colon + 1)) * SECOND;
    if (colon === -1 || !(next > at && next <= end * CHUNK && to === to)) return null;
    changes.push({ at: next, from: offset, to });
    at = next;
    offset = to;
  }
  return { first, end, initial: initial * SECOND, changes };
}


/**
 * Takes the zone's chunks in the table's span from `text` (zoneTableText) from now on: read when
 * a chunk is first asked for (an answer without a date reads nothing of it); a text that is not a
 * table is set aside then, and Intl asked as without one.
 */
export function useZoneTable(zone: string, text: string | undefined): void {
  if (tableTexts.get(zone) === text) return;
  // another dist's table, or none: the chunks made before (of a table or of Intl) are not this one's
  chunks.delete(zone);
  if (text === undefined) {
    tableTexts.delete(zone);
    tables.delete(zone);
  } else {
    tableTexts.set(zone, text);
    tables.set(zone, text);
  }
}

/** zone → the text of the table in use (useZoneTable) */
const tableTexts = new Map<string, string>();

/** The zone's table, read when first asked for; null when it has none. */
function tableOf(zone: string): ZoneTable | null {
  let table = tables.get(zone);
  if (table === undefined) return null;
  if (typeof table === 'string') tables.set(zone, (table = readZoneTable(table)));
  return table;
}

/** Chunk `index` (within the table's span) from the table: as computeChunk makes it from Intl. */
function chunkOfTable(t: ZoneTable, index: number): Chunk {
  const start = index * CHUNK;
  // the first change after the chunk's start: the offset at the start is the one before it
  let lo = 0;
  let hi = t.changes.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (t.changes[mid].at <= start) lo = mid + 1;
    else hi = mid;
  }
  const initial = lo === 0 ? t.initial : t.changes[lo - 1].to;
  const changes: OffsetChange[] = [];
  for (let k = lo; k < t.changes.length && t.changes[k].at <= start + CHUNK; k++) changes.push(t.changes[k]);
  return { initial, changes };
}

/** A chunk and the shift (a whole number of cycles) from its canonical twin, whose times it holds. */
function chunkAt(index: number, zone: string): [Chunk, number] {
  let canonical = index;
  if (index < PAST_CHUNK) canonical = PAST_CHUNK - 1;
  else if (index >= FOLD_END) canonical = FOLD_BASE + ((index - FOLD_BASE) % CHUNKS_PER_CYCLE);
  let byIndex = chunks.get(zone);
  if (!byIndex) chunks.set(zone, (byIndex = new Map()));
  let chunk = byIndex.get(canonical);
  if (!chunk) {
    const table = tableOf(zone);
    if (table !== null && canonical >= table.first && canonical < table.end) chunk = chunkOfTable(table, canonical);
    else {
      chunk = canonical < PAST_CHUNK ? { initial: intlOffset(PAST_CHUNK * CHUNK, zone), changes: [] } : computeChunk(canonical, zone);
      asked.set(zone, (asked.get(zone) ?? 0) + 1);
    }
    byIndex.set(canonical, chunk);
  }
  return [chunk, index < PAST_CHUNK ? 0 : (index - canonical) * CHUNK];
}

/** zone → chunks asked of Intl */
const asked = new Map<string, number>();

/** How many chunks of the zone have been asked of Intl: what the table's work is bounded by. */
export function computedChunks(zone: string): number {
  return asked.get(zone) ?? 0;
}

/** The zone's offset from UTC at an instant, in milliseconds (east positive). */
export function offsetAt(t: Instant, zone: string): number {
  const [chunk, shift] = chunkAt(Math.floor(t / CHUNK), zone);
  const local = t - shift;
  let offset = chunk.initial;
  for (const c of chunk.changes) {
    if (c.at > local) break;
    offset = c.to;
  }
  return offset;
}

/** The zone's offset changes in (from, to], oldest first. */
export function changesBetween(from: Instant, to: Instant, zone: string): OffsetChange[] {
  const found: OffsetChange[] = [];
  // A chunk holds the changes in (its start, the next chunk's start].
  for (let index = Math.floor(from / CHUNK); index * CHUNK < to; index++) {
    const [chunk, shift] = chunkAt(index, zone);
    for (const c of chunk.changes) {
      const at = c.at + shift;
      if (at > from && at <= to) found.push(shift === 0 ? c : { at, from: c.from, to: c.to });
    }
  }
  return found;
}
