// The last costly filter results of one table, by filter. Paging through a filtered list asks the
// same filter again with another offset, and a filter that combines conditions (`dfp_points__gte`
// with `register`) sieves tens of thousands of candidates each time for a page of twenty; the
// response cache cannot help, since every page is a different URL. Results are immutable row
// sets, so a hit is shared as it is.
//
// Only results that took a sieve over many candidates are kept (the rest are views of indexes,
// or cheaper to recompute than to hold), within a bound on entries and on rows held in all.
import type { Matches } from './matches.ts';

/** Results whose sieves tested fewer candidates than this are not kept. */
export const MIN_SIEVED = 2048;

export class ResultCache {
  private readonly map = new Map<string, Matches>();
  private rows = 0;

  constructor(
    private readonly maxEntries: number,
    private readonly maxRows: number,
  ) {}

  get(key: string): Matches | undefined {
    const hit = this.map.get(key);
    if (hit) {
      // Map iteration order is the recency order
      this.map.delete(key);
      this.map.set(key, hit);
    }
    return hit;
  }

  /** Keeps `matches` (held as one array of `count` rows) if recomputing it tested `sieved` candidates or more. */
  offer(key: string, matches: Matches, sieved: number): void {
    if (sieved < MIN_SIEVED || matches.count > this.maxRows / 4 || this.map.has(key)) return;
    this.map.set(key, matches);
    this.rows += matches.count;
    for (const [k, m] of this.map) {
      if (this.map.size <= this.maxEntries && this.rows <= this.maxRows) break;
      this.map.delete(k);
      this.rows -= m.count;
    }
  }

  get size(): number {
    return this.map.size;
  }
}
