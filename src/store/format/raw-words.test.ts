import { describe, expect, it } from 'vitest';
import { rawWords } from './words.ts';

/** The definition rawWords reads unit by unit: split on runs of anything but letters, digits and marks. */
const byPattern = (text: string) => text.split(/[^\p{L}\p{N}\p{M}]+/u).filter((w) => w !== '');

describe('rawWords', () => {
  it('finds the pattern’s words in any text: letters, digits and marks of every script, separators, surrogate pairs and lone halves', () => {
    expect(rawWords('Univ.-Prof. Dr. Anna Mu\u0308ller-Lüdenscheidt, PhD')).toEqual(['Univ', 'Prof', 'Dr', 'Anna', 'Mu\u0308ller', 'Lüdenscheidt', 'PhD']);
    expect(rawWords('  .,-()  ')).toEqual([]);
    const pool = ['a', 'Z', '7', ' ', '-', '.', '_', 'ä', 'ß', '\u0308', '\u00a0', '\u2028', '½', '²', 'ا', '٣', '中', 'ـ', '\u200d', '😀', '𝐀', '\ud835', '\udc00', '\u3000', 'İ'];
    let seed = 7;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31);
    for (let n = 0; n < 3000; n++) {
      let text = '';
      for (let len = next() % 12; len > 0; len--) text += next() % 4 === 0 ? String.fromCharCode(next() % 0x10000) : pool[next() % pool.length];
      expect(rawWords(text), JSON.stringify(text)).toEqual(byPattern(text));
    }
  });
});
