// Pages of matches without sorting every match (matches.ts) and the filter result cache
// (result-cache.ts): whatever path a page takes — a merge of list heads, the sorted union, a
// cached result — it holds exactly the rows a naive scan lists at those positions.
import { describe, expect, it } from 'vitest';
import { QueryParams } from '../query-dict.ts';
import { filterWithIndexes, matchWithIndexes, type FilterContext } from './filter.ts';
import { fold } from '../../store/format/fold.ts';
import { TableIndexes } from './indexes/table-indexes.ts';
import { materialized, UnionMatches } from './matches.ts';
import { BitsMatches } from './search/bits.ts';
import { ResultCache } from './result-cache.ts';
import { buildTable, ZONE, type FixtureEvent, stringsOf } from './table-fixture.ts';
import { prng, type Random } from './test-random.ts';

const CTX: FilterContext = { timezone: ZONE, categoryIds: new Set([1, 2, 3]) };
const NONE = new Set<string>();

/** Random disjoint ascending lists laid out one after another in one array, as a text column's value rows are. */
function randomLists(r: Random, universe: number, k: number) {
  const owner = Array.from({ length: universe }, () => (r.chance(0.6) ? r.int(k) : -1));
  const rows: number[] = [];
  const pos: number[] = [];
  const end: number[] = [];
  for (let list = 0; list < k; list++) {
    pos.push(rows.length);
    owner.forEach((o, row) => o === list && rows.push(row));
    end.push(rows.length);
  }
  const union = owner.flatMap((o, row) => (o >= 0 ? [row] : []));
  return { rows: Uint32Array.from(rows), pos, end, union };
}

describe('UnionMatches', () => {
  it('gives every slice of the sorted union, by merge or by sorting, in any order of requests', () => {
    const r = prng(7);
    let merged = 0;
    let sortedUnions = 0;
    for (let round = 0; round < 300; round++) {
      const { rows, pos, end, union } = randomLists(r, 1 + r.int(3000), 1 + r.int(r.chance(0.5) ? 4 : 200));
      // lists in any order (the sorted-prefix lookups hand out values in text order)
      const order = [...pos.keys()].sort(() => r.next() - 0.5);
      let sorts = 0;
      const m = new UnionMatches(rows, Uint32Array.from(order, (i) => pos[i]), Uint32Array.from(order, (i) => end[i]), () => {
        sorts++;
        return Uint32Array.from(union);
      });
      expect(m.count).toBe(union.length);
      for (let q = 0; q < 6; q++) {
        const from = r.chance(0.7) ? r.int(Math.min(60, union.length + 1)) : r.int(union.length + 1);
        const to = Math.min(union.length, from + r.int(25));
        const before = sorts;
        expect([...m.slice(from, to)], `${from}..${to} of ${union.length}`).toEqual(union.slice(from, to));
        if (sorts === before && to > from && pos.length > 1) merged++;
      }
      expect(sorts).toBeLessThanOrEqual(1);
      sortedUnions += sorts;
    }
    // both paths were taken
    expect(merged).toBeGreaterThan(100);
    expect(sortedUnions).toBeGreaterThan(10);
  });

  it('holds a row exactly when the union lists it, as the rows held whole and a bit set do', () => {
    const r = prng(11);
    for (let round = 0; round < 200; round++) {
      const universe = 1 + r.int(3000);
      const { rows, pos, end, union } = randomLists(r, universe, 1 + r.int(r.chance(0.5) ? 4 : 200));
      const unionMatches = new UnionMatches(rows, Uint32Array.from(pos), Uint32Array.from(end), () => Uint32Array.from(union));
      const bits = new Int32Array(Math.ceil(universe / 32));
      for (const row of union) bits[row >>> 5] |= 1 << (row & 31);
      const listed = new Set(union);
      for (const m of [unionMatches, materialized(Uint32Array.from(union)), new BitsMatches(bits, union.length, 'rows')]) {
        for (let q = 0; q < 20; q++) {
          const row = r.int(universe + 2);
          expect(m.has(row), `row ${row}`).toBe(listed.has(row));
        }
      }
    }
  });

  it('a slice of an empty union is empty', () => {
    const m = new UnionMatches(new Uint32Array(0), new Uint32Array(0), new Uint32Array(0), () => new Uint32Array(0));
    expect(m.count).toBe(0);
    expect([...m.slice(0, 0)]).toEqual([]);
  });
});

describe('matchWithIndexes: pages of string lookups and combined filters agree with a naive scan', () => {
  it.each([[1], [2]])('seed %i', (seed) => {
    const r = prng(100 + seed);
    const n = 3000 + r.int(2000);
    // few distinct titles (several rows each, as real titles repeat) and some unique ones
    const words = ['Herz', 'herzlich', 'Kurs', 'KURSE', 'Übung', 'übungen', 'Straße', 'STRASSE', 'Lunge', 'lungen'];
    const pool = Array.from({ length: 40 }, () => `${r.pick(words)} ${r.pick(words)} ${r.int(5)}`);
    const t0 = Date.UTC(2025, 0, 1);
    const events: FixtureEvent[] = Array.from({ length: n }, (_, i) => ({
      id: i + 1,
      title: r.chance(0.8) ? r.pick(pool) : `${r.pick(words)} ${i}`,
      start: t0 + r.int(5000) * 3_600_000,
      dfp_points: r.chance(0.2) ? null : r.int(6),
      register: r.chance(0.5),
    }));
    const table = buildTable(events);
    const titles = stringsOf(table.columns.text.title, table.length) as string[];
    const folded = titles.map(fold);
    const start = table.columns.time.start;
    const ix = new TableIndexes(table);
    let compared = 0;
    let cachedHits = 0;
    for (let q = 0; q < 400; q++) {
      const needle = r.pick(words).slice(0, 3 + r.int(3));
      const pairs: [string, string][] = [];
      let keep = (_row: number) => true;
      const kind = r.int(4);
      if (kind === 0 || kind === 1) {
        pairs.push(['title__icontains', needle]);
        keep = (row) => folded[row].includes(fold(needle));
      } else if (kind === 2) {
        pairs.push(['title__istartswith', needle]);
        keep = (row) => folded[row].startsWith(fold(needle));
      } else {
        const points = r.int(6);
        const reg = r.chance(0.5);
        pairs.push(['dfp_points__gte', String(points)], ['register', String(reg)]);
        keep = (row) => table.columns.dfp_points[row] >= points && table.columns.bool.register[row] === (reg ? 1 : 0);
      }
      let inRange = (_row: number) => true;
      if (kind === 1) {
        // a start range too: each value's rows restricted to a slice of the table
        const a = t0 + r.int(5000) * 3_600_000;
        const b = a + r.int(3000) * 3_600_000;
        pairs.push(['start__gte', new Date(a).toISOString()], ['start__lt', new Date(b).toISOString()]);
        inRange = (row) => start[row] >= a && start[row] < b;
      }
      const expected = [...titles.keys()].filter((row) => keep(row) && inRange(row));
      const hitsBefore = ix.results.size;
      const got = matchWithIndexes(ix, CTX, new QueryParams(pairs), NONE);
      if (!got.ok || got.matches === null) throw new Error(`no matches object for ${JSON.stringify(pairs)}`);
      if (ix.results.size === hitsBefore && kind === 3) cachedHits++;
      expect(got.matches.count, JSON.stringify(pairs)).toBe(expected.length);
      for (let p = 0; p < 4; p++) {
        const from = r.chance(0.6) ? r.int(Math.min(expected.length + 1, 100)) : r.int(expected.length + 1);
        const to = Math.min(expected.length, from + 1 + r.int(20));
        expect([...got.matches.slice(from, to)], `${JSON.stringify(pairs)} [${from}, ${to})`).toEqual(expected.slice(from, to));
        compared++;
      }
      if (q % 20 !== 0) continue;
      // the whole list, as filterWithIndexes gives it, on indexes of its own
      const whole = filterWithIndexes(new TableIndexes(table), CTX, new QueryParams(pairs), NONE);
      expect(whole.ok && whole.rows ? [...whole.rows] : null).toEqual(expected);
    }
    expect(compared).toBe(1600);
    // the combined filters repeat (few distinct ones), so most were answered from the cache
    expect(cachedHits).toBeGreaterThan(50);
  });

  it('a value holding a newline cannot pose as two parameters in the result cache', () => {
    const events: FixtureEvent[] = Array.from({ length: 6000 }, (_, i) => ({
      id: i + 1,
      title: i % 3 === 0 ? 'a' : 'a\ntitle__icontains="b"',
      dfp_points: i % 5,
      register: i % 2 === 0,
    }));
    const table = buildTable(events);
    const ix = new TableIndexes(table);
    const ask = (pairs: [string, string][]) => {
      const got = matchWithIndexes(ix, CTX, new QueryParams(pairs), NONE);
      return got.ok && got.matches ? got.matches.count : -1;
    };
    const first = ask([['title', 'a\ntitle__icontains="b"'], ['dfp_points__gte', '1'], ['register', 'true']]);
    const second = ask([['title', 'a'], ['title__icontains', 'b'], ['dfp_points__gte', '1'], ['register', 'true']]);
    expect(first).toBeGreaterThan(0);
    expect(second).toBe(0);
  });
});

describe("a table's filter result cache", () => {
  it('holds two dozen combined filters of a third of the rows each, so paging through them at random sieves each once', () => {
    // the bench's dfp_points__gte × register pool: 12 thresholds × 2 values, ~30 % of the rows each
    const n = 20_000;
    const events: FixtureEvent[] = Array.from({ length: n }, (_, i) => ({ id: i + 1, title: 'x', dfp_points: i % 13, register: (i >> 1) % 2 === 0 }));
    const ix = new TableIndexes(buildTable(events));
    const combos = Array.from({ length: 24 }, (_, c) => [['dfp_points__gte', String(c >> 1)], ['register', String(c % 2 === 0)]] as [string, string][]);
    const held = combos.map((pairs) => {
      const got = matchWithIndexes(ix, CTX, new QueryParams(pairs), NONE);
      return got.ok && got.matches ? got.matches : null;
    });
    expect(Math.min(...held.map((m) => m!.count))).toBeGreaterThan(n / 30);
    expect(held.reduce((sum, m) => sum + m!.count, 0)).toBeGreaterThan(4 * n); // more than the old bound (4 rows per row)
    expect(ix.results.size).toBe(24);
    // asked again in another order: every one is the very result kept the first time
    for (const c of [5, 17, 0, 23, 11, 2, 19, 8]) {
      const again = matchWithIndexes(ix, CTX, new QueryParams(combos[c]), NONE);
      expect(again.ok && again.matches).toBe(held[c]);
    }
  });
});

describe('ResultCache', () => {
  const rows = (n: number) => materialized(new Uint32Array(n));

  it('keeps only results that took a large sieve, within its bounds on entries and rows', () => {
    const c = new ResultCache(3, 10_000);
    c.offer('cheap', rows(100), 10);
    expect(c.get('cheap')).toBeUndefined();
    c.offer('huge', rows(5000), 100_000); // more than a quarter of the row bound
    expect(c.get('huge')).toBeUndefined();
    for (const k of ['a', 'b', 'c', 'd']) c.offer(k, rows(2000), 50_000);
    expect(c.size).toBe(3);
    expect(c.get('a')).toBeUndefined(); // the oldest went first
    expect(c.get('b')?.count).toBe(2000);
    // b was just used: the next two push out c and d
    c.offer('e', rows(2500), 50_000);
    c.offer('f', rows(2500), 50_000);
    expect(c.get('c')).toBeUndefined();
    expect(c.get('b')).toBeDefined();
  });
});
