import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { fuzzyTerms } from './fuzzy.ts';
import { lowerBound, prefixRange } from './prefix.ts';
import { osa } from './test-fixtures.ts';
import { buildTrie } from '../../store/format/term-trie.ts';
import { stringList } from '../../store/format/string-table.ts';

function lookup(terms: string[], word: string, k: number): Map<string, number> {
  const out = new Map<string, number>();
  fuzzyTerms(buildTrie(terms), word, k, (t, dist) => {
    expect(out.has(terms[t])).toBe(false); // each term visited once
    out.set(terms[t], dist);
  });
  return out;
}

describe('prefixRange', () => {
  const terms = ['a', 'ab', 'abc', 'abd', 'b', 'ba', 'mueller', 'muller', 'mullers'].sort();

  it('finds the contiguous run of terms with the prefix, exact term first', () => {
    const [lo, hi] = prefixRange(stringList(terms), 'ab');
    expect(terms.slice(lo, hi)).toEqual(['ab', 'abc', 'abd']);
    const [lo2, hi2] = prefixRange(stringList(terms), 'mul');
    expect(terms.slice(lo2, hi2)).toEqual(['muller', 'mullers']);
  });

  it('gives an empty range when nothing starts with the word', () => {
    const [lo, hi] = prefixRange(stringList(terms), 'abx');
    expect(hi - lo).toBe(0);
    expect(lo).toBe(lowerBound(stringList(terms), 'abx'));
    expect(prefixRange(stringList([]), 'a')).toEqual([0, 0]);
  });
});

describe('buildTrie', () => {
  it('spells every term along its path and nests subtrees', () => {
    const terms = ['a', 'ab', 'abc', 'abd', 'b', 'ba', 'mueller', 'muller', 'mullers'];
    const trie = buildTrie(terms);
    const spelled: string[] = [];
    const walk = (node: number, prefix: string) => {
      if (trie.term[node] >= 0) spelled[trie.term[node]] = prefix;
      for (let c = node + 1; c < trie.end[node]; c = trie.end[c]) {
        expect(trie.end[c]).toBeLessThanOrEqual(trie.end[node]);
        walk(c, prefix + String.fromCharCode(trie.char[c]));
      }
    };
    walk(0, '');
    expect(spelled).toEqual(terms);
    // shared prefixes are shared nodes: root + a,b,c,d + b,a + m,u,e,l,l,e,r + l,l,e,r,s
    expect(trie.end.length).toBe(1 + 4 + 2 + 7 + 5);
    expect(trie.maxDepth).toBe(7);
  });

  it('handles an empty dictionary', () => {
    const trie = buildTrie([]);
    expect(trie.end.length).toBe(1);
    expect(trie.maxDepth).toBe(0);
  });
});

describe('fuzzyTerms', () => {
  it('counts insertions, deletions, substitutions and adjacent swaps as one edit', () => {
    const terms = ['weber', 'webber', 'weer', 'wever', 'wbeer', 'ewber', 'weberin', 'x'].sort();
    expect(lookup(terms, 'weber', 1)).toEqual(new Map([['weber', 0], ['webber', 1], ['weer', 1], ['wever', 1], ['wbeer', 1], ['ewber', 1]]));
  });

  it('respects the edit bound', () => {
    const terms = ['zimmermann', 'zimmerman', 'zinmerman', 'zinnerman'].sort();
    expect(lookup(terms, 'zimmermann', 2)).toEqual(new Map([['zimmermann', 0], ['zimmerman', 1], ['zinmerman', 2]]));
    expect(lookup(terms, 'zimmermann', 1)).toEqual(new Map([['zimmermann', 0], ['zimmerman', 1]]));
  });

  it('returns nothing for k = 0 or an empty dictionary', () => {
    expect(lookup(['abc'], 'abc', 0).size).toBe(0);
    expect(lookup([], 'abc', 2).size).toBe(0);
  });

  it('agrees with a brute-force OSA over random dictionaries', () => {
    const letter = fc.constantFrom('a', 'b', 'c', 'd', 'ü', 'e');
    const word = fc.array(letter, { minLength: 1, maxLength: 9 }).map((a) => a.join(''));
    fc.assert(
      fc.property(fc.uniqueArray(word, { minLength: 1, maxLength: 60 }), word, fc.constantFrom(1, 2), (dict, q, k) => {
        const terms = [...dict].sort();
        const expected = new Map(terms.map((t) => [t, osa(t, q)] as const).filter(([, d]) => d <= k));
        expect(lookup(terms, q, k)).toEqual(expected);
      }),
      { numRuns: 400 },
    );
  });
});
