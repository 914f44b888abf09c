import { describe, expect, it } from 'vitest';
import { buildIndex, buildIndexJson, listingOrder, objectTerms } from './index-builder.ts';
import { decodeIndex, NAME_CLASS, OTHER_CLASS } from '../format/autocomplete-index.ts';
import { org, person, room, syntheticDirectory } from '../../query/autocomplete/test-fixtures.ts';

describe('objectTerms', () => {
  it('classes the last name as name and every other person word as other, in both forms', () => {
    const terms = objectTerms(person(1, 'Jürgen', 'Müller', { title: 'Univ.-Prof. Dr.', after: 'PhD', keywords: ['Dekanin'] }));
    expect(Object.fromEntries(terms)).toEqual({
      univ: OTHER_CLASS,
      prof: OTHER_CLASS,
      dr: OTHER_CLASS,
      jurgen: OTHER_CLASS,
      juergen: OTHER_CLASS,
      muller: NAME_CLASS,
      mueller: NAME_CLASS,
      phd: OTHER_CLASS,
      dekanin: OTHER_CLASS,
    });
  });

  it('classes room and organization names as name, codes and keywords as other', () => {
    expect(Object.fromEntries(objectTerms(room(1, 'Großer Saal', 'B.01', { keywords: ['Aula'] })))).toEqual({
      grosser: NAME_CLASS,
      saal: NAME_CLASS,
      b: OTHER_CLASS,
      '01': OTHER_CLASS,
      aula: OTHER_CLASS,
    });
    expect(Object.fromEntries(objectTerms(org(1, 'Dekanat', ['Verwaltung'])))).toEqual({ dekanat: NAME_CLASS, verwaltung: OTHER_CLASS });
  });

  it('indexes the explicit presentation, keeping the better class of repeated words', () => {
    const p = person(1, 'Anna', 'Berg', { presentation: 'Berg, Anna (Sekretariat Berg)' });
    expect(Object.fromEntries(objectTerms(p))).toEqual({ berg: NAME_CLASS, anna: OTHER_CLASS, sekretariat: OTHER_CLASS });
  });
});

describe('listingOrder', () => {
  it('orders by folded presentation, raw presentation, ctype, id', () => {
    const objects = [
      person(4, 'Anna', 'Weber', { model: 'structure.Person' }),
      person(3, 'Anna', 'Weber'),
      person(1, 'Anna', 'Weber'),
      person(2, 'Änna', 'Weber'),
      person(5, 'Ana', 'Zoller'),
      org(1, 'anna weber'),
    ];
    expect(listingOrder(objects).map((o) => `${o.presentation}/${o.model}/${o.id}`)).toEqual([
      'Ana Zoller/campus.Person/5',
      'Anna Weber/campus.Person/1',
      'Anna Weber/campus.Person/3',
      'Anna Weber/structure.Person/4',
      'anna weber/structure.Organization/1',
      'Änna Weber/campus.Person/2',
    ]);
  });
});

describe('serialized index', () => {
  const objects = syntheticDirectory(250, 9);
  const decoded = decodeIndex(buildIndexJson(objects));
  const docs = listingOrder(objects);
  const terms = Array.from({ length: decoded.terms.length }, (_, t) => decoded.terms.at(t));
  const suggestions = Array.from({ length: decoded.size }, (_, d) => JSON.parse(decoded.suggestions.json(d)) as { id: number; room_id: number | null });

  it('stores documents in listing order', () => {
    expect(decoded.size).toBe(250);
    expect(Array.from({ length: 250 }, (_, d) => decoded.presentation.at(d))).toEqual(docs.map((o) => o.presentation));
    expect(suggestions.map((s) => s.id)).toEqual(docs.map((o) => o.id));
    expect(suggestions.map((s) => s.room_id)).toEqual(docs.map((o) => o.room_id ?? null));
  });

  it('decodes postings and forward lists that both equal each object\'s terms', () => {
    const fromPostings = docs.map(() => new Map<string, number>());
    for (let t = 0; t < decoded.terms.length; t++) {
      for (let p = decoded.postStart[t]; p < decoded.postStart[t + 1]; p++) {
        fromPostings[decoded.postings[p] >> 1].set(terms[t], decoded.postings[p] & 1);
      }
    }
    docs.forEach((o, d) => {
      const expected = objectTerms(o);
      expect(fromPostings[d]).toEqual(expected);
      const forward = new Map<string, number>();
      for (let f = decoded.fwdStart[d]; f < decoded.fwdStart[d + 1]; f++) forward.set(terms[decoded.forward[f] >> 1], decoded.forward[f] & 1);
      expect(forward).toEqual(expected);
    });
  });

  it('keeps terms sorted and per-model document lists complete', () => {
    expect([...terms].sort()).toEqual(terms);
    expect(decoded.trie.maxDepth).toBe(Math.max(...terms.map((t) => t.length)));
    const total = decoded.byModel.reduce((n, l) => n + l.length, 0);
    expect(total).toBe(250);
    decoded.byModel.forEach((list, m) => list.forEach((d) => expect(decoded.model[d]).toBe(m)));
  });

  it('writes level_id and room_id for rooms only', () => {
    const stray = { ...person(1, 'A', 'B'), level_id: 3, room_id: 4 };
    const index = buildIndex([stray, room(2, 'Aula', null, { level: 1, room: 2 })]);
    expect(index.level_id).toEqual([null, 1]);
    expect(index.room_id).toEqual([null, 2]);
  });

  it('rejects an index of another format, version or model list', () => {
    const good = buildIndex([person(1, 'A', 'B')]);
    expect(() => decodeIndex(JSON.stringify({ ...good, version: 2 }))).toThrow(/version 1/);
    expect(() => decodeIndex(JSON.stringify({ ...good, format: 'x' }))).toThrow(/aula-autocomplete/);
    expect(() => decodeIndex(JSON.stringify({ ...good, models: ['campus.Person'] }))).toThrow(/models/);
    expect(() => decodeIndex(JSON.stringify({ ...good, postings: good.postings.slice(0, -1) }))).toThrow(/postings/);
  });
});
