// data/autocomplete.bin as the loader checks it: a file whose lists point outside it is refused by
// what points where, whatever value of a list is the one out of bounds.
import { describe, expect, it } from 'vitest';
import { prefixCodes } from '../../query/autocomplete/prefix-codes.ts';
import { prefixTops } from '../../query/autocomplete/prefix-tops.ts';
import { syntheticDirectory } from '../../query/autocomplete/test-fixtures.ts';
import { AC, AUTOCOMPLETE_FILE_FORMAT } from '../format/autocomplete-file.ts';
import { decodeIndex } from '../format/autocomplete-index.ts';
import { autocompleteFile } from '../write/autocomplete-file.ts';
import { buildIndexJson } from '../write/index-builder.ts';
import { readAutocompleteFile } from './autocomplete-file.ts';
import { readInParts, Sections } from './sections.ts';
import { FileNeeded } from './per-need.ts';
import { autocompleteOf } from '../../query/autocomplete/searcher.ts';

describe('the autocomplete file as read', () => {
  const index = decodeIndex(buildIndexJson(syntheticDirectory(300, 5)));
  const file = autocompleteFile(index, prefixTops(index, 20), prefixCodes(index, 20));

  /** `file` with one value of section `at` changed by `change`, at the first, a middle and the last place. */
  const damaged = function* (at: number, kind: 'i32' | 'u8', change: (values: Int32Array | Uint8Array, i: number) => void) {
    for (const where of ['first', 'middle', 'last'] as const) {
      const copy = file.slice();
      const values = Sections.of(copy, AUTOCOMPLETE_FILE_FORMAT)[kind](at, 'x');
      const i = where === 'first' ? 0 : where === 'middle' ? values.length >> 1 : values.length - 1;
      change(values, i);
      yield copy;
    }
  };

  it('refuses postings, forward lists, a trie and models that point outside it', () => {
    expect(() => readAutocompleteFile(file)).not.toThrow();
    const cases: [number, 'i32' | 'u8', (v: Int32Array | Uint8Array, i: number) => void, RegExp][] = [
      [AC.postings, 'i32', (v, i) => (v[i] = index.size * 2), /whose postings point outside it/],
      [AC.postings, 'i32', (v, i) => (v[i] = -1), /whose postings point outside it/],
      [AC.forward, 'i32', (v, i) => (v[i] = index.terms.length * 2), /whose postings point outside it/],
      [AC.trieEnd, 'i32', (v, i) => (v[i] = i), /whose trie points outside it/],
      [AC.trieEnd, 'i32', (v) => (v[0] = v.length + 1), /whose trie points outside it/],
      [AC.trieTerm, 'i32', (v, i) => (v[i] = index.terms.length), /whose trie points outside it/],
      [AC.trieTerm, 'i32', (v, i) => (v[i] = -2), /whose trie points outside it/],
      [AC.model, 'u8', (v, i) => (v[i] = 200), /whose objects name models it does not have/],
      [AC.model, 'u8', (v, i) => (v[i] = 6), /whose objects name models it does not have/],
      [AC.model, 'u8', (v, i) => (v[i] = 8), /whose objects name models it does not have/],
    ];
    for (const [at, kind, change, problem] of cases) {
      for (const bad of damaged(at, kind, change)) expect(() => readAutocompleteFile(bad), `${at} ${problem}`).toThrow(problem);
    }
  });

  it('read in parts, reads the tops only for a query that looks its words up there, and answers as read whole', () => {
    // each section's place, from the section table (sections.ts: offset and length u32 each, after a 16-byte header)
    const table = new DataView(file.buffer, file.byteOffset + 16);
    const tops = [AC.topKeys, AC.topKeys + 1, AC.topKeys + 2, AC.topCounts, AC.topStarts, AC.topDocs, AC.topRanks].map((i) => [table.getUint32(i * 8, true), table.getUint32(i * 8, true) + table.getUint32(i * 8 + 4, true)] as const);
    const whole = autocompleteOf(readAutocompleteFile(file));
    // which queries read a byte of the tops, each asked of an index read anew
    const readsTops = (q: string) => {
      const asked: (readonly [number, number])[] = [];
      const parts = { need: (ranges: readonly (readonly [number, number])[]) => void asked.push(...ranges), at: (start: number, end: number) => file.subarray(start, end) };
      const found = autocompleteOf(readAutocompleteFile(readInParts(new Uint8Array(file.length), parts))).search(q, null);
      expect(found.page(0, 20), q).toEqual(whole.search(q, null).page(0, 20));
      return asked.some(([start, end]) => tops.some(([from, to]) => start < to && from < end));
    };
    // typed apart: the tops hold words typed as one only; one word: a broad one is there
    expect(['a b', 'ma a', 's k a'].map(readsTops)).toEqual([false, false, false]);
    expect(['a', 'm'].map(readsTops)).toEqual([true, true]);
  });

  it('read in parts, fetches the prefix codes a query reads in the round that fetches its postings', () => {
    const table = new DataView(file.buffer, file.byteOffset + 16);
    const sectionOf = (at: number) => {
      for (let i = AUTOCOMPLETE_FILE_FORMAT.sections - 1; i >= 0; i--) if (table.getUint32(i * 8, true) <= at) return i;
      return 0;
    };
    const codeKeys = prefixCodes(index, 20).keys;
    expect(codeKeys.length).toBeGreaterThan(0);
    // a rare word before a broad one: the rare one's postings read, the broad one's codes looked up
    const rare = Array.from({ length: index.terms.length }, (_, t) => t).find((t) => index.postStart[t + 1] - index.postStart[t] === 2 && /^[a-z]{4,}$/.test(index.terms.at(t)))!;
    const q = `${index.terms.at(rare)} ${codeKeys.at(0)}`;
    const whole = autocompleteOf(readAutocompleteFile(file)).search(q, null).page(0, 20);
    // each round: what the answer asked for that was not fetched yet (as an edge isolate fetches it), by section
    const fetched: (readonly [number, number])[] = [];
    let asked: (readonly [number, number])[] = [];
    const parts = {
      need(ranges: readonly (readonly [number, number])[]) {
        const missing = ranges.filter(([start, end]) => end > start && !fetched.some(([from, to]) => from <= start && end <= to));
        if (missing.length === 0) return;
        asked.push(...missing);
        throw new FileNeeded(missing.map(String));
      },
      at: (start: number, end: number) => file.subarray(start, end),
    };
    const standIn = readInParts(new Uint8Array(file.length), parts);
    let searcher: ReturnType<typeof autocompleteOf> | undefined;
    const rounds: Set<number>[] = [];
    for (;;) {
      try {
        searcher ??= autocompleteOf(readAutocompleteFile(standIn));
        expect(searcher.search(q, null).page(0, 20)).toEqual(whole);
        break;
      } catch (e) {
        if (!(e instanceof FileNeeded)) throw e;
        rounds.push(new Set(asked.map(([start]) => sectionOf(start))));
        fetched.push(...asked);
        asked = [];
      }
    }
    const codesRounds = rounds.filter((r) => r.has(AC.codes));
    expect(codesRounds).toHaveLength(1);
    expect(codesRounds[0].has(AC.postings)).toBe(true);
  });
});
