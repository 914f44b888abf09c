// Builds the word lists of a long text column's folded values (src/store/format/word-lists.ts).
import { isSeparator, WORD_LISTS_FROM_UNITS } from '../format/word-lists.ts';
import { stringTableSections } from './string-table.ts';
import { varintListBytes, writeVarintList } from '../format/trigram-file.ts';
import type { Section } from './sections.ts';

/**
 * The word lists' sections of `folded` (the values' folded texts, by value id), or null when they
 * hold fewer than `fromUnits` code units (tests make it small).
 */
export function wordListSections(folded: readonly string[], fromUnits = WORD_LISTS_FROM_UNITS): Section[] | null {
  let units = 0;
  for (const text of folded) units += text.length;
  if (units < fromUnits) return null;
  // per word: its value ids, ascending (the values are visited in order)
  const lists = new Map<string, number[]>();
  for (let v = 0; v < folded.length; v++) {
    const text = folded[v];
    let start = -1;
    for (let i = 0; i <= text.length; i++) {
      const boundary = i === text.length || isSeparator(text.charCodeAt(i));
      if (!boundary) {
        if (start === -1) start = i;
        continue;
      }
      if (start === -1) continue;
      const word = text.slice(start, i);
      start = -1;
      let list = lists.get(word);
      if (list === undefined) lists.set(word, (list = []));
      if (list[list.length - 1] !== v) list.push(v);
    }
  }
  // written as the trigram lists are (varint gaps: trigram-file.ts), whose reader reads them
  const words = [...lists.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const counts = new Uint32Array(words.length);
  const starts = new Uint32Array(words.length + 1);
  words.forEach((word, w) => {
    const list = lists.get(word)!;
    counts[w] = list.length;
    starts[w + 1] = starts[w] + varintListBytes(list);
  });
  const bytes = new Uint8Array(starts[words.length]);
  words.forEach((word, w) => writeVarintList(bytes, starts[w], lists.get(word)!));
  return [...stringTableSections(words), counts, starts, bytes];
}
