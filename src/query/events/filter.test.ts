import { describe, expect, it } from 'vitest';
import { QueryParams } from '../query-dict.ts';
import { filterEvents, filterWithIndexes, FILTER_CATALOG, FILTER_PARAMETERS, type FilterContext, type FilterOutcome } from './filter.ts';
import { DEFAULT_INDEX_OPTIONS, TableIndexes } from './indexes/table-indexes.ts';
import { buildTable, ZONE, type FixtureEvent } from './table-fixture.ts';

const EVENTS: FixtureEvent[] = [
  {
    id: 1, title: 'Workshop ÖSTERREICH', organizer: 'Dr. Müller', location: 'Hörsaal 1, Straße 5',
    teaser: 'Einführung in die Kardiologie', contact: 'Anna Weiß', email: 'anna@example.org',
    start: '2025-05-09T16:00:00+02:00', end: '2025-05-09T18:00:00+02:00', registration_end: '2025-05-01T12:00:00+02:00',
    last_modified: '2025-04-01T10:00:00Z', dfp_points: 2, allday: false, register: true, attending_fees: false,
    categories: [3], groups: [10],
  },
  {
    id: 2, title: 'Seminar österreich 100%', organizer: null, location: 'STRASSE 7', teaser: 'Weiss und weiß',
    contact: null, email: null, start: '2025-06-01T10:00:00+02:00', end: '2025-06-01T12:00:00+02:00',
    registration_end: null, last_modified: '2025-05-20T08:00:00Z', dfp_points: 1, allday: true, register: false,
    attending_fees: true, categories: [3, 7], groups: [],
  },
  {
    id: 3, title: 'a_b test', organizer: 'Prof. Weiß', location: null, teaser: '100% sicher', contact: 'Bob',
    email: 'BOB@Example.ORG', start: '2025-03-30T10:00:00+02:00', end: '2025-03-30T11:00:00+02:00',
    registration_end: '2025-03-29T00:00:00+01:00', last_modified: '2025-03-01T00:00:00Z', dfp_points: null,
    allday: false, register: true, attending_fees: true, categories: [7], groups: [11],
  },
  {
    id: 4, title: 'Vortrag: Weiß', organizer: 'weiss', location: 'Straße', teaser: 'ΟΔΟΣ', contact: 'Anna',
    email: 'anna@example.org', start: '2025-10-26T02:30:00+01:00', end: '2025-10-26T04:00:00+01:00',
    last_modified: '2025-10-01T00:00:00Z', dfp_points: 10, allday: true, register: false, attending_fees: false,
    categories: [], groups: [10, 11],
  },
  {
    id: 5, title: 'workshop', teaser: '', start: '2024-12-31T23:00:00Z', end: '2025-01-01T01:00:00Z',
    last_modified: '2025-01-01T00:00:00Z', dfp_points: 0, categories: [12],
  },
  {
    id: 6, title: 'Journal Club', teaser: 'Weiß', start: '2025-05-09T16:00:00+02:00', end: '2025-05-09T17:00:00+02:00',
    last_modified: '2025-04-01T10:00:00Z', dfp_points: 8, categories: [3], groups: [12],
  },
];

const CTX: FilterContext = { timezone: ZONE, categoryIds: new Set([3, 7, 12, 13]) };
const RESERVED = new Set(['limit', 'offset', 'format', 'expand', 'fields', 'omit']);
const table = buildTable(EVENTS);
const ALL_IDS = EVENTS.map((e) => e.id).sort((a, b) => a - b);

type Run = (query: string) => FilterOutcome;

// Every semantic test runs twice: with the defaults (a table this small is scanned) and with
// indexes forced on, so both paths must agree with the expectations.
const MODES: [string, Run][] = [
  ['scan', (q) => filterEvents(table, CTX, QueryParams.parse(q), RESERVED)],
  [
    'indexed',
    (() => {
      const ix = new TableIndexes(buildTable(EVENTS, ZONE, { scanBelowValues: 0, trigramMinBytes: 0 }), { ...DEFAULT_INDEX_OPTIONS, fewRows: 0 });
      return (q: string) => filterWithIndexes(ix, CTX, QueryParams.parse(q), RESERVED);
    })(),
  ],
];

function idsOf(r: FilterOutcome): number[] | 'all' {
  if (!r.ok) throw new Error(`unexpected errors ${JSON.stringify(r.errors)}`);
  if (r.rows === null) return 'all';
  return [...r.rows].map((row) => table.columns.id[row]).sort((a, b) => a - b);
}

describe.each(MODES)('filterEvents (%s)', (_mode, run) => {
  const ids = (q: string) => idsOf(run(q));
  const errors = (q: string) => {
    const r = run(q);
    if (r.ok) throw new Error(`expected errors for ${q}`);
    return r.errors;
  };

  it('applies no filter without filter parameters', () => {
    expect(ids('')).toBe('all');
    expect(ids('limit=5&offset=2&format=json')).toBe('all');
  });

  it('returns ascending rows', () => {
    const r = run('title__icontains=o');
    expect(r.ok && r.rows && [...r.rows]).toEqual(r.ok && r.rows && [...r.rows].sort((a, b) => a - b));
  });

  describe('string lookups', () => {
    it.each([
      // [query, ids]
      ['title=Workshop%20%C3%96STERREICH', [1]],
      ['title=workshop', [5]],
      ['title=Workshop', []],
      ['title__exact=workshop', [5]],
      ['title__iexact=WORKSHOP', [5]],
      ['title__iexact=workshop%20%C3%B6sterreich', [1]],
      ['title__iexact=Work', []],
      ['title__contains=shop', [1, 5]],
      ['title__contains=Shop', []],
      ['title__icontains=SHOP', [1, 5]],
      ['title__icontains=%C3%B6sterreich', [1, 2]],
      ['title__icontains=%C3%96STERREICH', [1, 2]],
      ['title__icontains=zzz', []],
      ['title__startswith=Work', [1]],
      ['title__startswith=work', [5]],
      ['title__startswith=orkshop', []],
      ['title__istartswith=WORK', [1, 5]],
      ['title__istartswith=se', [2]],
      ['title__istartswith=xx', []],
      ['title__endswith=REICH', [1]],
      ['title__endswith=reich', []],
      ['title__iendswith=reich', [1]],
      ['title__iendswith=Club', [6]],
      ['title__iendswith=clu', []],
      ['title__regex=^W', [1]],
      ['title__regex=shop$', [5]],
      ['title__regex=%5Bab%5D_%5Bab%5D', [3]],
      ['title__regex=^w', [5]],
      ['title__regex=nomatch', []],
      ['title__iregex=^w', [1, 5]],
      ['title__iregex=%C3%B6STERR', [1, 2]],
      ['title__iregex=journal%7Cvortrag', [4, 6]],
      ['title__iregex=xyz%7Cqqq', []],
    ])('%s', (q, expected) => {
      expect(ids(q)).toEqual(expected);
    });

    it.each([
      // each nullable text field with every lookup: a value that matches, and null rows never match
      ['organizer', 'Dr.%20M%C3%BCller', [1], 'dr.%20m%C3%BCller', 'M%C3%BCl', 'r.', 'Prof', 'Weiß'.replace('ß', '%C3%9F'), '.'],
      ['location', 'STRASSE%207', [2], 'strasse%207', 'Straße'.replace('ß', '%C3%9F'), 'STRASSE', 'H%C3%B6r', '5', 'e'],
      ['contact', 'Bob', [3], 'BOB', 'nna', 'NNA', 'An', 'b', '.'],
      ['email', 'anna%40example.org', [1, 4], 'ANNA%40EXAMPLE.ORG', '%40example', 'EXAMPLE', 'anna', '.ORG', 'o'],
    ] as const)('%s: every lookup, nulls never match', (field, exact, exactIds, iexact, contains, icontains, startswith, endswith, anyChar) => {
      const nonNull = EVENTS.filter((e) => e[field] !== null && e[field] !== undefined).map((e) => e.id).sort((a, b) => a - b);
      const has = (pred: (s: string) => boolean) =>
        EVENTS.filter((e) => typeof e[field] === 'string' && pred(e[field] as string)).map((e) => e.id).sort((a, b) => a - b);
      const dec = decodeURIComponent;
      expect(ids(`${field}=${exact}`)).toEqual(exactIds);
      expect(ids(`${field}__exact=${exact}`)).toEqual(exactIds);
      expect(ids(`${field}__iexact=${iexact}`)).toEqual(has((s) => s.toLowerCase() === dec(iexact).toLowerCase()));
      expect(ids(`${field}__contains=${contains}`)).toEqual(has((s) => s.includes(dec(contains))));
      expect(ids(`${field}__icontains=${icontains}`)).toEqual(has((s) => s.toLowerCase().includes(dec(icontains).toLowerCase())));
      expect(ids(`${field}__startswith=${startswith}`)).toEqual(has((s) => s.startsWith(dec(startswith))));
      expect(ids(`${field}__istartswith=${startswith.toUpperCase()}`)).toEqual(has((s) => s.toLowerCase().startsWith(dec(startswith).toLowerCase())));
      expect(ids(`${field}__endswith=${endswith}`)).toEqual(has((s) => s.endsWith(dec(endswith))));
      expect(ids(`${field}__iendswith=${endswith.toUpperCase()}`)).toEqual(has((s) => s.toLowerCase().endsWith(dec(endswith).toLowerCase())));
      // a pattern matching any text (even an empty one) still never matches null
      expect(ids(`${field}__regex=.*`)).toEqual(nonNull);
      expect(ids(`${field}__iregex=${anyChar}|^$`)).toEqual(nonNull);
      expect(nonNull.length).toBeLessThan(ALL_IDS.length);
      // each lookup above must actually select something, or it proves little
      for (const l of ['contains', 'icontains', 'startswith', 'endswith'] as const) {
        const v = { contains, icontains, startswith, endswith }[l];
        expect(ids(`${field}__${l}=${v}`), l).not.toEqual([]);
      }
    });

    it('teaser: every lookup', () => {
      expect(ids('teaser=Wei%C3%9F')).toEqual([6]);
      expect(ids('teaser__iexact=WEI%C3%9F')).toEqual([6]);
      expect(ids('teaser__contains=Kardio')).toEqual([1]);
      expect(ids('teaser__icontains=KARDIO')).toEqual([1]);
      expect(ids('teaser__startswith=100')).toEqual([3]);
      expect(ids('teaser__istartswith=einf%C3%9Chrung')).toEqual([1]);
      expect(ids('teaser__endswith=logie')).toEqual([1]);
      expect(ids('teaser__iendswith=WEI%C3%9F')).toEqual([2, 6]);
      expect(ids('teaser__regex=^%5B0-9%5D%2B%25')).toEqual([3]);
      expect(ids('teaser__iregex=weiss')).toEqual([2]);
      // the empty teaser (event 5) is a value, not a null
      expect(ids('teaser__regex=^$')).toEqual([5]);
    });

    it('folds case with full Unicode, but ß stays ß', () => {
      expect(ids('title__icontains=%C3%96STERREICH')).toEqual([1, 2]);
      expect(ids('title__iexact=SEMINAR%20%C3%96STERREICH%20100%25')).toEqual([2]);
      expect(ids('title__icontains=wei%C3%9F')).toEqual([4]);
      expect(ids('title__icontains=WEI%C3%9F')).toEqual([4]);
      expect(ids('title__icontains=weiss')).toEqual([]);
      expect(ids('title__icontains=WEISS')).toEqual([]);
      expect(ids('location__icontains=STRASSE')).toEqual([2]); // not "Straße"
      expect(ids('location__icontains=stra%C3%9Fe')).toEqual([1, 4]);
      expect(ids('organizer__iexact=WEISS')).toEqual([4]);
    });

    it('folds final sigma like the other sigma (UPPER-style comparison)', () => {
      expect(ids('teaser__icontains=%CE%BF%CE%B4%CE%BF%CF%83')).toEqual([4]); // οδοσ
      expect(ids('teaser__icontains=%CE%BF%CE%B4%CE%BF%CF%82')).toEqual([4]); // οδος
      expect(ids('teaser__icontains=%CE%9F%CE%94%CE%9F%CE%A3')).toEqual([4]); // ΟΔΟΣ
    });

    it('treats % and _ as literal characters', () => {
      expect(ids('title__contains=%25')).toEqual([2]);
      expect(ids('title__contains=_')).toEqual([3]);
      expect(ids('title__icontains=a_b')).toEqual([3]);
      expect(ids('title__startswith=a_')).toEqual([3]);
      expect(ids('title__endswith=0%25')).toEqual([2]);
      expect(ids('title__startswith=%25')).toEqual([]);
      expect(ids('teaser__contains=0%25%20s')).toEqual([3]);
    });

    it('iregex matches ß with ẞ', () => {
      expect(ids('title__iregex=WEI%E1%BA%9E')).toEqual([4]);
      expect(ids('title__regex=WEI%E1%BA%9E')).toEqual([]);
    });

    it('keeps RE2 case rules for plain iregex words while icontains folds like UPPER()', () => {
      const t = buildTable([{ id: 1, title: 'KARDIO' }, { id: 2, title: 'Kardıo' }, { id: 3, title: 'KARDİO' }, { id: 4, title: 'kardio' }]);
      const q = (query: string) => {
        const r = filterEvents(t, CTX, QueryParams.parse(query), RESERVED);
        return r.ok && r.rows ? [...r.rows].map((row) => t.columns.id[row]).sort() : r;
      };
      expect(q('title__iregex=kardio')).toEqual([1, 4]);
      expect(q('title__iregex=KARDIO|nothing')).toEqual([1, 4]);
      expect(q('title__icontains=kardio')).toEqual([1, 2, 4]); // UPPER('ı') = 'I'
    });

    it('runs regexes in linear time: a catastrophic pattern over long texts', () => {
      const long = buildTable([
        { id: 1, title: 'a'.repeat(20000) + 'b' },
        { id: 2, title: 'a'.repeat(20000) },
        { id: 3, title: 'b' },
      ]);
      const r = filterEvents(long, CTX, QueryParams.parse('title__regex=(a%2B)%2B%24'), RESERVED);
      expect(r.ok && r.rows && [...r.rows].map((row) => long.columns.id[row])).toEqual([2]);
      const r2 = filterEvents(long, CTX, QueryParams.parse('title__iregex=(a%7Caa)*c'), RESERVED);
      expect(r2.ok && r2.rows && r2.rows.length).toBe(0);
    });

    it('rejects invalid regexes with a 400 naming the parameter', () => {
      expect(errors('title__regex=(')).toEqual({ title__regex: ['Enter a valid regular expression: missing closing ).'] });
      expect(errors('organizer__iregex=%5B')).toEqual({ organizer__iregex: ['Enter a valid regular expression: missing closing ].'] });
      expect(errors('title__regex=a**')).toEqual({ title__regex: ['Enter a valid regular expression: invalid nested repetition operator.'] });
      // PostgreSQL ARE syntax that RE2 does not have
      expect(errors('title__regex=%5CmWork')).toEqual({ title__regex: ['Enter a valid regular expression: invalid escape sequence.'] });
    });

    it('uses RE2 syntax: \\b is a word boundary, \\pL Unicode letters, \\x{..} code points', () => {
      expect(ids('title__regex=%5CbClub')).toEqual([6]);
      expect(ids('title__regex=%5CpL%2B%20%5Cd')).toEqual([2]);
      expect(ids('title__regex=%5Cx%7Bd6%7D')).toEqual([1]);
    });
  });

  describe('timestamp lookups', () => {
    it.each([
      ['start=2025-05-09T16:00:00%2B02:00', [1, 6]],
      ['start__exact=2025-05-09T14:00:00Z', [1, 6]],
      ['start=2025-05-09T16:00:00%2B0200', [1, 6]],
      ['start=2025-05-09T16:00:00', [1, 6]], // naive → Europe/Vienna
      ['start=2025-05-09%2016:00', [1, 6]],
      ['start=2025-05-09T16:00:01', []],
      ['start=2025-01-01', [5]], // date only → local midnight
      ['start__gt=2025-05-09T16:00:00%2B02:00', [2, 4]],
      ['start__gte=2025-05-09T16:00:00%2B02:00', [1, 2, 4, 6]],
      ['start__lt=2025-05-09T16:00:00%2B02:00', [3, 5]],
      ['start__lte=2025-05-09T16:00:00%2B02:00', [1, 3, 5, 6]],
      ['start__gte=2025-05-01&start__lt=2025-06-01', [1, 6]],
      ['start__gte=2025-06-01&start__lt=2025-05-01', []],
      ['end__gt=2025-05-09T17:00:00%2B02:00', [1, 2, 4]],
      ['end__gte=2025-05-09T17:00:00%2B02:00', [1, 2, 4, 6]],
      ['end__lt=2025-03-30T11:00:00%2B02:00', [5]],
      ['end__lte=2025-03-30T11:00:00%2B02:00', [3, 5]],
      ['end=2025-05-09T15:00:00Z', [6]],
      ['registration_end__gte=2025-03-29', [1, 3]],
      ['registration_end__lt=2025-05-01T12:00:00%2B02:00', [3]],
      ['registration_end__lte=2025-05-01T12:00:00%2B02:00', [1, 3]],
      ['registration_end__gt=2000-01-01', [1, 3]], // nulls never match
      ['registration_end__lt=2100-01-01', [1, 3]],
      ['registration_end=2025-03-29', [3]],
      ['last_modified=2025-04-01T10:00:00Z', [1, 6]],
      ['last_modified__gt=2025-04-01T10:00:00Z', [2, 4]],
      ['last_modified__lt=2025-04-01T10:00:00Z', [3, 5]],
      ['last_modified__gte=2025-05-20T10:00:00%2B02:00', [2, 4]],
      ['last_modified__lte=2025-03-01T01:00:00%2B01:00', [3, 5]],
      ['last_modified__lt=2025-03-01T01:00:00%2B01:00', [5]],
    ])('%s', (q, expected) => {
      expect(ids(q)).toEqual(expected);
    });

    it('compares on the instant, whatever the offset of the value', () => {
      expect(ids('start=2025-05-09T09:00:00-05:00')).toEqual([1, 6]);
      expect(ids('start__lt=2025-01-01T00:00:00%2B01:00')).toEqual([]);
      expect(ids('start__lte=2025-01-01T00:00:00%2B01:00')).toEqual([5]);
    });

    it('refuses naive times in the DST gap or the repeated hour, with the reference message', () => {
      const msg = (local: string) => `${local} couldn’t be interpreted in time zone Europe/Vienna; it may be ambiguous or it may not exist.`;
      expect(errors('start=2025-10-26T02:30:00')).toEqual({ start: [msg('2025-10-26 02:30:00')] });
      expect(errors('start__gte=2025-03-30T02:30:00')).toEqual({ start__gte: [msg('2025-03-30 02:30:00')] });
      expect(errors('end__lt=2025-10-26%2002:15')).toEqual({ end__lt: [msg('2025-10-26 02:15:00')] });
      // with an explicit offset the same wall times are fine
      expect(ids('start=2025-10-26T02:30:00%2B01:00')).toEqual([4]);
      expect(ids('start=2025-10-26T02:30:00%2B02:00')).toEqual([]);
    });

    it('refuses invalid timestamps', () => {
      for (const bad of ['2025-13-01', 'garbage', '2025-05-09t16:00', '1', '2025-05-09T16:00:00%2002:00']) {
        expect(errors(`start__lt=${bad}`)).toEqual({ start__lt: ['Enter a valid date/time.'] });
      }
      expect(errors('last_modified__exact=2025-02-29')).toEqual({ last_modified__exact: ['Enter a valid date/time.'] });
    });

    it('matches contains / startswith against the rendered ISO text', () => {
      expect(table.columns.iso.start.at(table.rowById.get(5)!)).toBe('2025-01-01T00:00:00+01:00');
      expect(ids('start__startswith=2025-05')).toEqual([1, 6]);
      expect(ids('start__startswith=2025-05-09T16')).toEqual([1, 6]);
      expect(ids('start__startswith=2024')).toEqual([]);
      expect(ids('start__contains=T16:00')).toEqual([1, 6]);
      expect(ids('start__contains=%2B01:00')).toEqual([4, 5]);
      expect(ids('start__contains=t16')).toEqual([]); // case-sensitive text
      expect(ids('end__contains=T04:00:00')).toEqual([4]);
      expect(ids('end__startswith=2025-01-01T02')).toEqual([5]);
      expect(ids('registration_end__contains=-')).toEqual([1, 3]); // null never matches
      expect(ids('registration_end__startswith=2025-03-29T00')).toEqual([3]);
      expect(ids('last_modified__contains=10:00:00%2B02:00')).toEqual([2]);
      expect(ids('last_modified__contains=10:00:00Z')).toEqual([]); // rendered in the site zone
      expect(ids('last_modified__contains=12:00:00%2B02:00')).toEqual([1, 6]);
      expect(ids('last_modified__startswith=2025-04-01T12')).toEqual([1, 6]);
      // anything is text here: no parsing, no error
      expect(ids('start__contains=garbage')).toEqual([]);
    });
  });

  describe('number lookups', () => {
    it.each([
      ['dfp_points=2', [1]],
      ['dfp_points__exact=2', [1]],
      ['dfp_points=0', [5]],
      ['dfp_points=1.5', [2]],
      ['dfp_points=1.9999999999999999999', [2]],
      ['dfp_points=-0.5', [5]],
      ['dfp_points=1e1', [4]],
      ['dfp_points=1E%2B1', [4]],
      ['dfp_points=%2B8', [6]],
      ['dfp_points=%208', [6]],
      ['dfp_points=008', [6]],
      ['dfp_points=.8e1', [6]],
      ['dfp_points=80e-1', [6]],
      ['dfp_points=1_0', [4]],
      ['dfp_points=3', []],
      ['dfp_points__gt=2', [4, 6]],
      ['dfp_points__gte=2', [1, 4, 6]],
      ['dfp_points__gte=2.5', [1, 4, 6]],
      ['dfp_points__lt=2', [2, 5]],
      ['dfp_points__lte=2', [1, 2, 5]],
      ['dfp_points__lt=1e400', [1, 2, 4, 5, 6]], // never the null one
      ['dfp_points__gt=-1e400', [1, 2, 4, 5, 6]],
      ['dfp_points__gte=1e400', []],
      ['dfp_points__gte=0&dfp_points__lte=8', [1, 2, 5, 6]],
      ['id=3', [3]],
      ['id__exact=3', [3]],
      ['id=3.7', [3]],
      ['id=%2B03', [3]],
      ['id=99', []],
      ['id=-3', []],
    ])('%s', (q, expected) => {
      expect(ids(q)).toEqual(expected);
    });

    it('refuses anything else with "Enter a number."', () => {
      for (const bad of ['abc', 'NaN', 'Infinity', '-inf', '1,5', '0x10', '1e', '.', '%2B', '1__0', '_1', '1.2.3', '½']) {
        expect(errors(`dfp_points=${bad}`)).toEqual({ dfp_points: ['Enter a number.'] });
      }
      expect(errors('id=x')).toEqual({ id: ['Enter a number.'] });
      expect(errors('dfp_points__gte=ten')).toEqual({ dfp_points__gte: ['Enter a number.'] });
    });
  });

  describe('boolean lookups', () => {
    it.each([
      ['allday=true', [2, 4]],
      ['allday=True', [2, 4]],
      ['allday=TRUE', [2, 4]],
      ['allday=1', [2, 4]],
      ['allday=false', [1, 3, 5, 6]],
      ['allday=False', [1, 3, 5, 6]],
      ['allday=0', [1, 3, 5, 6]],
      ['allday__exact=1', [2, 4]],
      ['allday=%20true%20', [2, 4]],
      ['register=true', [1, 3]],
      ['register=0', [2, 4, 5, 6]],
      ['attending_fees=tRuE', [2, 3]],
      ['attending_fees=false', [1, 4, 5, 6]],
    ])('%s', (q, expected) => {
      expect(ids(q)).toEqual(expected);
    });

    it('refuses other spellings', () => {
      for (const bad of ['yes', 'on', 'maybe', '2', 't', 'truee']) {
        expect(errors(`allday=${bad}`)).toEqual({ allday: ['Must be true, false, 1 or 0.'] });
      }
      expect(errors('register__exact=no')).toEqual({ register__exact: ['Must be true, false, 1 or 0.'] });
    });
  });

  describe('categories and groups', () => {
    it.each([
      ['categories=3', [1, 2, 6]],
      ['categories=7', [2, 3]],
      ['categories=3&categories=7', [1, 2, 3, 6]],
      ['categories=7&categories=3&categories=7', [1, 2, 3, 6]],
      ['categories=12', [5]],
      ['categories=13', []], // a known category nobody uses
      ['categories__exact=12', [5]],
      ['categories=%203%20', [1, 2, 6]],
      ['categories=3&categories=', [1, 2, 6]],
      ['groups=10', [1, 4]],
      ['groups=10&groups=11', [1, 3, 4]],
      ['groups=12', [6]],
    ])('%s', (q, expected) => {
      expect(ids(q)).toEqual(expected);
    });

    it('lists each event once however many of its ids are given', () => {
      const r = run('categories=3&categories=7&groups=10&groups=11');
      // categories 3|7 → 1, 2, 3, 6; groups 10|11 → 1, 3, 4
      expect(r.ok && r.rows && r.rows.length).toBe(2);
      expect(idsOf(r)).toEqual([1, 3]);
    });

    it('refuses unknown ids and non-integers with the Django messages', () => {
      expect(errors('categories=999999')).toEqual({ categories: ['Select a valid choice. 999999 is not one of the available choices.'] });
      expect(errors('categories=abc')).toEqual({ categories: ['“abc” is not a valid value.'] });
      // every value must be an integer before any is looked up
      expect(errors('categories=999&categories=x')).toEqual({ categories: ['“x” is not a valid value.'] });
      expect(errors('categories=3&categories=999')).toEqual({ categories: ['Select a valid choice. 999 is not one of the available choices.'] });
      // as in Django, the value must be the id's own text
      expect(errors('categories=03')).toEqual({ categories: ['Select a valid choice. 03 is not one of the available choices.'] });
      expect(errors('categories=1.0')).toEqual({ categories: ['“1.0” is not a valid value.'] });
      // groups: known ids are those on some event
      expect(errors('groups=13')).toEqual({ groups: ['Select a valid choice. 13 is not one of the available choices.'] });
      expect(errors('groups=g')).toEqual({ groups: ['“g” is not a valid value.'] });
    });

    it('uses the context for categories, not the table', () => {
      const r = filterEvents(table, { ...CTX, categoryIds: new Set([3]) }, QueryParams.parse('categories=7'), RESERVED);
      expect(r).toMatchObject({ ok: false, errors: { categories: ['Select a valid choice. 7 is not one of the available choices.'] } });
    });
  });

  describe('parameter handling', () => {
    it('treats empty and blank values as no filter', () => {
      for (const q of ['title=', 'organizer=', 'start__gt=', 'dfp_points=%20', 'allday=', 'categories=', 'title__regex=%20%20', 'id=', 'start__contains=']) {
        expect(ids(q), q).toBe('all');
      }
      expect(ids('title=&dfp_points=2')).toEqual([1]);
    });

    it('trims values (Python whitespace)', () => {
      expect(ids('title=%20workshop%20')).toEqual([5]);
      expect(ids('title=%09workshop%0A')).toEqual([5]);
      expect(ids('title__contains=%20shop')).toEqual([1, 5]);
      expect(ids('start=%202025-01-01%20')).toEqual([5]);
      expect(ids('dfp_points=%C2%A08%C2%A0')).toEqual([6]);
    });

    it('takes the last of repeated single-valued parameters', () => {
      expect(ids('title__icontains=journal&title__icontains=VORTRAG')).toEqual([4]);
      expect(ids('dfp_points=abc&dfp_points=2')).toEqual([1]);
      expect(ids('allday=true&allday=false')).toEqual([1, 3, 5, 6]);
      expect(ids('start__gte=2025-05-09T16:00&start__gte=2025-06-01')).toEqual([2, 4]);
      expect(ids('title=workshop&title=')).toBe('all');
    });

    it('applies field and field__exact both when both are given', () => {
      expect(ids('title=workshop&title__exact=workshop')).toEqual([5]);
      expect(ids('title=workshop&title__exact=Journal%20Club')).toEqual([]);
      expect(ids('start=2025-05-09T16:00&start__exact=2025-05-09T14:00Z')).toEqual([1, 6]);
    });

    it('combines filters with AND', () => {
      expect(ids('categories=3&allday=false')).toEqual([1, 6]);
      expect(ids('categories=3&allday=false&dfp_points__gte=5')).toEqual([6]);
      expect(ids('start__gte=2025-05-01&title__icontains=o&register=false')).toEqual([4, 6]); // ö is not o
      expect(ids('start__gte=2025-05-01&end__lt=2025-06-01&teaser__iregex=wei')).toEqual([6]);
      expect(ids('title__icontains=work&title__istartswith=w&title__iendswith=p')).toEqual([5]);
      expect(ids('email__iexact=ANNA%40EXAMPLE.ORG&contact=Anna&id=4')).toEqual([4]);
      expect(ids('registration_end__gte=2025-01-01&last_modified__lt=2025-04-01T10:00Z&categories=7')).toEqual([3]);
      expect(ids('id=1&id__exact=2')).toEqual([]);
      expect(ids('groups=10&start__startswith=2025-10&allday=1&dfp_points=10')).toEqual([4]);
    });

    it('reports all errors of a request, in filter declaration order', () => {
      const r = run('dfp_points=abc&id=x&start__gt=1');
      expect(r.ok).toBe(false);
      if (r.ok) return;
      expect(Object.keys(r.errors)).toEqual(['start__gt', 'dfp_points', 'id']);
      expect(r.errors).toEqual({ start__gt: ['Enter a valid date/time.'], dfp_points: ['Enter a number.'], id: ['Enter a number.'] });
      const r2 = run('groups=x&allday=maybe&title__regex=(&email__iregex=%5B&start__exact=x&start=y&categories=0&title=ok&register=2');
      expect(!r2.ok && Object.keys(r2.errors)).toEqual(['title__regex', 'email__iregex', 'start', 'start__exact', 'allday', 'register', 'categories', 'groups']);
    });

    it('lists ignored parameters in order of first appearance, reserved ones not', () => {
      const r = run('foo=bar&limit=5&title__gt=x&ordering=id&title__icontains=shop&page=2&foo=baz&title__isnull=true&expand=categories&dfp_points__range=1,2&format=json&Title=x&title__in=a');
      expect(r.ok).toBe(true);
      expect(r.ignored).toEqual(['foo', 'title__gt', 'ordering', 'page', 'title__isnull', 'dfp_points__range', 'Title', 'title__in']);
      expect(idsOf(r)).toEqual([1, 5]);
      // disallowed lookups per field: strings have no comparisons, numbers no text lookups…
      const r2 = run('id__gt=1&allday__contains=t&dfp_points__contains=1&categories__in=3&start__icontains=x&start__regex=x&groups__gt=1&title__exact__exact=x');
      expect(r2.ok && r2.rows).toBe(null);
      expect(r2.ignored).toEqual(['id__gt', 'allday__contains', 'dfp_points__contains', 'categories__in', 'start__icontains', 'start__regex', 'groups__gt', 'title__exact__exact']);
    });

    it('still lists ignored parameters when there are errors', () => {
      const r = run('bogus=1&id=x');
      expect(r).toEqual({ ok: false, errors: { id: ['Enter a number.'] }, ignored: ['bogus'] });
    });

    it('does not treat reserved names as filters', () => {
      const r = filterEvents(table, CTX, QueryParams.parse('title=workshop'), new Set(['title']));
      expect(r).toEqual({ ok: true, rows: null, ignored: [] });
    });
  });
});

describe('FILTER_CATALOG', () => {
  it('lists the lookups of interface §4.2, exact first', () => {
    const byField = Object.fromEntries(FILTER_CATALOG.map((f) => [f.field, f]));
    expect(byField.title.lookups).toEqual(['exact', 'iexact', 'contains', 'icontains', 'startswith', 'istartswith', 'endswith', 'iendswith', 'regex', 'iregex']);
    expect(byField.registration_end.lookups).toEqual(['exact', 'gt', 'lt', 'gte', 'lte', 'contains', 'startswith']);
    expect(byField.dfp_points.lookups).toEqual(['exact', 'gt', 'lt', 'gte', 'lte']);
    expect(byField.id.lookups).toEqual(['exact']);
    expect(byField.categories).toMatchObject({ type: 'id-list', multiple: true });
    expect(byField.organizer.nullable).toBe(true);
    expect(byField.title.nullable).toBe(false);
    expect(FILTER_CATALOG.map((f) => f.field)).toEqual([
      'title', 'organizer', 'location', 'teaser', 'contact', 'email', 'start', 'end', 'registration_end', 'last_modified',
      'dfp_points', 'id', 'allday', 'register', 'attending_fees', 'categories', 'groups',
    ]);
  });

  it('derives the parameter names in declaration order', () => {
    const names = FILTER_PARAMETERS.map((p) => p.name);
    expect(names.slice(0, 4)).toEqual(['title', 'title__exact', 'title__iexact', 'title__contains']);
    expect(names.indexOf('start__gt')).toBeLessThan(names.indexOf('dfp_points'));
    expect(names.indexOf('dfp_points__lte')).toBeLessThan(names.indexOf('id'));
    expect(names.slice(-4)).toEqual(['categories', 'categories__exact', 'groups', 'groups__exact']);
    expect(new Set(names).size).toBe(names.length);
  });
});
