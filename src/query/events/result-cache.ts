// The last costly filter results of one table, by filter. Paging through a filtered list asks the
// same filter again with another offset, and a filter that combines conditions (`dfp_points__gte`
// with `register`) sieves tens of thousands of candidates each time for a page of twenty; the
// response cache cannot help, since every page is a different URL. Results are immutable row
// sets, so a hit is shared as it is.
//
// Only results that took a sieve over many candidates are kept (the rest are views of indexes,
// or cheaper to recompute than to hold), within a bound on entries and on rows held in all.
//
// A hit is charged the work that computing the result counted (work-budget.ts): a request costs
// the same whether or not an earlier one left its result here, so it is answered the same way.
import type { Matches } from './matches.ts';
import { charge } from '../work-budget.ts';

interface Kept {
  matches: Matches;
  /** units computing it counted, and the parameters they were charged to */
  work: number;
  what: string;
}

/** Results whose sieves tested fewer candidates than this are not kept. */
export const MIN_SIEVED = 2048;

export class ResultCache {
  private readonly map = new Map<string, Kept>();
  private rows = 0;

  constructor(
    private readonly maxEntries: number,
    private readonly maxRows: number,
  ) {}

  /** The result kept for `key`, charging the request the work computing it counted. */
  get(key: string): Matches | undefined {
    const hit = this.map.get(key);
    if (!hit) return undefined;
    // Map iteration order is the recency order
    this.map.delete(key);
    this.map.set(key, hit);
    charge(hit.work, hit.what);
    return hit.matches;
  }

  /**
   * Keeps `matches` (held as one array of `count` rows) if recomputing it tested `sieved`
   * candidates or more; `work` is what computing it counted, charged to `what`.
   */
  offer(key: string, matches: Matches, sieved: number, work = 0, what = 'filters'): void {
    if (sieved < MIN_SIEVED || heldRows(matches) > this.maxRows / 4 || this.map.has(key)) return;
    this.map.set(key, { matches, work, what });
    this.rows += heldRows(matches);
    for (const [k, m] of this.map) {
      if (this.map.size <= this.maxEntries && this.rows <= this.maxRows) break;
      this.map.delete(k);
      this.rows -= heldRows(m.matches);
    }
  }

  get size(): number {
    return this.map.size;
  }
}

/** What a result holds, in rows of 4 bytes: its list, or its bit set's words. */
const heldRows = (m: Matches) => (m.bits ? m.bits.length : m.count);
