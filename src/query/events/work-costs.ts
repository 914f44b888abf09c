// Units of work the filters count for the loops a request's parameters size (a unit is about a
// nanosecond of CPU: bench/work-units.ts measures each; work-budget.ts says why work is counted).
// Each is charged for the work as it is sized, whether or not a cache of an index spares some of
// it, so that the same request costs the same on every answer.
export const WORK = {
  /** a distinct value tested with a string search (includes, startsWith, a literal of a pattern) */
  search: 30,
  /** … and per 16 characters searched */
  searchSixteen: 8,
  /**
   * a distinct value's text tested by a text lookup: its string made when first read (a column's
   * strings are sliced from its decoded text on first use and kept, string-table.ts), the read of
   * its first characters (a long column's text is far larger than the CPU's caches) and the call
   */
  text: 160,
  /** … and per 16 characters the test steps over (a substring search visits about one a nanosecond) */
  textSixteen: 20,
  /** a distinct value visited by a scan or a candidate list (its rows checked against the range) */
  value: 10,
  /** a candidate row sieved by a condition */
  candidate: 6,
  /** a row gathered into a result, or a value's row list joined to it */
  row: 4,
  /** a trigram of a query looked up in the index */
  trigram: 150,
  /** a posting decoded from a trigram's list, or a candidate checked against one */
  posting: 12,
  /** a 32-bit word of a bit set combined or scanned */
  word: 3,
  /** an id of `categories`/`groups`, read and looked up */
  id: 400,
} as const;

/** Units of a string search over `length` characters (the value's, plus the needle's). */
export function searchCost(length: number): number {
  return WORK.search + ((length * WORK.searchSixteen) >>> 4);
}

/** Units of a lookup's test of one value, stepping over `length` characters (work-costs' `text`). */
export function textCost(length: number): number {
  return WORK.text + ((length * WORK.textSixteen) >>> 4);
}
