import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { intersect, intersectFirst, startCandidates, type WordList } from './intersect.ts';
import { CONTRIB, NO_CONTRIB } from './rank.ts';

const SIZE = 300;

/** A word over documents < SIZE: doc → code, as WordDocs holds it (with a bitmap when asked). */
function wordList(codes: Map<number, number>, withBits: boolean): WordList {
  const docs = [...codes.keys()].sort((a, b) => a - b);
  const entries = Int32Array.from(docs, (d) => (d << 3) | codes.get(d)!);
  let bits: Int32Array | null = null;
  if (withBits) {
    bits = new Int32Array((SIZE + 31) >>> 5);
    for (const d of docs) bits[d >>> 5] |= 1 << (d & 31);
  }
  return { entries, bits };
}

const wordArb = fc
  .tuple(fc.array(fc.tuple(fc.nat(SIZE - 1), fc.nat(7)), { maxLength: 200 }), fc.boolean())
  .map(([pairs, withBits]) => ({ codes: new Map(pairs), withBits }));

describe('intersect', () => {
  it('keeps exactly the candidates in the word and adds its contribution, in order, in place', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.nat(SIZE - 1), { maxLength: 150 }), wordArb, fc.boolean(), (candidates, w, ranked) => {
        const cand = [...candidates].sort((a, b) => a - b);
        const docs = new Int32Array(SIZE);
        const rank = new Int32Array(SIZE);
        cand.forEach((d, i) => {
          docs[i] = d;
          rank[i] = d * 7;
        });
        const contrib = ranked ? CONTRIB : NO_CONTRIB;
        const n = intersect(docs, rank, cand.length, wordList(w.codes, w.withBits), contrib, docs, rank);
        const expected = cand.filter((d) => w.codes.has(d));
        expect(Array.from(docs.subarray(0, n))).toEqual(expected);
        expect(Array.from(rank.subarray(0, n))).toEqual(expected.map((d) => d * 7 + contrib[w.codes.get(d)!]));
      }),
      { numRuns: 400 },
    );
  });

  it('starts from the first word, filtered by model, with or without a second word', () => {
    fc.assert(
      fc.property(wordArb, wordArb, fc.integer({ min: 1, max: 63 }), fc.boolean(), (a, b, mask, filtered) => {
        const model = Uint8Array.from({ length: SIZE }, (_, d) => (d * 5) % 6);
        const m = filtered ? model : null;
        const inMask = (d: number) => !filtered || ((1 << model[d]) & mask) !== 0;
        const first = wordList(a.codes, a.withBits);
        const docs = new Int32Array(SIZE);
        const rank = new Int32Array(SIZE);
        const firstDocs = [...a.codes.keys()].sort((x, y) => x - y).filter(inMask);
        let n = startCandidates(first, CONTRIB, docs, rank, m, mask);
        expect(Array.from(docs.subarray(0, n))).toEqual(firstDocs);
        expect(Array.from(rank.subarray(0, n))).toEqual(firstDocs.map((d) => CONTRIB[a.codes.get(d)!]));
        n = intersectFirst(first, CONTRIB, wordList(b.codes, b.withBits), CONTRIB, docs, rank, m, mask);
        const both = firstDocs.filter((d) => b.codes.has(d));
        expect(Array.from(docs.subarray(0, n))).toEqual(both);
        expect(Array.from(rank.subarray(0, n))).toEqual(both.map((d) => CONTRIB[a.codes.get(d)!] + CONTRIB[b.codes.get(d)!]));
      }),
      { numRuns: 400 },
    );
  });
});
