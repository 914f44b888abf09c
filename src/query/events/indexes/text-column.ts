// A string column (a text field, or the rendered ISO text of a timestamp field) as its lookups
// use it, over its file as loaded (src/store/format/text-column-file.ts). Values are
// dictionary-encoded: organizer, location, contact and email repeat a lot, so every lookup works on
// the distinct values and maps them back to rows.
//
// Value ids follow first appearance in row order, so for a column whose values each occur once,
// ascending value ids give ascending rows and no re-sorting is needed.
import { EMPTY, lowerBound, sortRows, type RowBits, type RowSet } from './rowset.ts';
import { extract, TrigramIndex } from './trigram.ts';
import { UnionMatches, type Matches } from '../matches.ts';
import { UNCOUNTED, type Work } from '../../work-tally.ts';
import { searchCost, textCost, WORK } from '../work-costs.ts';
import { bitmapWords } from '../../../store/format/bitmap.ts';
import { readVarints } from '../../../store/format/trigram-file.ts';
import type { StringList } from '../../../store/format/string-table.ts';
import type { TextColumnData } from '../../../store/format/text-column-file.ts';

export class TextColumn {
  /** distinct non-null values, in order of first appearance */
  readonly values: StringList;
  /** value id → rows (ascending): valueRows[valueRowStart[v] .. valueRowStart[v+1]) */
  private readonly valueRowStart: Uint32Array;
  private readonly valueRows: Uint32Array;
  readonly nonNullRows: number;
  private trigramIndex: TrigramIndex | null = null;

  constructor(
    private readonly data: TextColumnData,
    private readonly bits: RowBits,
  ) {
    this.values = data.values;
    this.valueRowStart = data.valueRowStart;
    this.valueRows = data.valueRows;
    this.nonNullRows = data.nonNullRows;
  }

  /** row → value id, -1 for null (read from the data when first used: an edge isolate fetches it then) */
  get rowValue(): Int32Array {
    return this.data.rowValue;
  }

  /** rows of the table */
  get rowCount(): number {
    return this.data.rows;
  }

  get valueCount(): number {
    return this.values.length;
  }

  /** Mean rows per distinct value, for estimates. */
  get rowsPerValue(): number {
    return this.values.length === 0 ? 0 : this.nonNullRows / this.values.length;
  }

  /** the folded values (text fields have them; the ISO text is only ever matched as it is) */
  get folded(): StringList {
    const folded = this.data.folded;
    if (folded === null) throw new Error('this column has no folded values');
    return folded;
  }

  /** Whether the column has a trigram index (a text field with more values than a scan handles quickly). */
  get hasTrigrams(): boolean {
    return this.data.hasTrigrams ?? this.data.trigrams !== null;
  }

  /** Whether `icontains` of a needle without a separator can be answered from the word lists (word-lists.ts). */
  get hasWords(): boolean {
    return this.data.words != null;
  }

  /**
   * Value ids (ascending) whose folded text contains `key`, a needle without a separator
   * (withinWords): the values of every word that contains it. Exact: no text is read but the words'.
   */
  valuesWithWord(key: string, work: Work): RowSet {
    const lists = this.data.words!;
    const { words, counts, starts } = lists;
    const found: number[] = [];
    let postings = 0;
    let longest = 0;
    for (let w = 0; w < words.length; w++) {
      const word = words.at(w);
      work.add(textCost(word.length + key.length));
      if (word.includes(key)) {
        found.push(w);
        postings += counts[w];
        if (counts[w] > longest) longest = counts[w];
      }
    }
    if (found.length === 0) return EMPTY;
    // every list read fetched in one round (a file read in parts)
    lists.need(found.map((w) => [starts[w], starts[w + 1]] as const));
    // the union, in a bit set over the values (which holds no id past them, whatever a list says)
    work.add(postings * WORK.posting);
    const bits = new Int32Array(bitmapWords(this.valueCount));
    // (the longest list's length counted above: a spread of every word found would pass too many arguments)
    const ids = new Uint32Array(longest);
    for (const w of found) {
      readVarints(lists.lists(starts[w], starts[w + 1]), 0, counts[w], ids);
      for (let i = 0; i < counts[w]; i++) bits[ids[i] >>> 5] |= 1 << (ids[i] & 31);
    }
    return extract(bits, this.valueCount, work);
  }

  get trigrams(): TrigramIndex {
    const data = this.data.trigrams;
    if (data === null) throw new Error('this column has no trigram index');
    return (this.trigramIndex ??= new TrigramIndex(data));
  }

  /**
   * Value ids whose (folded) text equals `key` (`whole`) or starts with it, in value-sorted order.
   * Strings starting with a prefix are contiguous in code-unit order, so this is two binary
   * searches over a permutation sorted once.
   */
  valuesWithPrefix(key: string, folded: boolean, whole: boolean, work: Work): Uint32Array {
    const texts = folded ? this.folded : this.values;
    const order = folded ? this.data.byFolded! : this.data.byValue;
    // two binary searches, each comparing the key with a value per halving
    work.add(2 * (33 - Math.clz32(order.length)) * searchCost(key.length));
    let lo = 0;
    let hi = order.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (texts.at(order[mid]) < key) lo = mid + 1;
      else hi = mid;
    }
    const from = lo;
    hi = order.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const t = texts.at(order[mid]);
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
  rowsOf(valueIds: ArrayLike<number>, lo: number, hi: number, work: Work): RowSet {
    const starts = this.valueRowStart;
    const rows = this.valueRows;
    work.add(valueIds.length * WORK.row);
    if (valueIds.length === 0) return EMPTY;
    const whole = lo === 0 && hi >= this.data.rows;
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
    work.add(total * 2 * WORK.row + (this.data.rows >>> 5) * WORK.word);
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
  unionOf(valueIds: ArrayLike<number>, lo: number, hi: number, work: Work, what: string): Matches {
    work.add(valueIds.length * WORK.row);
    const starts = this.valueRowStart;
    const rows = this.valueRows;
    const whole = lo === 0 && hi >= this.data.rows;
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
    // (the sort of the whole union is charged by UnionMatches.slice, which asks for it)
    return new UnionMatches(rows, pos.subarray(0, k), end.subarray(0, k), () => this.rowsOf(valueIds, lo, hi, UNCOUNTED), what);
  }

  /** Bytes held in typed arrays: the dictionary mapping, the orders, the trigrams. */
  indexBytes(): number {
    let bytes = this.rowValue.byteLength + this.valueRowStart.byteLength + this.valueRows.byteLength + this.data.byValue.byteLength;
    if (this.data.byFolded) bytes += this.data.byFolded.byteLength;
    if (this.data.trigrams) bytes += this.trigrams.byteSize;
    return bytes;
  }
}
