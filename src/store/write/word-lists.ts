// Builds the word lists of a long text column's folded values (src/store/format/word-lists.ts).
import { isSeparator, WORD_LISTS_FROM_UNITS } from '../format/word-lists.ts';
import { stringTableSections } from './string-table.ts';
import { varintListBytes, writeVarintList } from '../format/trigram-file.ts';
import type { Section } from './sections.ts';

/** Calls `visit` with each word of `text` as it comes (a word of it twice: twice). */
export function eachWord(text: string, visit: (word: string) => void): void {
  let start = -1;
  for (let i = 0; i <= text.length; i++) {
    const boundary = i === text.length || isSeparator(text.charCodeAt(i));
    if (!boundary) {
      if (start === -1) start = i;
      continue;
    }
    if (start === -1) continue;
    visit(text.slice(start, i));
    start = -1;
  }
}

/** Whether `folded` (the values' folded texts) is long enough to have word lists (tests make `fromUnits` small). */
export function hasWordLists(folded: readonly string[], fromUnits = WORD_LISTS_FROM_UNITS): boolean {
  let units = 0;
  for (const text of folded) units += text.length;
  return units >= fromUnits;
}

/** Code-unit order, as the words are listed. */
export const byCodeUnits = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/**
 * The word lists' sections of `folded` (the values' folded texts, by value id), or null when they
 * hold fewer than `fromUnits` code units.
 */
export function wordListSections(folded: readonly string[], fromUnits = WORD_LISTS_FROM_UNITS): Section[] | null {
  if (!hasWordLists(folded, fromUnits)) return null;
  // per word: its value ids, ascending (the values are visited in order)
  const lists = new Map<string, number[]>();
  for (let v = 0; v < folded.length; v++) {
    eachWord(folded[v], (word) => {
      let list = lists.get(word);
      if (list === undefined) lists.set(word, (list = []));
      if (list[list.length - 1] !== v) list.push(v);
    });
  }
  const words = [...lists.keys()].sort(byCodeUnits);
  return [...stringTableSections(words), ...listSections(words.map((word) => lists.get(word)!))];
}

/** The counts, starts and lists sections of the words' value id lists (in the words' order), written as the trigram lists are (varint gaps: trigram-file.ts), whose reader reads them. */
export function listSections(lists: readonly ArrayLike<number>[]): Section[] {
  const counts = new Uint32Array(lists.length);
  const starts = new Uint32Array(lists.length + 1);
  lists.forEach((list, w) => {
    counts[w] = list.length;
    starts[w + 1] = starts[w] + varintListBytes(list);
  });
  const bytes = new Uint8Array(starts[lists.length]);
  lists.forEach((list, w) => writeVarintList(bytes, starts[w], list));
  return [counts, starts, bytes];
}
