import MiniSearch from 'minisearch';
import { describe, expect, it } from 'vitest';
import { person, room, syntheticDirectory } from '../../../query/autocomplete/test-fixtures.ts';
import { memoized } from '../index-builder.ts';
import { miniSearchDocuments } from './documents.ts';
import { miniSearchOptions, processTerm, type MiniSearchDocument } from './options.ts';
import { miniSearchJson } from './serialize.ts';

const objects = [
  ...syntheticDirectory(600, 3),
  // "zebra" is a keyword before it is a name: its field ids come out of order in the maps
  person(70001, 'Anna', 'Müller', { title: 'Dr.', keywords: ['Dekanin', 'Prüfungsamt "A"', 'Zebra'] }),
  person(70002, 'Zora', 'Zebra'),
  room(70001, 'Hörsaal 1', '05.012', { level: 5, room: 12 }),
];

function index(documents: MiniSearchDocument[]): MiniSearch<MiniSearchDocument> {
  const miniSearch = new MiniSearch({ ...miniSearchOptions, processTerm: memoized(processTerm) });
  miniSearch.addAll(documents);
  return miniSearch;
}

describe('miniSearchJson', () => {
  it('writes what JSON.stringify writes, byte for byte', () => {
    const miniSearch = index(miniSearchDocuments(objects));
    const json = miniSearchJson(miniSearch).toString();
    expect(json).toBe(JSON.stringify(miniSearch));
    expect(MiniSearch.loadJSON(json, miniSearchOptions).documentCount).toBe(objects.length);
  });

  it('orders ids as an object does when documents were discarded and added again (and when empty)', () => {
    const documents = miniSearchDocuments(objects);
    const miniSearch = index(documents);
    // re-added documents get new short ids; their postings come after others' in the maps
    for (const d of documents.slice(0, 50)) miniSearch.discard(d.key);
    miniSearch.addAll(documents.slice(0, 50).reverse());
    expect(miniSearchJson(miniSearch).toString()).toBe(JSON.stringify(miniSearch));
    const empty = index([]);
    expect(miniSearchJson(empty).toString()).toBe(JSON.stringify(empty));
  });

  it('writes past its first guess of the bytes (documents far larger than most), two-byte and lone surrogate characters as JSON.stringify does', () => {
    const long = (c: string) => `${c.repeat(300_000)} Z\ud800`;
    const miniSearch = new MiniSearch<{ id: number; text: string }>({ fields: ['text'], storeFields: ['text'] });
    miniSearch.addAll([{ id: 1, text: long('ä') }, { id: 2, text: long('€') }, { id: 3, text: long('a') }]);
    const json = miniSearchJson(miniSearch);
    expect(json.length).toBeGreaterThan(2 << 20);
    expect(json.equals(Buffer.from(JSON.stringify(miniSearch)))).toBe(true);
  });
});
