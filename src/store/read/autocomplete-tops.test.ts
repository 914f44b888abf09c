import { describe, expect, it } from 'vitest';
import { prefixCodes } from '../../query/autocomplete/prefix-codes.ts';
import { prefixTops } from '../../query/autocomplete/prefix-tops.ts';
import { autocompleteOf } from '../../query/autocomplete/searcher.ts';
import { syntheticDirectory } from '../../query/autocomplete/test-fixtures.ts';
import { AC } from '../format/autocomplete-file.ts';
import { decodeIndex } from '../format/autocomplete-index.ts';
import { DistError } from '../format/manifest.ts';
import { autocompleteFile } from '../write/autocomplete-file.ts';
import { buildIndexJson } from '../write/index-builder.ts';
import { readAutocompleteFile } from './autocomplete-file.ts';
import { FileNeeded } from './per-need.ts';
import { readInParts } from './sections.ts';

const index = decodeIndex(buildIndexJson(syntheticDirectory(2000, 7)));
const tops = prefixTops(index, 20, 8);
const file = autocompleteFile(index, tops, prefixCodes(index, 20));
const table = new DataView(file.buffer, file.byteOffset + 16);
const section = (i: number) => [table.getUint32(i * 8, true), table.getUint32(i * 8, true) + table.getUint32(i * 8 + 4, true)] as const;

/** The file read in parts as an isolate reads it: each answer run again after a round fetches the ranges it asked for. */
function inParts(bytes: Uint8Array) {
  const fetched: (readonly [number, number])[] = [];
  const parts = {
    need(ranges: readonly (readonly [number, number])[]) {
      const missing = ranges.filter(([start, end]) => end > start && !fetched.some(([from, to]) => from <= start && end <= to));
      if (missing.length > 0) throw new FileNeeded(missing.map((r) => r.join('-')));
    },
    at: (start: number, end: number) => bytes.slice(start, end),
  };
  const run = <T>(answer: () => T): T => {
    for (;;) {
      try {
        return answer();
      } catch (e) {
        if (!(e instanceof FileNeeded)) throw e;
        for (const key of e.rels) fetched.push(key.split('-').map(Number) as [number, number]);
      }
    }
  };
  const fault = (problem: string) => new DistError(`damaged: ${problem}`);
  const searcher = autocompleteOf(run(() => readAutocompleteFile(readInParts(new Uint8Array(bytes.length), parts), fault)));
  /** bytes fetched of section i */
  const bytesOf = (i: number) => {
    const [from, to] = section(i);
    return fetched.reduce((n, [start, end]) => n + Math.max(0, Math.min(end, to) - Math.max(start, from)), 0);
  };
  return { search: (q: string, models: Parameters<typeof searcher.search>[1] = null) => run(() => searcher.search(q, models).page(0, 20)), bytesOf };
}

describe('the tops of an autocomplete file read in parts', () => {
  const whole = autocompleteOf(readAutocompleteFile(file));
  const keys = Array.from({ length: tops.keys.length }, (_, i) => tops.keys.at(i)).filter((k) => !k.includes('\n') && !k.includes(' '));

  it('answer as the file read whole, fetching the one key\'s lists', () => {
    expect(keys.length).toBeGreaterThan(5);
    for (const q of [keys[0], keys[keys.length >> 1], keys[keys.length - 1]]) {
      for (const models of [null, ['person'] as const, ['room', 'organization'] as const]) {
        const parted = inParts(file);
        expect(parted.search(q, models as never), q).toEqual(whole.search(q, models as never).page(0, 20));
        // a key's lists: at most 6 models × 20 results of 4 bytes each, a block or two of the section
        for (const i of [AC.topDocs, AC.topRanks]) expect(parted.bytesOf(i)).toBeLessThanOrEqual(6 * 20 * 4);
        expect(parted.bytesOf(AC.topCounts)).toBe(6 * 4);
      }
    }
    expect(section(AC.topDocs)[1] - section(AC.topDocs)[0]).toBeGreaterThan(6 * 20 * 4 * 4);
  });

  it('name the file damaged for a key whose lists point past them', () => {
    const at = tops.keys.length >> 1;
    const damaged = file.slice();
    const view = new DataView(damaged.buffer);
    // the key's last list ends past the results
    view.setUint32(section(AC.topStarts)[0] + ((at + 1) * 6) * 4, 1e9, true);
    expect(() => inParts(damaged).search(tops.keys.at(at))).toThrow(/damaged: .*top lists do not fit its lists/);
  });
});
