// Writes data/search.bin (store/format/search/search-index-file.ts) from the event rows: the rows
// that stay taken from the previous index at their new places, the rows made anew read here (with
// no previous index, every row). The file is a function of which words and characters each row
// has, whatever the order they were added in: spliced or made whole, the same bytes.
import { fieldIndex, FIELD_COUNT, type EventRows } from '../format/event-rows.ts';
import { bitmapOf, bitmapWords } from '../format/bitmap.ts';
import {
  BITMAP_REF, ByteList, decodeSearchIndex, eachPosting, encodeList, encodeSearchIndex, listBytes,
} from '../format/search/search-index-file.ts';
import { rowString } from './column-values.ts';
import { fieldText, newPass, SEARCH_FIELDS, textTerms, type SearchField, type TermSink } from '../format/search/search-text.ts';

const STRIDE = FIELD_COUNT + 1;
const FIELDS = SEARCH_FIELDS.map((f) => fieldIndex(f)!);

/** A row as serialized: its bytes and its field offsets (serializeEvent's `starts`, from `base`). */
export interface RowBytes {
  bytes: Uint8Array;
  starts: ArrayLike<number>;
  base: number;
}

/** The searched fields' values of the fresh rows, by field, where the caller has them decoded already (the text columns). */
export type FieldValues = Partial<Record<SearchField, readonly (string | null)[]>>;

/**
 * Gives `sink` the words and characters of one serialized row's searched fields: a field's value
 * from `known` where it is given, else from the row's JSON.
 */
export function rowTerms(row: RowBytes, sink: TermSink, known?: FieldValues, index = 0): void {
  const text = Buffer.from(row.bytes.buffer, row.bytes.byteOffset, row.bytes.byteLength);
  const pass = newPass();
  for (let i = 0; i < SEARCH_FIELDS.length; i++) {
    const field = SEARCH_FIELDS[i];
    const given = known?.[field];
    const raw = given !== undefined ? given[index] : rowString(text, 0, row.starts, row.base, FIELDS[i]);
    const value = fieldText(field, raw);
    if (value !== null) textTerms(value, sink, pass);
  }
}

/** Rows in a typed array that grows (a list of plain numbers takes twice the memory). */
class RowList {
  rows = new Uint32Array(4);
  length = 0;

  push(row: number): void {
    if (this.length === this.rows.length) {
      const grown = new Uint32Array(this.rows.length * 2);
      grown.set(this.rows);
      this.rows = grown;
    }
    this.rows[this.length++] = row;
  }

  get last(): number {
    return this.length === 0 ? -1 : this.rows[this.length - 1];
  }

  get list(): Uint32Array {
    return this.rows.subarray(0, this.length);
  }
}

/** Each word's, span's and character's rows, ascending, as rows are added in ascending order. */
class Postings {
  readonly words = new Map<string, RowList>();
  readonly spans = new Map<string, RowList>();
  readonly chars = new Map<string, RowList>();
  /** the row `sink` adds terms of */
  row = -1;
  /** each term's list by the id textTerms gives it: found by the string once per id, not at each row */
  private readonly byId: (RowList | undefined)[] = [];
  readonly sink: TermSink = {
    word: (w, id) => this.add(this.words, w, id),
    span: (s, id) => this.add(this.spans, s, id),
    char: (c, id) => this.add(this.chars, c, id),
  };

  private add(map: Map<string, RowList>, key: string, id: number): void {
    let list = this.byId[id];
    if (list === undefined) {
      list = map.get(key);
      if (list === undefined) map.set(key, (list = new RowList()));
      this.byId[id] = list;
    }
    if (list.last !== this.row) list.push(this.row);
  }
}

/** Adds `row` to `key`'s list unless it is its last already (a word occurs many times in a row). */
function add(map: Map<string, RowList>, key: string, row: number): void {
  let list = map.get(key);
  if (list === undefined) map.set(key, (list = new RowList()));
  if (list.last !== row) list.push(row);
}

/** The search index of `rows` (in list order), as the file's bytes. */
export function searchIndexOf(rows: EventRows): Uint8Array {
  return searchIndex(null, null, rows);
}

/**
 * The search index of a list of rows: row i is the previous row `order[i]` (its terms read from
 * `prior`, the previous rows' index), or, where that is negative, the row -order[i] - 1 of
 * `fresh` (the rows made anew, in list order). No `order`: the rows are `fresh`'s, every one. The
 * same bytes as an index made of every row, the file being a function of each row's terms.
 * `known`: fields' values of the fresh rows (in their order) decoded already, not read again from the rows.
 */
export function searchIndex(prior: Uint8Array | null, order: Int32Array | null, fresh: EventRows, known?: FieldValues): Uint8Array {
  const count = order ? order.length : fresh.length;
  const postings = prior && order ? keptPostings(prior, order) : new Postings();
  const added = new Postings();
  fresh.eachRow(null, 0, fresh.length, (j, bytes) => {
    added.row = j;
    rowTerms({ bytes, starts: fresh.starts, base: j * STRIDE }, added.sink, known, j);
  });
  // the fresh rows' numbers, as they were added, are their places in the fresh rows: to the list's
  const place = new Uint32Array(fresh.length);
  for (let i = 0; i < count; i++) {
    const from = order ? order[i] : -(i + 1);
    if (from < 0) place[-from - 1] = i;
  }
  const merge = (into: Map<string, RowList>, from: Map<string, RowList>) => {
    for (const [key, rows] of from) {
      const list = into.get(key);
      const fromRows = rows.list;
      for (let k = 0; k < fromRows.length; k++) fromRows[k] = place[fromRows[k]];
      if (!list) into.set(key, rows);
      else if (fromRows[0] > list.last) for (const r of fromRows) list.push(r);
      else into.set(key, merged(list.list, fromRows));
    }
  };
  merge(postings.words, added.words);
  merge(postings.spans, added.spans);
  merge(postings.chars, added.chars);
  return encodeIndex(count, postings);
}

/** Two ascending lists of distinct rows as one. */
function merged(a: Uint32Array, b: Uint32Array): RowList {
  const out = new RowList();
  out.rows = new Uint32Array(a.length + b.length);
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) out.rows[out.length++] = j >= b.length || (i < a.length && a[i] < b[j]) ? a[i++] : b[j++];
  return out;
}

/** The postings of the previous rows that stay (row `order[i]` of `prior`'s is row i now). */
function keptPostings(prior: Uint8Array, order: Int32Array): Postings {
  const old = decodeSearchIndex(prior);
  const now = new Int32Array(old.rows).fill(-1);
  for (let i = 0; i < order.length; i++) if (order[i] >= 0) now[order[i]] = i;
  const postings = new Postings();
  const strings = stringsOf(old.text, old.textStart);
  const listed = (i: number): RowList => {
    const out = new RowList();
    const whole = eachPosting(old, i, (r) => {
      // the previous rows keep their order among themselves: the list stays ascending
      if (now[r] >= 0) out.push(now[r]);
    });
    if (!whole) throw new Error('the previous search index is damaged');
    return out;
  };
  const kinds = [postings.words, postings.spans, postings.chars];
  const ends = [old.words, old.words + old.spans, old.words + old.spans + old.chars];
  for (let i = 0, kind = 0; i < ends[2]; i++) {
    while (i >= ends[kind]) kind++;
    const list = listed(i);
    if (list.length > 0) kinds[kind].set(strings[i], list);
  }
  return postings;
}

/** The strings of a string table (UTF-16 code units, `starts` where each begins). */
export function stringsOf(text: Uint16Array, starts: Uint32Array): string[] {
  const all = new TextDecoder('utf-16le').decode(text);
  const out: string[] = [];
  for (let i = 0; i + 1 < starts.length; i++) out.push(all.slice(starts[i], starts[i + 1]));
  return out;
}

/** Code-unit order, as the reader's binary searches compare. */
export const byUnits = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** The sections a set of strings makes (a function of the strings alone): their text and the grams of the words and spans. */
export interface StringSections {
  text: Uint16Array;
  textStart: Uint32Array;
  grams: number;
  gramLists: Uint32Array;
  gramVarints: Uint8Array;
}

/** The strings' sections: `words`, `spans` and `chars` each sorted by code units. */
export function stringSections(words: readonly string[], spans: readonly string[], chars: readonly string[]): StringSections {
  // every distinct 2- and 3-unit string of the words and spans, with those holding it (ascending)
  const gramWords = new Map<string, RowList>();
  [...words, ...spans].forEach((w, id) => {
    const seen = new Set<string>();
    for (let n = 2; n <= 3; n++) {
      for (let i = 0; i + n <= w.length; i++) seen.add(w.slice(i, i + n));
    }
    for (const g of seen) add(gramWords, g, id);
  });
  const grams = [...gramWords.keys()].sort(byUnits);
  const strings = [...words, ...spans, ...chars, ...grams];
  const textStart = new Uint32Array(strings.length + 1);
  for (let i = 0; i < strings.length; i++) textStart[i + 1] = textStart[i] + strings[i].length;
  const text = new Uint16Array(textStart[strings.length]);
  strings.forEach((s, i) => {
    for (let k = 0; k < s.length; k++) text[textStart[i] + k] = s.charCodeAt(k);
  });
  const gramLists = new Uint32Array(2 * grams.length);
  const gramVarints = new ByteList();
  grams.forEach((g, i) => {
    const list = gramWords.get(g)!.list;
    gramLists[2 * i] = gramVarints.length;
    gramLists[2 * i + 1] = list.length;
    encodeList(list, gramVarints);
  });
  return { text, textStart, grams: grams.length, gramLists, gramVarints: gramVarints.done() };
}

/** Whether a list of `bytes` varint bytes is kept as a bit set of `perBitmap` words instead: where the varints would not be half its size (a bit set is applied a word at a time). */
export const asBitmap = (bytes: number, perBitmap: number) => bytes * 2 > perBitmap * 4;

function encodeIndex(rows: number, postings: Postings): Uint8Array {
  const words = [...postings.words.keys()].sort(byUnits);
  const spans = [...postings.spans.keys()].sort(byUnits);
  const chars = [...postings.chars.keys()].sort(byUnits);
  const strings = stringSections(words, spans, chars);
  const perBitmap = bitmapWords(rows);
  const lists = new Uint32Array(2 * (words.length + spans.length + chars.length));
  const varints = new ByteList();
  const bitmaps: Int32Array[] = [];
  const rowLists = [
    ...words.map((w) => postings.words.get(w)!.list), ...spans.map((w) => postings.spans.get(w)!.list), ...chars.map((c) => postings.chars.get(c)!.list),
  ];
  rowLists.forEach((list, i) => {
    lists[2 * i + 1] = list.length;
    if (asBitmap(listBytes(list), perBitmap)) {
      lists[2 * i] = BITMAP_REF | bitmaps.length;
      bitmaps.push(bitmapOf(list, perBitmap));
    } else {
      lists[2 * i] = varints.length;
      encodeList(list, varints);
    }
  });
  const allBits = new Int32Array(bitmaps.length * perBitmap);
  bitmaps.forEach((b, i) => allBits.set(b, i * perBitmap));
  return encodeSearchIndex({
    rows, words: words.length, spans: spans.length, chars: chars.length, ...strings,
    lists, varints: varints.done(), bitmaps: allBits,
  });
}
