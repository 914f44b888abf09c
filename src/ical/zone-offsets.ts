// A zone's UTC offsets over a span of years, found once through Intl and then looked up by
// arithmetic. The VTIMEZONE and every DTSTART/DTEND are written from this one table, so the
// calendar cannot contradict itself, and rendering a thousand events costs no Intl call each.
import { offsetAt } from '../time/zone.ts';

const DAY = 86_400_000;

export interface OffsetChange {
  /** the first instant with the new offset */
  at: number;
  from: number;
  to: number;
}

/** The first instant in (lo, hi] with the offset of hi, to the second. */
function changeBetween(lo: number, hi: number, zone: string): number {
  const target = offsetAt(hi, zone);
  while (hi - lo > 1000) {
    const mid = lo + Math.floor((hi - lo) / 2000) * 1000;
    if (offsetAt(mid, zone) === target) hi = mid;
    else lo = mid;
  }
  return hi;
}

const byYear = new Map<string, OffsetChange[]>();

/** The changes of one (UTC) year, by daily samples: no zone has changed twice within a day. */
function changesIn(zone: string, year: number): OffsetChange[] {
  const key = `${zone} ${year}`;
  let found = byYear.get(key);
  if (found) return found;
  found = [];
  const end = Date.UTC(year + 1, 0, 1);
  let t = Date.UTC(year, 0, 1);
  let prev = offsetAt(t, zone);
  while (t < end) {
    const next = Math.min(t + DAY, end);
    const offset = offsetAt(next, zone);
    if (offset !== prev) found.push({ at: changeBetween(t, next, zone), from: prev, to: offset });
    [t, prev] = [next, offset];
  }
  if (byYear.size > 1000) byYear.clear();
  byYear.set(key, found);
  return found;
}

export class ZoneOffsets {
  /** where the table starts: 1 January (UTC) a year before the span */
  readonly from: number;
  /** the offset in force at `from` */
  readonly initial: number;
  readonly changes: readonly OffsetChange[];

  /** Covers [fromMs, toMs] with a year to spare on either side. */
  constructor(
    readonly zone: string,
    fromMs: number,
    toMs: number,
  ) {
    const first = new Date(fromMs).getUTCFullYear() - 1;
    const last = new Date(toMs).getUTCFullYear() + 1;
    this.from = Date.UTC(first, 0, 1);
    this.initial = offsetAt(this.from, zone);
    const changes: OffsetChange[] = [];
    for (let year = first; year <= last; year++) changes.push(...changesIn(zone, year));
    this.changes = changes;
  }

  offset(t: number): number {
    let lo = 0;
    let hi = this.changes.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.changes[mid].at <= t) lo = mid + 1;
      else hi = mid;
    }
    return lo === 0 ? this.initial : this.changes[lo - 1].to;
  }

  /** The wall-clock time at `t`, as a Date whose UTC fields are the local ones. */
  wall(t: number): Date {
    return new Date(t + this.offset(t));
  }

  /** Whether the wall-clock time at `t` occurs twice, a change back having repeated it. */
  isRepeated(t: number): boolean {
    return this.changes.some((c) => c.to < c.from && t >= c.at - (c.from - c.to) && t < c.at + (c.from - c.to));
  }
}
