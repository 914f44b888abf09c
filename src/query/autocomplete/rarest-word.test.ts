// A query of several words is matched from its rarest word, typo matches counted: its answer must
// not depend on which word that is (the same as with the words in any other order, and as the
// browser's), and its work must follow the rarest word, not a word with few postings of its own
// and many one edit away. The server's answer is made of the stored suggestion bytes: they must
// be the browser's rendered suggestions.
import { prefixCodes } from './prefix-codes.ts';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { DirectoryModel } from '../../model/types.ts';
import { decodeIndex } from '../../store/format/autocomplete-index.ts';
import { readAutocompleteFile } from '../../store/read/autocomplete-file.ts';
import { autocompleteFile } from '../../store/write/autocomplete-file.ts';
import { buildIndexJson } from '../../store/write/index-builder.ts';
import { metered, WorkMeter } from '../work-budget.ts';
import { prefixTops } from './prefix-tops.ts';
import { autocompleteOf, createAutocomplete, type Autocomplete } from './searcher.ts';
import { person, syntheticDirectory } from './test-fixtures.ts';

function serverAndBrowser(json: string): { server: Autocomplete; browser: Autocomplete } {
  const index = decodeIndex(json);
  return { server: autocompleteOf(readAutocompleteFile(autocompleteFile(index, prefixTops(index, 20), prefixCodes(index, 2)))), browser: createAutocomplete(json) };
}

const units = (work: () => void): number => {
  const meter = new WorkMeter(Number.MAX_SAFE_INTEGER);
  metered(meter, work);
  return meter.used;
};

describe('multi-word queries from the rarest word', () => {
  const objects = syntheticDirectory(1500, 11);
  const { server, browser } = serverAndBrowser(buildIndexJson(objects));
  const words = [...new Set(objects.flatMap((o) => o.presentation.split(/[\s,.()-]+/).filter(Boolean)))];
  const MODELS: (DirectoryModel[] | null)[] = [null, ['campus.Person'], ['campus.Room', 'geo.Room'], ['structure.Organization']];
  // a word of the directory as typed: cut short, with a typo, or in capitals
  const typed = fc.tuple(fc.constantFrom(...words), fc.nat(30), fc.constantFrom('whole', 'cut', 'typo', 'upper')).map(([w, at, how]) => {
    const i = at % w.length;
    if (how === 'cut') return w.slice(0, i + 1);
    if (how === 'typo') return w.slice(0, i) + 'e' + w.slice(i + 1);
    return how === 'upper' ? w.toUpperCase() : w;
  });

  it('answer as the words in any other order do, as the browser does, the stored bytes being its suggestions', () => {
    fc.assert(
      fc.property(fc.array(typed, { minLength: 2, maxLength: 4 }), fc.constantFrom(...MODELS), fc.nat(5), (asked, models, offset) => {
        const q = asked.join(' ');
        const got = server.search(q, models);
        const reversed = server.search([...asked].reverse().join(' '), models);
        const expected = browser.search(q, models);
        expect(got.count).toBe(expected.count);
        expect(reversed.count).toBe(expected.count);
        const page = expected.page(offset, 10);
        expect(got.page(offset, 10)).toEqual(page);
        expect(reversed.page(offset, 10)).toEqual(page);
        expect(got.pageBytes(offset, 10).map((b) => new TextDecoder().decode(b))).toEqual(page);
        expect(expected.pageBytes(offset, 10).map((b) => new TextDecoder().decode(b))).toEqual(page);
      }),
      { numRuns: 300, seed: 34 },
    );
  });

  it('work as the rarest word counting its typo matches: a word with many postings one edit away is checked, not scanned', () => {
    // "auer" has two objects of its own and four hundred Bauers one edit away; "phd" three objects
    const directory = [
      ...Array.from({ length: 400 }, (_, i) => person(i + 1, 'Eva', 'Bauer')),
      person(1001, 'Karl', 'Auer', { after: 'PhD' }),
      person(1002, 'Anna', 'Auer'),
      person(1003, 'Jan', 'Berg', { after: 'PhD' }),
      person(1004, 'Ida', 'Bauer', { after: 'PhD' }),
    ];
    const { server: ac } = serverAndBrowser(buildIndexJson(directory));
    const answer = (q: string) => ac.search(q, null).page(0, 20).map((s) => JSON.parse(s).id);
    expect(answer('auer phd')).toEqual([1001, 1004]);
    // the typo lookup of "auer" and three candidates checked, far below "auer" alone, which
    // ranks every Bauer
    expect(units(() => ac.search('auer phd', null))).toBeLessThan(units(() => ac.search('auer', null)) / 5);
  });
});
