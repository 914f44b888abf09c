// rawWords (store/format/words.ts) for the build's directory indexes, which split every object's
// presentation, name and keywords (~1.1M texts at 200k objects): the same words, read unit by
// unit with each UTF-16 unit's class looked up, where the pattern's split calls into its Unicode
// tables for every character (3x slower). The query side (server, browser) keeps the pattern.
import { rawWords } from '../format/words.ts';

const WORD_CHAR = /[\p{L}\p{N}\p{M}]/u;

/**
 * Each code unit's class, learnt from WORD_CHAR as it is first met: 0 not yet known, 1 inside a
 * word, 2 between words, 3 a surrogate (a code point of two units: left to rawWords' pattern).
 */
let unitClass: Uint8Array | null = null;

/** rawWords(text): maximal runs of letters, digits and combining marks. */
export function splitWords(text: string): string[] {
  const units = (unitClass ??= new Uint8Array(0x10000).fill(3, 0xd800, 0xe000));
  const words: string[] = [];
  let start = -1;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    let k = units[c];
    if (k === 0) k = units[c] = WORD_CHAR.test(String.fromCharCode(c)) ? 1 : 2;
    if (k === 1) {
      if (start < 0) start = i;
    } else if (k === 2) {
      if (start >= 0) words.push(text.slice(start, i));
      start = -1;
    } else {
      return rawWords(text);
    }
  }
  if (start >= 0) words.push(text.slice(start));
  return words;
}
