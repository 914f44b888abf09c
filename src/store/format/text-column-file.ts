// data/columns/<field>.text.bin (a text field) and <field>.iso.bin (a timestamp's rendered ISO
// text): one string column of the event list, dictionary-encoded, with what its lookups search.
//
// Values are the column's distinct non-null strings, numbered by first appearance in row order (so
// for a column whose values each occur once, ascending value ids give ascending rows). Sections:
//
//   0  header: rows, values, non-null rows, flags (1: folded values, 2: trigrams, 4: word lists), trigram coverage
//   1  rowValue       i32 × rows: the row's value id, -1 for null
//   2  valueRowStart  u32 × (values + 1), 3 valueRows u32 × non-null rows: value v's rows
//                     (ascending) are valueRows[valueRowStart[v] .. valueRowStart[v+1])
//   4  byValue        u32 × values: value ids sorted by their text (UTF-16 code units, then id),
//                     so the values starting with a prefix are one run of it
//   5–7  the values   a string table (string-table.ts)
//   8  byFolded       u32 × values: as byValue, by the folded text (empty: no folded values)
//   9–11 the folded values (fold.ts), a string table (empty: none); text fields have them, the
//                     ISO text (only ever matched as it is) has not
//   12–18 trigrams    over the folded values (trigram-file.ts; all empty: none): a text field
//                     with more distinct values than a scan handles quickly
//   19–24 word lists  of the folded values (word-lists.ts; all empty: none): a text field whose
//                     folded text an edge isolate reads in parts
import type { Format } from './sections.ts';
import type { StringList } from './string-table.ts';
import { TRIGRAM_SECTIONS, type TrigramData } from './trigram-file.ts';
import { WORD_SECTIONS, type WordLists } from './word-lists.ts';

export const TEXT_COLUMN_FORMAT: Format = { magic: 'aula-txt', version: 3, sections: 12 + TRIGRAM_SECTIONS + WORD_SECTIONS, what: 'a text column' };

export const TEXT_FLAGS = { folded: 1, trigrams: 2, words: 4 } as const;

/** The first section of each part (see above). */
export const TEXT_SECTION = { header: 0, rowValue: 1, valueRowStart: 2, valueRows: 3, byValue: 4, values: 5, byFolded: 8, folded: 9, trigrams: 12, words: 12 + TRIGRAM_SECTIONS } as const;

/** A string column as loaded (or as the build made it): the values, their rows, their orders, their trigrams. */
export interface TextColumnData {
  readonly rows: number;
  readonly values: StringList;
  /** row → value id, -1 for null */
  readonly rowValue: Int32Array;
  readonly valueRowStart: Uint32Array;
  readonly valueRows: Uint32Array;
  readonly nonNullRows: number;
  /** value ids sorted by their text */
  readonly byValue: Uint32Array;
  /** the folded values and their order (null: the column is matched case-sensitively only) */
  readonly folded: StringList | null;
  readonly byFolded: Uint32Array | null;
  readonly trigrams: TrigramData | null;
  /** whether `trigrams` is not null, told without reading it (a column read in parts reads its trigrams when first used) */
  readonly hasTrigrams?: boolean;
  /** the word lists, read where the column is read in parts (absent or null: none, or not read) */
  readonly words?: WordLists | null;
  /** the string of `row`, null where null */
  at(row: number): string | null;
}

/** `at` of a column of these values and rows. */
export function stringAtRow(values: StringList, rowValue: Int32Array): (row: number) => string | null {
  return (row) => {
    const v = rowValue[row];
    return v < 0 ? null : values.at(v);
  };
}
