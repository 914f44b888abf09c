// The word lists of a long text column's folded values: six sections of its file
// (text-column-file.ts), for a reader that fetches the file in parts (an edge isolate). A word is
// a longest run of a folded value's code units none of which is a separator (an ASCII character
// that is neither a letter nor a digit); every distinct word is listed once, with the ids of the
// values it occurs in. A needle without a separator occurs in a value exactly where it occurs in
// one of the value's words: `icontains` is then answered from the words that contain it and their
// lists, exact, without the values' text — which is most of the file, and which the trigram
// candidates, spread over every block of it, would all have to be fetched to verify.
//
//   0–2  words    a string table (string-table.ts): the distinct words, in code-unit order
//   3    counts   u32 × words: how many values have the word
//   4    starts   u32 × (words + 1): each word's list's byte offset in `lists`, then their end
//   5    lists    u8: each word's value ids, ascending, as a varint list (trigram-file.ts)
import type { StringList } from './string-table.ts';

export const WORD_SECTIONS = 6;

/**
 * Word lists are written for a column whose folded values hold at least this many code units: a
 * text so long that an edge isolate, which reads it in parts (files of BLOCKED_FILE_BYTES or more,
 * manifest.ts), would fetch most of it to verify the trigram candidates. A shorter column's
 * candidates are verified from its text as it is fetched.
 */
export const WORD_LISTS_FROM_UNITS = 4 * 1024 * 1024;

export interface WordLists {
  readonly words: StringList;
  readonly counts: Uint32Array;
  readonly starts: Uint32Array;
  /** bytes [start, end) of the lists, at hand (a file read in parts fetches them then) */
  lists(start: number, end: number): Uint8Array;
  /** makes sure the lists' byte ranges are at hand (a file read in parts: one round for all) */
  need(ranges: readonly (readonly [number, number])[]): void;
}

/** Whether code unit `c` separates words: an ASCII character that is not a letter or a digit. */
export const isSeparator = (c: number): boolean => c < 0x80 && !((c >= 0x30 && c <= 0x39) || (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a));

/** Whether `text` holds no separator: its occurrences in a value each lie inside one of its words. */
export function withinWords(text: string): boolean {
  for (let i = 0; i < text.length; i++) if (isSeparator(text.charCodeAt(i))) return false;
  return text.length > 0;
}
