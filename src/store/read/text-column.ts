// Reads a string column's file (src/store/format/text-column-file.ts): typed arrays over its bytes,
// the strings decoded once (string-table.ts). Its shape is checked (every list and order within
// its bounds), so a hand-made file that passed the checksums cannot make a lookup read outside it.
// Read whole, where the strings' UTF-8 is most of the file (a long text such as the teasers), the
// rest is copied out instead, so that the file's bytes, all decoded, are not held beside the strings.
// Read per need (`fault` given), each string is decoded alone when first asked for (string-table.ts):
// an answer decodes the values it checks, not the column's text; and the trigram lists, the row →
// value map, the orders and each string table's offsets are read and checked when a lookup first
// uses them. Read in parts (an
// edge isolate's large file), those are fetched then too, and the word lists (word-lists.ts) are
// read: `icontains` answered from them needs neither the text, the trigrams nor the sections it
// does not read.
import type { TextColumnData } from '../format/text-column-file.ts';
import { stringAtRow, TEXT_COLUMN_FORMAT, TEXT_FLAGS, TEXT_SECTION } from '../format/text-column-file.ts';
import { bitmapWords } from '../format/bitmap.ts';
import { TRIGRAM_SECTIONS, type TrigramData } from '../format/trigram-file.ts';
import { WORD_SECTIONS, type WordLists } from '../format/word-lists.ts';
import { check, checkBelow, checkStarts, checkWithin, Sections } from './sections.ts';
import { FormatError } from '../format/sections.ts';
import { StringTable } from './string-table.ts';
import type { Fault } from '../format/sections.ts';
import { checkedOnce, once } from './per-need.ts';

const F = TEXT_COLUMN_FORMAT;

type Sectioned = Int32Array | Uint32Array | Uint8Array;

const sectionsFrom = (first: number, count: number) => Array.from({ length: count }, (_, i) => first + i);
const TRIGRAMS = sectionsFrom(TEXT_SECTION.trigrams, TRIGRAM_SECTIONS);
/** the word lists' sections but the lists themselves */
const WORDS_HEAD = sectionsFrom(TEXT_SECTION.words, WORD_SECTIONS - 1);
const WORD_LISTS = TEXT_SECTION.words + WORD_SECTIONS - 1;
const NOT_TEXTS = sectionsFrom(0, F.sections).filter((i) => i !== TEXT_SECTION.values && i !== TEXT_SECTION.folded);
/**
 * the sections a lookup may not need: the row → value map (a test of given rows), the orders (a
 * prefix or exact lookup); read per need, each is read (in parts: fetched) and checked when first used
 */
const LATER_IN_PARTS: readonly number[] = [TEXT_SECTION.rowValue, TEXT_SECTION.byValue, TEXT_SECTION.byFolded];
/** the string tables' offsets and exceptions, read per need with their text (string-table.ts) */
const TABLES = [TEXT_SECTION.values + 1, TEXT_SECTION.values + 2, TEXT_SECTION.folded + 1, TEXT_SECTION.folded + 2];
/** read in parts: what a column's first use reads (not the string tables, the trigram lists, the word lists or LATER_IN_PARTS) */
const FIRST_IN_PARTS = NOT_TEXTS.filter((i) => !TRIGRAMS.includes(i) && !(i >= TEXT_SECTION.words) && !LATER_IN_PARTS.includes(i) && !TABLES.includes(i));

/**
 * `fault`: the column is read per need; what a string list that does not fit its text throws when
 * first read. `decodeLater` (read whole, without `fault`): the strings' texts are decoded whole
 * when their lists' decodeAll() is called (each string alone until then), and a string that does
 * not fit throws `decodeLater(problem)`.
 */
export function readTextColumn(bytes: Uint8Array, rows: number, fault?: Fault, decodeLater?: Fault): TextColumnData {
  const s = Sections.of(bytes, F);
  const decoded = s.byteLength(TEXT_SECTION.values) + s.byteLength(TEXT_SECTION.folded);
  // the word lists, which only an edge isolate reads, count for neither side
  let wordBytes = 0;
  for (let i = TEXT_SECTION.words; i < TEXT_SECTION.words + WORD_SECTIONS; i++) wordBytes += s.byteLength(i);
  // (read per need, the strings are decoded one by one from the file's bytes, which stay held)
  const copied = fault === undefined && decoded * 2 > bytes.byteLength - wordBytes;
  const own = <T extends Sectioned>(a: T): T => (copied ? (a.slice() as T) : a);
  // every section but the strings' texts, read now (a file read in parts fetches them in one round;
  // a text when a string of it is first asked for, the trigram lists when a lookup first uses them)
  const [, , , flags] = s.meta(TEXT_SECTION.header, 5);
  const words = s.inParts && fault !== undefined && (flags & TEXT_FLAGS.words) !== 0;
  s.need(s.inParts ? [...FIRST_IN_PARTS, ...(words ? WORDS_HEAD : [])] : NOT_TEXTS);
  const [rowCount, valueCount, nonNullRows, , coverage] = s.meta(TEXT_SECTION.header, 5);
  check(rowCount === rows, F, `of ${rowCount} rows, not the ${rows} of the event list`);
  check(Number.isInteger(valueCount) && valueCount >= 0 && Number.isInteger(nonNullRows) && nonNullRows <= rows, F, 'whose header is not a count of values and rows');
  // read per need, what a lookup may not use is read (in parts: fetched) and checked when first used
  const perNeed = fault !== undefined;
  /** a section read now, or (per need) when first used: found damaged then, named as damage found at load is */
  const later = <T>(section: number, read: () => T): (() => T) => {
    if (!perNeed) {
      const value = read();
      return () => value;
    }
    return checkedOnce(fault!, () => {
      s.need([section]);
      return read();
    });
  };
  const rowValue = later(TEXT_SECTION.rowValue, () => {
    const a = own(s.i32(TEXT_SECTION.rowValue, 'row values', rows));
    checkWithin(a, valueCount, F, 'whose rows name values it does not have');
    return a;
  });
  const valueRowStart = own(s.u32(TEXT_SECTION.valueRowStart, 'value lists', valueCount + 1));
  checkStarts(valueRowStart, nonNullRows, F, 'value lists');
  const valueRows = own(s.u32(TEXT_SECTION.valueRows, 'rows of values', nonNullRows));
  checkBelow(valueRows, rows, F, 'rows of values');
  const byValue = later(TEXT_SECTION.byValue, () => {
    const a = own(s.u32(TEXT_SECTION.byValue, 'value order', valueCount));
    checkBelow(a, valueCount, F, 'value order');
    return a;
  });
  // (read per need, the fault is the column's; read whole, decodeLater's, for the strings decoded alone until decodeAll)
  const alone = fault ?? decodeLater;
  const table = (first: number, what: string) => StringTable.read(s, first, what, valueCount, copied, alone, fault === undefined && alone !== undefined);
  const values = table(TEXT_SECTION.values, 'values');
  let folded: StringTable | null = null;
  let byFolded: () => Uint32Array | null = () => null;
  if (flags & TEXT_FLAGS.folded) {
    byFolded = later(TEXT_SECTION.byFolded, () => {
      const a = own(s.u32(TEXT_SECTION.byFolded, 'folded order', valueCount));
      checkBelow(a, valueCount, F, 'folded order');
      return a;
    });
    folded = table(TEXT_SECTION.folded, 'folded values');
  }
  const hasTrigrams = (flags & TEXT_FLAGS.trigrams) !== 0;
  const at = perNeed
    ? (row: number): string | null => {
        const v = rowValue()[row];
        return v < 0 ? null : values.at(v);
      }
    : stringAtRow(values, rowValue());
  const wordLists = words ? readWords(s, valueCount, fault) : null;
  const column = { rows, values, valueRowStart, valueRows, nonNullRows, folded, hasTrigrams, at, words: wordLists };
  if (!perNeed) return { ...column, rowValue: rowValue(), byValue: byValue(), byFolded: byFolded(), trigrams: hasTrigrams ? readTrigrams(s, valueCount, coverage, own) : null };
  const trigrams = once(() => {
    s.need(TRIGRAMS);
    try {
      return hasTrigrams ? readTrigrams(s, valueCount, coverage, own) : null;
    } catch (e) {
      // found by an answer: named as damage found at load is
      if (e instanceof FormatError && fault !== undefined) throw fault(e.message);
      throw e;
    }
  });
  // each read when first used (a getter of the data, as the trigrams)
  return Object.defineProperties(column, {
    rowValue: { get: rowValue, enumerable: true },
    byValue: { get: byValue, enumerable: true },
    byFolded: { get: byFolded, enumerable: true },
    trigrams: { get: trigrams, enumerable: true },
  }) as unknown as TextColumnData;
}

/** The word lists (word-lists.ts) of a column read in parts: the words now, each list when a lookup first reads it. */
function readWords(s: Sections, valueCount: number, fault: Fault): WordLists {
  const at = TEXT_SECTION.words;
  const words = StringTable.read(s, at, 'words', undefined, false, fault);
  const counts = s.u32(at + 3, 'word counts', words.length);
  const starts = s.u32(at + 4, 'word lists', words.length + 1);
  const lists = s.u8InParts(WORD_LISTS, 'word lists');
  checkStarts(starts, lists.length, F, 'word lists');
  // a list of more ids than the values, or of fewer bytes than ids, is not one the build wrote
  for (let w = 0; w < counts.length; w++) check(counts[w] <= valueCount && counts[w] <= starts[w + 1] - starts[w], F, 'whose word lists do not fit their counts');
  return { words, counts, starts, lists: lists.at, need: lists.need };
}

function readTrigrams(s: Sections, valueCount: number, coverage: number, own: <T extends Sectioned>(a: T) => T): TrigramData {
  const at = TEXT_SECTION.trigrams;
  const codeOf = own(s.u8(at, 'trigram alphabet', 0x10000));
  const keys = own(s.u32(at + 1, 'trigrams'));
  const n = keys.length;
  const counts = own(s.u32(at + 2, 'trigram counts', n));
  const kinds = own(s.u8(at + 3, 'trigram kinds', n));
  const starts = own(s.u32(at + 4, 'trigram lists', n));
  const varints = own(s.u8(at + 5, 'trigram varints'));
  const bitmaps = own(s.i32(at + 6, 'trigram bit sets'));
  const words = bitmapWords(valueCount);
  check(words === 0 ? bitmaps.length === 0 : bitmaps.length % words === 0, F, 'whose trigram bit sets are not whole');
  const bitmapCount = words === 0 ? 0 : bitmaps.length / words;
  for (let k = 0; k < n; k++) {
    // a varint list starts inside `varints` (decoding stops at its count, or reads undefined as 0
    // past the end: never outside the array's memory); a bit set is one of those held
    if (kinds[k] === 1) check(starts[k] <= varints.length, F, 'whose trigram lists lie outside it');
    else if (kinds[k] === 2) check(starts[k] < bitmapCount, F, 'whose trigram bit sets lie outside it');
    else check(kinds[k] === 0, F, 'whose trigram kinds are unknown');
    check(counts[k] <= valueCount && (k === 0 || keys[k] > keys[k - 1]), F, 'whose trigrams are not in order');
  }
  return { valueCount, codeOf, keys, counts, kinds, starts, varints, bitmaps, coverage };
}
