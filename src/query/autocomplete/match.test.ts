// The two words read in one pass (Matcher.firstPair) against the same words read one by one
// (first, then refine): the same objects in the same order with the same ranks, for words with
// and without prefix codes, with typo matches and under model masks.
import { describe, expect, it, vi } from 'vitest';
import { decodeIndex } from '../../store/format/autocomplete-index.ts';
import { readAutocompleteFile } from '../../store/read/autocomplete-file.ts';
import { autocompleteFile } from '../../store/write/autocomplete-file.ts';
import { buildIndexJson } from '../../store/write/index-builder.ts';
import { mulberry32 } from '../../util/mulberry32.ts';
import { Matcher, type Candidates } from './match.ts';
import { addFuzzy, planWord } from './plan.ts';
import { prefixCodes } from './prefix-codes.ts';
import { prefixTops } from './prefix-tops.ts';
import { queryWords } from './query-words.ts';
import { CONTRIB, NO_CONTRIB } from './rank.ts';
import { syntheticDirectory } from './test-fixtures.ts';

const copy = (c: Candidates) => ({ docs: Array.from(c.docs.subarray(0, c.length)), rank: Array.from(c.rank.subarray(0, c.length)) });
/** The candidates as (object, rank) pairs by object: their order is not an answer's (ranks order those). */
const pairs = (c: Candidates) => Array.from(c.docs.subarray(0, c.length), (d, i) => [d, c.rank[i]]).sort((a, b) => a[0] - b[0]);

describe('matching two words in one pass', () => {
  const objects = syntheticDirectory(1500, 11);
  const decoded = decodeIndex(buildIndexJson(objects));
  const index = readAutocompleteFile(autocompleteFile(decoded, prefixTops(decoded, 20), prefixCodes(decoded, 40)));
  const terms = Array.from({ length: index.terms.length }, (_, t) => index.terms.at(t));

  it('finds what first and refine find, rank for rank', () => {
    const fused = new Matcher(index);
    const plain = new Matcher(index);
    const r = mulberry32(3);
    const pick = <T>(a: readonly T[]) => a[Math.floor(r() * a.length)];
    // a whole term, a prefix of one, or a term with a typo
    const word = () => {
      const t = pick(terms);
      const x = r();
      if (x < 0.4) return t;
      if (x < 0.8) return t.slice(0, 1 + Math.floor(r() * t.length));
      const i = Math.floor(r() * t.length);
      return t.slice(0, i) + 'e' + t.slice(i + 1);
    };
    const paths = { lookup: 0, scan: 0, second: 0, runs: 0, runsLookup: 0, listed: 0 };
    // which way the pass took, as it took it: a pass that reads against stamps calls stampedPair,
    // one whose first word is several terms' readRuns (against stamps or codes)
    const stamped = vi.spyOn(fused as unknown as { stampedPair: (read: unknown) => unknown }, 'stampedPair');
    const runs = vi.spyOn(fused as unknown as { readRuns: (...args: unknown[]) => unknown }, 'readRuns');
    const listed = vi.spyOn(fused as unknown as { firstListed: (...args: unknown[]) => unknown }, 'firstListed');
    for (let i = 0; i < 3000; i++) {
      const [a, b] = [word(), word()].map((w) => queryWords(w)[0]);
      if (a === undefined || b === undefined) continue;
      const one = planWord(index, a);
      const two = planWord(index, b);
      addFuzzy(index, one);
      addFuzzy(index, two);
      const mask = r() < 0.5 ? 63 : 1 + Math.floor(r() * 63);
      const second = r() < 0.1 ? NO_CONTRIB : CONTRIB;
      const before = stamped.mock.calls.length;
      const runsBefore = runs.mock.calls.length;
      const listedBefore = listed.mock.calls.length;
      const got = fused.firstPair(one, two, mask, CONTRIB, second);
      if (got === null) continue;
      const result = pairs(got);
      const want = plain.first(one, mask, CONTRIB);
      plain.refine(two, want, second);
      expect(result, `${a.forms} ${b.forms} mask ${mask}`).toEqual(pairs(want));
      expect(got.length).toBeLessThanOrEqual(Math.min(one.cost, two.cost));
      if (listed.mock.calls.length > listedBefore) paths.listed++;
      else if (runs.mock.calls.length > runsBefore && runs.mock.calls.at(-1)![3] !== null) {
        if (runs.mock.calls.at(-1)![5] === true) paths.runsLookup++;
        else paths.runs++;
      } else if (stamped.mock.calls.length === before) paths.lookup++;
      else if (stamped.mock.calls.at(-1)![0] === two) paths.second++;
      else paths.scan++;
    }
    // every way of the pass is taken, many times
    expect(paths.lookup).toBeGreaterThan(100);
    expect(paths.scan).toBeGreaterThan(100);
    expect(paths.second).toBeGreaterThan(100);
    expect(paths.runs).toBeGreaterThan(100);
    expect(paths.runsLookup).toBeGreaterThan(20);
    expect(paths.listed).toBeGreaterThan(20);
  });

  it('keeps finding the same after the stamps wrap around', () => {
    // the browser's index: no prefix codes, every second word is scanned (stamped)
    const matcher = new Matcher(decoded);
    const plain = new Matcher(decoded);
    const plan = (w: string) => {
      const p = planWord(decoded, { forms: [w], maxEdits: 0 });
      addFuzzy(decoded, p);
      return p;
    };
    const pairs = terms.flatMap((t, i) => (i % 7 === 0 ? [[plan(t), plan(terms[(i * 31) % terms.length].slice(0, 2))]] : []));
    const scanned = pairs.filter(([one, two]) => matcher.firstPair(one, two, 63, CONTRIB, CONTRIB) !== null);
    expect(scanned.length).toBeGreaterThan(3);
    for (let round = 0; round < 40; round++) {
      for (const [one, two] of scanned) {
        const got = copy(matcher.firstPair(one, two, 63, CONTRIB, CONTRIB)!);
        const want = plain.first(one, 63, CONTRIB);
        plain.refine(two, want, CONTRIB);
        expect(got).toEqual(copy(want));
      }
    }
  });
});
