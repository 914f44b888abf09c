// `ordering` and `search` through the API core, compared with a plain reference over the model's
// events (test-ordering-events.ts): every orderable field in both directions, several keys, nulls,
// ties, offsets, with filters, terms spelt every way the folding allows.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createApi } from '../core.ts';
import { bodyText } from '../body.ts';
import { MemoryBuild } from '../../dev/memory-build.ts';
import { ORDER_FIELDS, type OrderKey } from '../../query/events/ordering/ordering-param.ts';
import type { Event } from '../../model/types.ts';
import { BASE_URL, defaultOrder, orderingModel, referenceOrder, referenceSearch, searchTerms } from './test-ordering-events.ts';

const model = orderingModel(400, 7);
const { dataset } = await new MemoryBuild().make(model, BASE_URL);
const api = createApi(dataset);
const events = [...model.events].sort(defaultOrder);
const terms = searchTerms(11);

function ask(query: string) {
  const r = api({ method: 'GET', path: '/v1/cms/event/', query, headers: {} });
  const body = JSON.parse(bodyText(r.body));
  return { status: r.status, ignored: r.headers['X-Ignored-Parameters'], body, ids: (body.results ?? []).map((e: { id: number }) => e.id) as number[] };
}

interface Filter {
  param: string;
  keep: (e: Event) => boolean;
}

const FILTERS: Filter[] = [
  { param: 'dfp_points__gte=2', keep: (e) => e.dfp_points !== null && e.dfp_points >= 2 },
  { param: 'register=true', keep: (e) => e.register },
  { param: 'start__gte=2025-01-06', keep: (e) => e.start >= Date.UTC(2025, 0, 5, 23) },
  { param: 'categories=1', keep: (e) => e.categories.includes(1) },
  { param: 'register=false&dfp_points__gte=1', keep: (e) => !e.register && e.dfp_points !== null && e.dfp_points >= 1 },
  { param: 'end__lt=2025-01-08&register=true', keep: (e) => e.end < Date.UTC(2025, 0, 7, 23) && e.register },
];

const key = fc.record({ field: fc.constantFrom(...ORDER_FIELDS), descending: fc.boolean() });
const query = fc.record({
  keys: fc.array(key, { maxLength: 3 }),
  unknown: fc.option(fc.constantFrom('bogus', '', '--start', 'teaser'), { nil: undefined }),
  terms: fc.array(fc.constantFrom(...terms), { maxLength: 3 }),
  comma: fc.boolean(),
  filter: fc.option(fc.constantFrom(...FILTERS), { nil: undefined }),
  limit: fc.integer({ min: 1, max: 40 }),
  offset: fc.integer({ min: 0, max: 420 }),
});

const termText = (k: OrderKey) => `${k.descending ? '-' : ''}${k.field}`;

describe('ordering and search, against a plain reference', () => {
  it('answer the events the reference lists, in its order, counted as it counts', () => {
    fc.assert(
      fc.property(query, (q) => {
        const ordering = q.keys.map(termText);
        if (q.unknown !== undefined) ordering.splice(Math.min(1, ordering.length), 0, q.unknown);
        const params = [`limit=${q.limit}`, `offset=${q.offset}`];
        if (ordering.length > 0) params.push(`ordering=${encodeURIComponent(ordering.join(','))}`);
        if (q.terms.length > 0) params.push(`search=${encodeURIComponent(q.terms.join(q.comma ? ',' : ' '))}`);
        if (q.filter) params.push(q.filter.param);
        const got = ask(params.join('&'));
        const expected = events
          .filter((e) => (q.filter ? q.filter.keep(e) : true) && referenceSearch(e, q.terms))
          .sort(referenceOrder(q.keys));
        expect(got.status).toBe(200);
        expect(got.body.count).toBe(expected.length);
        expect(got.ids).toEqual(expected.slice(q.offset, q.offset + q.limit).map((e) => e.id));
        // (an empty `ordering` asks for the default order: nothing is ignored)
        if (q.unknown !== undefined && ordering.join(',') !== '') expect(got.ignored).toBe(`ordering=${q.unknown}`);
        else expect(got.ignored).toBeUndefined();
      }),
      { numRuns: 400, seed: 36 },
    );
  });

  it('pages through an ordering: every event once, in order, the links keeping ordering and search', () => {
    for (const query of ['ordering=dfp_points,-title', 'ordering=-registration_end&search=kurs', 'ordering=title&search=herz%20e-mail']) {
      const seen: number[] = [];
      let next: string | null = `${BASE_URL}/v1/cms/event/?limit=7&${query}`;
      while (next !== null) {
        const page = ask(next.slice(next.indexOf('?') + 1));
        seen.push(...page.ids);
        next = page.body.next;
        if (next) expect(next).toContain(query.split('&')[0].replace(',', '%2C'));
      }
      const all = ask(`limit=1000&${query}`);
      expect(seen).toEqual(all.ids);
      expect(new Set(seen).size).toBe(all.body.count);
    }
  });

  it('answers an ordering equal to the default one with the default list', () => {
    const plain = ask('limit=50&offset=13');
    for (const ordering of ['-start', '-start,-end', '-start,-end,id', '-start,-end,id,title', '-start,-start', 'start,-start'.replace('start,', '-start,')]) {
      const got = ask(`limit=50&offset=13&ordering=${ordering}`);
      expect(got.ids, ordering).toEqual(plain.ids);
    }
    expect(ask('limit=50&ordering=').ids).toEqual(ask('limit=50').ids);
  });
});

describe('search spelling', () => {
  const count = (search: string) => ask(`search=${encodeURIComponent(search)}`).body.count as number;

  it('folds umlauts three ways, ß as ss, case and diacritics', () => {
    const titled = (t: string) => events.filter((e) => e.title.split(' ').includes(t)).map((e) => e.id);
    const found = (search: string) => new Set(ask(`search=${encodeURIComponent(search)}&limit=1000`).ids);
    const has = (set: Set<number>, ids: number[]) => ids.every((id) => set.has(id));
    // müller finds Müller, Mueller and Muller; mueller finds Müller and Mueller; muller Müller and Muller
    expect(has(found('müller'), [...titled('Müller'), ...titled('Mueller'), ...titled('Muller')])).toBe(true);
    expect(has(found('mueller'), [...titled('Müller'), ...titled('Mueller')])).toBe(true);
    expect(has(found('muller'), [...titled('Müller'), ...titled('Muller')])).toBe(true);
    // …but muller does not find a name spelt Mueller (as the autocomplete: ue need not be an umlaut)
    expect(referenceSearch({ ...events[0], title: 'Mueller', teaser: '', body: '', organizer: null, location: null }, ['muller'])).toBe(false);
    expect(count('MÜLLER')).toBe(count('müller'));
    expect(count('strasse')).toBe(count('straße'));
    expect(count('ecole')).toBe(count('École'));
    expect(count('οδοσ')).toBe(count('ΟΔΟΣ'));
  });

  it('looks in the text a reader sees: not in tags, comments or scripts; entities decoded; block tags break words', () => {
    expect(count('geheimwort')).toBe(0);
    expect(count('kommentarwort')).toBe(0);
    expect(count('linkziel')).toBe(0);
    expect(count('strong')).toBe(0);
    expect(count('zeilezwei')).toBe(0);
    expect(count('herzkurs')).toBeGreaterThan(0);
    expect(count('ärztinnen')).toBeGreaterThan(0);
  });

  it('keeps a quoted phrase whole', () => {
    const phrase = (e: Event) => referenceSearch(e, ['herz und']);
    expect(count('"herz und"')).toBe(events.filter(phrase).length);
    expect(count('"herz und"')).toBeLessThan(count('herz und'));
    expect(count("'Herz und'")).toBe(count('"herz und"'));
    expect(count('"per e-mail"')).toBe(events.filter((e) => referenceSearch(e, ['per e-mail'])).length);
  });

  it('refuses a NUL character as DRF does, and ignores an empty search', () => {
    const r = ask('search=a%00b');
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ search: ['Null characters are not allowed.'] });
    expect(ask('search=%20,%20').body.count).toBe(events.length);
  });
});
