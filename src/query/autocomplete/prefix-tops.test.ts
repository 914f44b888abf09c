// The server's searcher answers costly words, and words typed as one ("05.012", "Hans-Georg"), from
// the first pages the build made (prefix-tops.ts), read back from data/autocomplete.bin: its answers
// must be the browser's, which match every word as it is asked, for every query, model set and page.
import { prefixCodes } from './prefix-codes.ts';
import { describe, expect, it } from 'vitest';
import { DIRECTORY_MODELS, type DirectoryModel } from '../../model/types.ts';
import { decodeIndex } from '../../store/format/autocomplete-index.ts';
import { readAutocompleteFile } from '../../store/read/autocomplete-file.ts';
import { autocompleteFile } from '../../store/write/autocomplete-file.ts';
import { buildIndexJson } from '../../store/write/index-builder.ts';
import { mulberry32 } from '../../util/mulberry32.ts';
import { prefixTops } from './prefix-tops.ts';
import { queryWords } from './query-words.ts';
import { topsKey } from './tops-page.ts';
import { autocompleteOf, createAutocomplete } from './searcher.ts';
import { syntheticDirectory } from './test-fixtures.ts';

function both(n: number, seed: number, page: number, minPostings: number) {
  const json = buildIndexJson(syntheticDirectory(n, seed));
  const index = decodeIndex(json);
  const tops = prefixTops(index, page, minPostings);
  return { browser: createAutocomplete(json), server: autocompleteOf(readAutocompleteFile(autocompleteFile(index, tops, prefixCodes(index, 2)))), tops };
}

const MODEL_SETS: (DirectoryModel[] | null)[] = [null, ['campus.Person'], ['campus.Room', 'geo.Room'], ['structure.Organization', 'campus.Student'], [...DIRECTORY_MODELS]];

describe('prefix tops', () => {
  it('answer every word as matching it does: count and every page, for every model set', () => {
    const page = 7;
    const { browser, server, tops } = both(600, 3, page, 1);
    expect(tops.keys.length).toBeGreaterThan(100);
    const r = mulberry32(9);
    const keys = Array.from({ length: tops.keys.length }, (_, i) => tops.keys.at(i));
    // the keys themselves (a form, or an umlaut word's forms), as a user types them, and others
    const asked = [
      ...keys.filter((k) => !k.includes('\n')),
      'Mü', 'MÜL', 'Müll', 'Wei', 'Weiß', 'gro', 'Öz', 'ö', 'hörs', 'Sch', 'schmitd', 'annabel', 'x', '05', '05.0', 'Dr.', '',
      // words typed as one, as the objects have them, cut short, in another order or case
      '05.01', '(03.0', '02.03', '01-02', 'Hans-G', 'hans-georg', 'Univ.-P', 'UNIV.-PROF.', 'Dipl.-I', 'Müller-Lü', 'müller-lüd', "O'Br", 'M.A', 'prof. univ',
    ];
    let fromTops = 0;
    for (const q of asked) {
      for (const models of MODEL_SETS) {
        const a = browser.search(q, models);
        const b = server.search(q, models);
        expect(b.count, `${q} ${models}`).toBe(a.count);
        for (const [offset, limit] of [[0, page], [0, 3], [2, 5], [page - 1, 1], [0, page + 1], [page, page], [r() * 20, 1 + r() * 10]]) {
          expect(b.page(offset, limit), `${q} ${models} ${offset}+${limit}`).toEqual(a.page(offset, limit));
        }
      }
      if (keys.includes(q)) fromTops++;
    }
    expect(fromTops).toBeGreaterThan(100);
    // the words typed as one above are answered from the tops, as asked
    for (const q of ['05.01', 'Hans-G', 'Univ.-P', 'Müller-Lü']) expect(keys, q).toContain(topsKey(queryWords(q)));
  });

  it('keep only the words with enough postings, umlaut words with their forms', () => {
    const { tops } = both(2000, 5, 20, 300);
    const keys = Array.from({ length: tops.keys.length }, (_, i) => tops.keys.at(i));
    expect(keys).toContain('m');
    expect(keys).toContain('mu\nmue'); // "mü"
    // words typed as one, from the objects' own ("M.A" is "m" and "a", "O'B" "o" and "b"), when
    // each of their words has the postings a key needs (and so is a key itself)
    expect(keys).toContain('m a');
    expect(keys).toContain('o b');
    expect(keys).toContain(topsKey(queryWords('Müller-L')));
    expect(keys).not.toContain('univ p');
    const multi = keys.filter((k) => k.includes(' '));
    for (const k of multi) for (const w of k.split(' ')) expect(keys, k).toContain(w);
    expect(keys.length).toBeLessThan(500);
    expect([...keys].sort()).toEqual(keys);
    // at most a page per model
    for (let i = 0; i + 1 < tops.starts.length; i++) expect(tops.starts[i + 1] - tops.starts[i]).toBeLessThanOrEqual(20);
  });
});
