// A string column (a text field, or the rendered ISO text of a timestamp field) prepared for the
// string lookups. Values are dictionary-encoded first: organizer, location, contact and email
// repeat a lot, so every lookup works on the distinct values and maps them back to rows (for
// unique-valued columns such as title and teaser the mapping is the identity, 12 bytes a row).
//
// Value ids follow first appearance in row order, so for a column whose values each occur once,
// ascending value ids give ascending rows and no re-sorting is needed.
import { fold } from '../fold.ts';
import { EMPTY, lowerBound, sortRows, type RowBits, type RowSet } from './rowset.ts';
import { TrigramIndex } from './trigram.ts';
import { UnionMatches, type Matches } from '../matches.ts';
import { UNCOUNTED, type Work } from '../../work-tally.ts';
import { searchCost, WORK } from '../work-costs.ts';

export class TextColumn {
  /** distinct non-null values, in order of first appearance */
  readonly values: readonly string[];
  /** row → value id, -1 for null */
  readonly rowValue: Int32Array;
  /** value id → rows (ascending): valueRows[valueRowStart[v] .. valueRowStart[v+1]) */
  private readonly valueRowStart: Uint32Array;
  private readonly valueRows: Uint32Array;
  readonly nonNullRows: number;

  private foldedValues: string[] | null = null;
  private byOriginal: Uint32Array | null = null;
  private byFolded: Uint32Array | null = null;
  private trigramIndex: TrigramIndex | null = null;

  constructor(
    column: readonly (string | null)[],
    private readonly bits: RowBits,
    private readonly trigramBudget: (valueCount: number) => number,
  ) {
    const ids = new Map<string, number>();
    const values: string[] = [];
    const rowValue = new Int32Array(column.length);
    const counts: number[] = [];
    let nonNull = 0;
    for (let r = 0; r < column.length; r++) {
      const s = column[r];
      if (s === null || s === undefined) {
        rowValue[r] = -1;
        continue;
      }
      let id = ids.get(s);
      if (id === undefined) {
        id = values.length;
        ids.set(s, id);
        values.push(s);
        counts.push(0);
      }
      rowValue[r] = id;
      counts[id]++;
      nonNull++;
    }
    const start = new Uint32Array(values.length + 1);
    for (let v = 0; v < values.length; v++) start[v + 1] = start[v] + counts[v];
    const cursor = start.slice(0, values.length);
    const valueRows = new Uint32Array(nonNull);
    for (let r = 0; r < column.length; r++) {
      const v = rowValue[r];
      if (v >= 0) valueRows[cursor[v]++] = r;
    }
    this.values = values;
    this.rowValue = rowValue;
    this.valueRowStart = start;
    this.valueRows = valueRows;
    this.nonNullRows = nonNull;
  }

  get valueCount(): number {
    return this.values.length;
  }

  /** Mean rows per distinct value, for estimates. */
  get rowsPerValue(): number {
    return this.values.length === 0 ? 0 : this.nonNullRows / this.values.length;
  }

  get folded(): readonly string[] {
    return (this.foldedValues ??= this.values.map(fold));
  }

  get trigrams(): TrigramIndex {
    return (this.trigramIndex ??= TrigramIndex.build(this.folded, this.trigramBudget(this.values.length)));
  }

  /**
   * Builds the trigram index a slice at a time (see TrigramIndex.buildInSteps): each call does
   * one slice; true while more remain. A request needing the index meanwhile builds it whole.
   */
  trigramStep(): boolean {
    if (this.trigramIndex) return false;
    this.pendingTrigrams ??= TrigramIndex.buildInSteps(this.folded, this.trigramBudget(this.values.length));
    const r = this.pendingTrigrams.next();
    if (!r.done) return true;
    this.trigramIndex ??= r.value;
    this.pendingTrigrams = null;
    return false;
  }

  private pendingTrigrams: Generator<void, TrigramIndex> | null = null;

  /** Builds the lazy parts now: sorted orders, and the folded text and trigrams if asked. */
  prepare(text: boolean): void {
    this.byOriginal ??= sortedOrder(this.values);
    if (!text) return;
    this.byFolded ??= sortedOrder(this.folded);
    this.trigrams;
  }

  /** Whether the trigram index has been built (for memory reports and tests). */
  get hasTrigrams(): boolean {
    return this.trigramIndex !== null;
  }

  /**
   * Value ids whose (folded) text equals `key` (`whole`) or starts with it, in value-sorted order.
   * Strings starting with a prefix are contiguous in code-unit order, so this is two binary
   * searches over a permutation sorted once.
   */
  valuesWithPrefix(key: string, folded: boolean, whole: boolean, work: Work = UNCOUNTED): Uint32Array {
    const texts = folded ? this.folded : this.values;
    const order = folded ? (this.byFolded ??= sortedOrder(texts)) : (this.byOriginal ??= sortedOrder(texts));
    // two binary searches, each comparing the key with a value per halving
    work.add(2 * (33 - Math.clz32(order.length)) * searchCost(key.length));
    let lo = 0;
    let hi = order.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (texts[order[mid]] < key) lo = mid + 1;
      else hi = mid;
    }
    const from = lo;
    hi = order.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const t = texts[order[mid]];
      if (whole ? t === key : t.startsWith(key)) lo = mid + 1;
      else hi = mid;
    }
    return order.subarray(from, lo);
  }

  /** Whether value `v` has a row in [lo, hi). */
  hasRowIn(v: number, lo: number, hi: number): boolean {
    const a = this.valueRowStart[v];
    const b = this.valueRowStart[v + 1];
    if (b - a === 1) {
      const r = this.valueRows[a];
      return r >= lo && r < hi;
    }
    const i = lowerBound(this.valueRows, lo, a, b);
    return i < b && this.valueRows[i] < hi;
  }

  /** Rows in [lo, hi) holding one of the given values (any order, no duplicates), ascending. */
  rowsOf(valueIds: ArrayLike<number>, lo: number, hi: number, work: Work = UNCOUNTED): RowSet {
    const starts = this.valueRowStart;
    const rows = this.valueRows;
    work.add(valueIds.length * WORK.row);
    if (valueIds.length === 0) return EMPTY;
    const whole = lo === 0 && hi >= this.rowValue.length;
    if (valueIds.length === 1) {
      const v = valueIds[0];
      const all = rows.subarray(starts[v], starts[v + 1]);
      if (whole) return all;
      const a = lowerBound(all, lo);
      return all.subarray(a, lowerBound(all, hi, a));
    }
    let total = 0;
    for (let i = 0; i < valueIds.length; i++) total += starts[valueIds[i] + 1] - starts[valueIds[i]];
    // gathered, then sorted through a bit set over the rows
    work.add(total * 2 * WORK.row + (this.rowValue.length >>> 5) * WORK.word);
    const bag = new Uint32Array(total);
    let k = 0;
    for (let i = 0; i < valueIds.length; i++) {
      const v = valueIds[i];
      for (let j = starts[v], end = starts[v + 1]; j < end; j++) {
        const r = rows[j];
        bag[k] = r;
        k += whole || (r >= lo && r < hi) ? 1 : 0;
      }
    }
    return sortRows(bag.subarray(0, k), this.bits);
  }

  /**
   * As rowsOf, as a count and pages (see matches.ts): each value's rows in [lo, hi) are one
   * ascending list, so nothing is sorted unless a page deep in the list is asked for.
   */
  unionOf(valueIds: ArrayLike<number>, lo: number, hi: number, work: Work = UNCOUNTED, what = 'rows'): Matches {
    work.add(valueIds.length * WORK.row);
    const starts = this.valueRowStart;
    const rows = this.valueRows;
    const whole = lo === 0 && hi >= this.rowValue.length;
    const pos = new Uint32Array(valueIds.length);
    const end = new Uint32Array(valueIds.length);
    let k = 0;
    for (let i = 0; i < valueIds.length; i++) {
      const v = valueIds[i];
      let a = starts[v];
      let b = starts[v + 1];
      if (!whole) {
        a = lowerBound(rows, lo, a, b);
        b = lowerBound(rows, hi, a, b);
      }
      if (a === b) continue;
      pos[k] = a;
      end[k++] = b;
    }
    return new UnionMatches(rows, pos.subarray(0, k), end.subarray(0, k), () => this.rowsOf(valueIds, lo, hi), what);
  }

  /** Bytes held in typed arrays: dictionary mapping and the lazily built indexes. */
  indexBytes(): number {
    let bytes = this.rowValue.byteLength + this.valueRowStart.byteLength + this.valueRows.byteLength;
    if (this.trigramIndex) bytes += this.trigramIndex.byteSize;
    if (this.byOriginal) bytes += this.byOriginal.byteLength;
    if (this.byFolded) bytes += this.byFolded.byteLength;
    return bytes;
  }
}

function sortedOrder(texts: readonly string[]): Uint32Array {
  const order = Array.from(texts.keys());
  // Code-unit order (not localeCompare): the order in which a prefix's strings are contiguous.
  order.sort((a, b) => (texts[a] < texts[b] ? -1 : texts[a] > texts[b] ? 1 : a - b));
  return Uint32Array.from(order);
}
