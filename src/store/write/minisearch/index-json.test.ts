// miniSearchJson against the library itself: random documents, the bytes of JSON.stringify of a
// MiniSearch given the same documents, and the same answers once loaded.
import MiniSearch, { type SearchOptions } from 'minisearch';
import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../../../util/mulberry32.ts';
import { person, room, syntheticDirectory } from '../../../query/autocomplete/test-fixtures.ts';
import { miniSearchDocuments } from './documents.ts';
import { miniSearchJson } from './index-json.ts';
import { miniSearchOptions, type MiniSearchDocument } from './options.ts';

// umlauts composed and decomposed, their spellings without, folds to several words or none,
// characters outside the BMP, a lone surrogate, JSON's escapes, repeats
const WORDS = [
  'Müller', 'Mueller', 'Muller', 'müller', 'Hörsaal', 'Ärztin', 'Straße', 'Łódź', 'İstanbul', 'e\u0301cole', 'u\u0308ber',
  '½', '05.012', 'a', 'A', 'Zebra', 'zebra', '😀x', 'x\ud800', '"A"', 'back\\slash', 'tab\there', '', ' ', '-', 'Ö', 'Dr.',
];

function randomDocuments(seed: number, n: number): MiniSearchDocument[] {
  const random = mulberry32(seed);
  const pick = () => WORDS[Math.floor(random() * WORDS.length)];
  const text = (most: number) => Array.from({ length: Math.floor(random() * (most + 1)) }, pick).join(random() < 0.5 ? ' ' : ', ');
  const ids = Array.from({ length: n }, (_, i) => i * 7 + 1).sort(() => random() - 0.5);
  return ids.map((id) => {
    const ctype = random() < 0.5 ? 'campus.person' : 'campus.room';
    const keywords = random() < 0.1 ? null : Array.from({ length: Math.floor(random() * 4) }, () => text(3));
    const room = ctype === 'campus.room';
    return {
      key: `${ctype}:${id}`,
      id,
      ctype,
      presentation: `${text(6)}\n`,
      keywords: keywords as string[],
      level_id: room ? Math.floor(random() * 9) : null,
      room_id: room && random() < 0.8 ? id : null,
    };
  });
}

const same = (document: MiniSearchDocument) => document;

function library(documents: MiniSearchDocument[]): MiniSearch<MiniSearchDocument> {
  const miniSearch = new MiniSearch<MiniSearchDocument>(miniSearchOptions);
  miniSearch.addAll(documents);
  return miniSearch;
}

describe('miniSearchJson', () => {
  it('writes what JSON.stringify of a MiniSearch given the same documents writes, byte for byte', () => {
    for (let seed = 1; seed <= 40; seed++) {
      const documents = randomDocuments(seed, 1 + (seed % 7) * 20);
      const ours = miniSearchJson(documents, same);
      expect(ours.toString(), `seed ${seed}`).toBe(JSON.stringify(library(documents)));
      expect(ours.equals(Buffer.from(JSON.stringify(library(documents)))), `seed ${seed}`).toBe(true);
    }
  });

  it('writes the directory as the library does, and an empty index as it does', () => {
    const objects = [
      ...syntheticDirectory(600, 3),
      person(70001, 'Anna', 'Müller', { title: 'Dr.', keywords: ['Dekanin', 'Prüfungsamt "A"', 'Zebra'] }),
      person(70002, 'Zora', 'Zebra'),
      room(70001, 'Hörsaal 1', '05.012', { level: 5, room: 12 }),
    ];
    const documents = miniSearchDocuments(objects);
    expect(miniSearchJson(documents, same).toString()).toBe(JSON.stringify(library(documents)));
    expect(miniSearchJson([], same).toString()).toBe(JSON.stringify(library([])));
  });

  it('loads into a MiniSearch that answers searches as the library’s own index does', () => {
    const documents = randomDocuments(99, 300);
    const own = library(documents);
    const loaded = MiniSearch.loadJSON<MiniSearchDocument>(miniSearchJson(documents, same).toString(), miniSearchOptions);
    // a loaded tree lists a result's matched terms in another order than the one indexing grew,
    // so its scores are summed in another order (and may differ in the last bit)
    const found = (miniSearch: MiniSearch<MiniSearchDocument>, query: string, options: SearchOptions) =>
      miniSearch
        .search(query, options)
        .map((result) => ({ ...result, key: `${result.ctype}:${result.id}`, score: result.score.toPrecision(12), terms: [...result.terms].sort() }))
        .sort((a, b) => a.key.localeCompare(b.key));
    let results = 0;
    for (const query of ['mül', 'muel', 'muller', 'zeb', 'hörs', 'istanbul', 'ecole', '05.012', 'a', 'dr']) {
      for (const options of [{ prefix: true, combineWith: 'AND' as const }, { fuzzy: 0.2 }]) {
        const expected = found(own, query, options);
        expect(found(loaded, query, options), query).toEqual(expected);
        results += expected.length;
      }
    }
    expect(results).toBeGreaterThan(100);
  });

  it('refuses a key given twice, as MiniSearch does', () => {
    const [a] = randomDocuments(5, 1);
    expect(() => miniSearchJson([a, { ...a }], same)).toThrow(/duplicate ID/);
  });

  it('writes past its first guess of the bytes', () => {
    const long = (c: string) => `${c.repeat(300_000)} Z\ud800`;
    const documents = ['ä', '€', 'a'].map((c, i) => ({ key: `k:${i}`, id: i, ctype: 'k', presentation: long(c), keywords: [long(c)], level_id: null, room_id: null }));
    const ours = miniSearchJson(documents, same);
    expect(ours.length).toBeGreaterThan(2 << 20);
    expect(ours.equals(Buffer.from(JSON.stringify(library(documents))))).toBe(true);
  });
});
