// Builds the word lists of a long text column's folded values (src/store/format/word-lists.ts).
import { isSeparator, WORD_LISTS_FROM_UNITS } from '../format/word-lists.ts';
import { stringTableSections } from './string-table.ts';
import type { Section } from './sections.ts';

/**
 * The word lists' sections of `folded` (the values' folded texts, by value id), or null when they
 * hold fewer than `fromUnits` code units (tests make it small).
 */
export function wordListSections(folded: readonly string[], fromUnits = WORD_LISTS_FROM_UNITS): Section[] | null {
  let units = 0;
  for (const text of folded) units += text.length;
  if (units < fromUnits) return null;
  // per word: its value ids (ascending, as the values are visited in order) as varint gaps, the
  // codec of the trigram lists (trigram-file.ts), which reads them
  const lists = new Map<string, { last: number; count: number; bytes: number[] }>();
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
      if (list === undefined) lists.set(word, (list = { last: -1, count: 0, bytes: [] }));
      if (list.last === v) continue;
      let gap = v - list.last;
      while (gap >= 0x80) {
        list.bytes.push((gap & 0x7f) | 0x80);
        gap >>>= 7;
      }
      list.bytes.push(gap);
      list.last = v;
      list.count++;
    }
  }
  const words = [...lists.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const counts = new Uint32Array(words.length);
  const starts = new Uint32Array(words.length + 1);
  words.forEach((word, w) => {
    const list = lists.get(word)!;
    counts[w] = list.count;
    starts[w + 1] = starts[w] + list.bytes.length;
  });
  const bytes = new Uint8Array(starts[words.length]);
  words.forEach((word, w) => bytes.set(lists.get(word)!.bytes, starts[w]));
  return [...stringTableSections(words), counts, starts, bytes];
}
