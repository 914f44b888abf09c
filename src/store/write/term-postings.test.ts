import { describe, expect, it } from 'vitest';
import { org, person, room, syntheticDirectory } from '../../query/autocomplete/test-fixtures.ts';
import { mulberry32 } from '../../util/mulberry32.ts';
import type { DirectoryObject } from '../../model/types.ts';
import { listingOrder, objectTerms } from './index-builder.ts';
import { termPostings } from './term-postings.ts';

/** The postings straight from objectTerms(): a list per term, the terms sorted. */
function reference(docs: readonly DirectoryObject[]): { terms: string[]; postings: number[] } {
  const byTerm = new Map<string, [number, number][]>();
  docs.forEach((o, doc) => {
    for (const [term, cls] of objectTerms(o)) {
      if (!byTerm.has(term)) byTerm.set(term, []);
      byTerm.get(term)!.push([doc, cls]);
    }
  });
  const terms = [...byTerm.keys()].sort();
  const postings = terms.flatMap((term) => [...byTerm.get(term)!.map(([doc, cls], i, all) => (doc - (i === 0 ? -1 : all[i - 1][0])) * 2 + cls), 0]);
  return { terms, postings };
}

const WORDS = ['Müller', 'Mueller', 'Muller', 'Hörsaal', 'Straße', 'Łódź', 'e\u0301cole', '½', '05.012', 'Anna', 'anna', 'Dr.', '😀x', 'x\ud800', ''];

function randomObjects(seed: number, n: number): DirectoryObject[] {
  const random = mulberry32(seed);
  const pick = () => WORDS[Math.floor(random() * WORDS.length)];
  const text = (most: number) => Array.from({ length: Math.floor(random() * (most + 1)) }, pick).join(' ');
  return Array.from({ length: n }, (_, i) => {
    const keywords = Array.from({ length: Math.floor(random() * 3) }, () => text(2));
    if (random() < 0.3) return room(i, text(3), random() < 0.5 ? pick() : null, { keywords });
    if (random() < 0.2) return org(i, text(3), keywords);
    // a last name the presentation may not hold
    return person(i, pick(), pick(), { keywords, presentation: random() < 0.3 ? text(4) : undefined });
  });
}

describe('termPostings', () => {
  it('gathers what objectTerms() gives each object, terms sorted', () => {
    for (let seed = 1; seed <= 30; seed++) {
      const docs = listingOrder(randomObjects(seed, 5 + seed * 10));
      expect(termPostings(docs), `seed ${seed}`).toEqual(reference(docs));
    }
    const docs = listingOrder(syntheticDirectory(500, 2));
    expect(termPostings(docs)).toEqual(reference(docs));
    expect(termPostings([])).toEqual({ terms: [], postings: [] });
  });
});
