// The site zone as a calendar needs it: offsets for the wall times of DTSTART/DTEND, and the
// offset changes a VTIMEZONE lists, both from the one transition table of src/time/offsets.ts,
// so the calendar cannot contradict itself. The VTIMEZONE covers the years the events use (each
// with a year to spare on either side), not the span between them: one event in year 1 and
// one in 9999 make two short spans, not ten thousand years of changes.
import { changesBetween, offsetAt, startOfYear, type OffsetChange } from '../../time/offsets.ts';
import { END_INSTANT, FIRST_INSTANT } from '../../time/range.ts';

export type { OffsetChange } from '../../time/offsets.ts';

/** A stretch of time the VTIMEZONE describes. */
export interface OffsetSpan {
  /** where it starts: 1 January (UTC) a year before the first year it covers */
  from: number;
  /** the offset in force at `from` */
  initial: number;
  /** the changes after `from`, up to the end of the year after the last it covers */
  changes: readonly OffsetChange[];
}

/** A wall-time jump back larger than any the tz database has (Alaska's in 1867: nearly a day). */
const LONGEST_REPEAT = 2 * 86_400_000;

/** Runs of UTC years, each year widened by one on either side; runs that touch are joined. */
function yearRuns(instants: readonly number[]): [number, number][] {
  const years = [...new Set(instants.map((t) => new Date(t).getUTCFullYear()))].sort((a, b) => a - b);
  const runs: [number, number][] = [];
  for (const year of years) {
    const last = runs.at(-1);
    if (last && year - 1 <= last[1] + 1) last[1] = year + 1;
    else runs.push([year - 1, year + 1]);
  }
  return runs;
}

export class ZoneOffsets {
  private described?: readonly OffsetSpan[];

  /** Covers the years of `instants`, with a year to spare on either side. */
  constructor(
    readonly zone: string,
    private readonly instants: readonly number[],
  ) {}

  /** The spans a VTIMEZONE lists; found when first asked, as a calendar of all-day events needs none. */
  get spans(): readonly OffsetSpan[] {
    this.described ??= yearRuns(this.instants).map(([first, last]) => this.span(startOfYear(first), startOfYear(last + 1)));
    return this.described;
  }

  private span(start: number, end: number): OffsetSpan {
    // An observance's onset is written as a wall time, which needs a year in 1…9999.
    const firstWall = FIRST_INSTANT - offsetAt(FIRST_INSTANT, this.zone);
    const from = Math.max(start, firstWall);
    const changes = changesBetween(from, end, this.zone).filter((c) => c.at + c.from < END_INSTANT);
    return { from, initial: offsetAt(from, this.zone), changes };
  }

  offset(t: number): number {
    return offsetAt(t, this.zone);
  }

  /** The wall-clock time at `t`, as a Date whose UTC fields are the local ones. */
  wall(t: number): Date {
    return new Date(t + this.offset(t));
  }

  /** Whether the wall-clock time at `t` occurs twice, a change back having repeated it. */
  isRepeated(t: number): boolean {
    return changesBetween(t - LONGEST_REPEAT, t + LONGEST_REPEAT, this.zone).some(
      (c) => c.to < c.from && t >= c.at - (c.from - c.to) && t < c.at + (c.from - c.to),
    );
  }
}
