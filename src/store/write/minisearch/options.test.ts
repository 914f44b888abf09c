import MiniSearch from 'minisearch';
import { describe, expect, it } from 'vitest';
import { rawWords } from '../../format/words.ts';
import { processQueryTerm, processTerm, tokenize, UMLAUT_MARK } from './options.ts';

describe('tokenize', () => {
  it('splits like the own index, where MiniSearch’s default tokenizer would not', () => {
    for (const text of ['Univ.-Prof. Dr. Anna Müller', 'Hörsaal 1 (05.012)', 'R&D+IT', 'a|b', 'x$y', 'C++ Labor', "O'Brien"]) {
      expect(tokenize(text)).toEqual(rawWords(text));
    }
    expect(tokenize('R&D+IT')).toEqual(['R', 'D', 'IT']);
    // symbols are not punctuation to MiniSearch: "D+IT" would stay one word there
    expect(MiniSearch.getDefault('tokenize')('R&D+IT')).toContain('D+IT');
  });

  it('keeps a decomposed umlaut inside its word', () => {
    expect(tokenize('Mu\u0308ller Weiß')).toEqual(['Mu\u0308ller', 'Weiß']);
  });
});

describe('processTerm (index side)', () => {
  it('indexes the folded and the transliterated form, and both in the umlaut vocabulary', () => {
    expect(processTerm('Müller')).toEqual(['muller', 'mueller', `${UMLAUT_MARK}muller`]);
    expect(processTerm('Mueller')).toEqual(['mueller', `${UMLAUT_MARK}muller`]);
    expect(processTerm('Weiß')).toEqual(['weiss']); // no a/o/u: no umlaut query can reach it
    expect(processTerm('Öztürk')).toEqual(['ozturk', 'oeztuerk', `${UMLAUT_MARK}ozturk`]);
  });
});

describe('processQueryTerm (search side)', () => {
  it('searches a word without umlauts as it folds', () => {
    expect(processQueryTerm('MUELLER')).toEqual(['mueller']);
    expect(processQueryTerm('mul')).toEqual(['mul']);
    expect(processQueryTerm('weiß')).toEqual(['weiss']);
  });

  it('searches a word with umlauts in the umlaut vocabulary, as one term', () => {
    expect(processQueryTerm('mül')).toBe(`${UMLAUT_MARK}mul`);
    expect(processQueryTerm('MÜL')).toBe(`${UMLAUT_MARK}mul`);
    expect(processQueryTerm('Mu\u0308l')).toBe(`${UMLAUT_MARK}mul`);
  });

  it('drops a word without letters', () => {
    expect(processQueryTerm('\u0308')).toBeNull();
  });
});

describe('with MiniSearch', () => {
  const docs = [
    { key: 'campus.person:1', id: 1, name: 'Anna Müller' },
    { key: 'campus.person:2', id: 2, name: 'Peter Mueller' },
    { key: 'campus.person:3', id: 3, name: 'Eva Muller' },
    { key: 'campus.person:4', id: 4, name: 'Max Mulder' },
  ];
  const ms = new MiniSearch({ idField: 'key', fields: ['name'], storeFields: ['id'], tokenize, processTerm, searchOptions: { tokenize, processTerm: processQueryTerm } });
  ms.addAll(docs);
  const ids = (q: string) => ms.search(q, { prefix: true, combineWith: 'AND' }).map((r) => r.id as number).sort();

  it('finds either spelling for an umlaut query, and only the typed one otherwise', () => {
    expect(ids('mül')).toEqual([1, 2, 3, 4]); // mul… or muel…
    expect(ids('müll')).toEqual([1, 2, 3]);
    expect(ids('muel')).toEqual([1, 2]);
    expect(ids('MUELLER')).toEqual([1, 2]);
    expect(ids('mul')).toEqual([1, 3, 4]);
    expect(ids('anna mül')).toEqual([1]);
  });
});
