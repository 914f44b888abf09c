import { describe, expect, it } from 'vitest';
import { rawWords } from '../format/words.ts';
import { splitWords } from './word-split.ts';

describe('splitWords', () => {
  it('finds rawWords’ words in any text: letters, digits and marks of every script, separators, surrogate pairs and lone halves', () => {
    expect(splitWords('Univ.-Prof. Dr. Anna Mu\u0308ller-Lüdenscheidt, PhD')).toEqual(['Univ', 'Prof', 'Dr', 'Anna', 'Mu\u0308ller', 'Lüdenscheidt', 'PhD']);
    expect(splitWords('  .,-()  ')).toEqual([]);
    const pool = ['a', 'Z', '7', ' ', '-', '.', '_', 'ä', 'ß', '\u0308', '\u00a0', '\u2028', '½', '²', 'ا', '٣', '中', 'ـ', '\u200d', '😀', '𝐀', '\ud835', '\udc00', '\u3000', 'İ'];
    let seed = 7;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31);
    for (let n = 0; n < 3000; n++) {
      let text = '';
      for (let len = next() % 12; len > 0; len--) text += next() % 4 === 0 ? String.fromCharCode(next() % 0x10000) : pool[next() % pool.length];
      expect(splitWords(text), JSON.stringify(text)).toEqual(rawWords(text));
    }
  });
});
