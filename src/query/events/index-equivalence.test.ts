// Property-style checks: whatever path the indexes take (trigram candidates with partial
// coverage, bit sets, sorted prefixes, envelopes, permutations, caches, the planner's choice of
// driver), the rows must be exactly those a naive scan of the columns finds.
import { describe, expect, it } from 'vitest';
import { RE2JS } from 're2js';
import { QueryParams } from '../query-dict.ts';
import { TEXT_FIELDS, type EventTable } from '../../store/format/event-table.ts';
import { filterWithIndexes, type FilterContext } from './filter.ts';
import { fold } from '../../store/format/fold.ts';
import { TableIndexes } from './indexes/table-indexes.ts';
import { buildTable, stringsOf, ZONE, type FixtureEvent } from './table-fixture.ts';
import type { ColumnFileOptions } from '../../store/write/column-files.ts';
import { mangle, prng, randomRegex, randomText, type Random } from './test-random.ts';

const SMALL = [...'aAsSßẞσςΣ '];

const RESERVED = new Set<string>();

function naiveText(value: string | null, lookup: string, needle: string, re: RE2JS | null): boolean {
  if (value === null) return false;
  switch (lookup) {
    case 'exact': return value === needle;
    case 'iexact': return fold(value) === fold(needle);
    case 'contains': return value.includes(needle);
    case 'icontains': return fold(value).includes(fold(needle));
    case 'startswith': return value.startsWith(needle);
    case 'istartswith': return fold(value).startsWith(fold(needle));
    case 'endswith': return value.endsWith(needle);
    case 'iendswith': return fold(value).endsWith(fold(needle));
    default: return re!.test(value);
  }
}

function rowsOf(table: EventTable, ix: TableIndexes, ctx: FilterContext, pairs: [string, string][]): number[] {
  const r = filterWithIndexes(ix, ctx, new QueryParams(pairs), RESERVED);
  if (!r.ok) throw new Error(`errors for ${JSON.stringify(pairs)}: ${JSON.stringify(r.errors)}`);
  const rows = r.rows === null ? [...Array(table.length).keys()] : [...r.rows];
  for (let i = 1; i < rows.length; i++) if (rows[i] <= rows[i - 1]) throw new Error('rows not strictly ascending');
  return rows;
}

function textTable(r: Random, n: number, options: Partial<ColumnFileOptions>, inParts = false): EventTable {
  // a pool makes values repeat (several rows per distinct value), as organizers do
  const pool = Array.from({ length: 1 + r.int(n) }, () => randomText(r, r.chance(0.2) ? 40 : 12));
  // a small alphabet makes some trigrams frequent enough to be held as bit sets
  const value = () => (r.chance(0.4) ? r.pick(pool) : r.chance(0.5) ? randomText(r, 16) : randomText(r, 24, SMALL));
  const events: FixtureEvent[] = Array.from({ length: n }, (_, i) => ({
    id: i + 1,
    title: value(),
    teaser: value(),
    organizer: r.chance(0.2) ? null : value(),
    location: r.chance(0.2) ? null : value(),
    contact: r.chance(0.5) ? null : value(),
    email: r.chance(0.2) ? null : value(),
    start: Date.UTC(2025, 0, 1) + r.int(1000) * 3_600_000,
  }));
  return buildTable(events, ZONE, options, inParts);
}

const LOOKUPS = ['exact', 'iexact', 'contains', 'icontains', 'startswith', 'istartswith', 'endswith', 'iendswith', 'regex', 'iregex'];

describe('text lookups: indexes agree with a naive scan', () => {
  const budgets: [string, Partial<ColumnFileOptions>, boolean][] = [
    ['full trigram coverage', { trigramBytesPerValue: 1000 }, false],
    ['a budget leaving most trigrams out', { trigramBytesPerValue: 2 }, false],
    ['no budget at all', { trigramBytesPerValue: 0 }, false],
    // icontains from the word lists (word-lists.ts), the others as the edge reads them
    ['read in parts, with word lists', { trigramBytesPerValue: 3, wordListsFromUnits: 0 }, true],
  ];
  it.each(budgets)('%s', (_name, budget, inParts) => {
    const r = prng(11 + (budget.trigramBytesPerValue ?? 0));
    const ctx: FilterContext = { timezone: ZONE, categoryIds: new Set() };
    let nonEmpty = 0;
    let compared = 0;
    let lastIx: TableIndexes | null = null;
    for (let round = 0; round < 12; round++) {
      const table = textTable(r, 50 + r.int(400), { scanBelowValues: 0, trigramMinBytes: 0, trigramBytesPerValue: 64, ...budget }, inParts);
      const ix = new TableIndexes(table, { fewRows: 0 });
      lastIx = ix;
      for (let q = 0; q < 150; q++) {
        const field = r.pick(TEXT_FIELDS);
        const lookup = r.pick(LOOKUPS);
        const column = stringsOf(table.columns.text[field], table.length);
        const sample = column[r.int(column.length)] ?? 'a';
        let needle: string;
        let re: RE2JS | null = null;
        if (lookup === 'regex' || lookup === 'iregex') {
          needle = r.chance(0.5) ? randomRegex(r) : RE2JS.quote(mangle(r, sample));
          try {
            re = RE2JS.compile(needle, RE2JS.DOTALL | (lookup === 'iregex' ? RE2JS.CASE_INSENSITIVE : 0));
          } catch {
            continue;
          }
        } else {
          needle = lookup.endsWith('exact') && r.chance(0.5) ? sample : mangle(r, sample);
        }
        // values are stripped and blank means "no filter": keep the comparison meaningful
        if (needle.trim() !== needle || needle === '' || /^[\s\x1c-\x1f\x85]|[\s\x1c-\x1f\x85]$/.test(needle)) continue;
        const expected = [...column.keys()].filter((row) => naiveText(column[row], lookup, needle, re));
        const name = lookup === 'exact' ? field : `${field}__${lookup}`;
        expect(rowsOf(table, ix, ctx, [[name, needle]]), `${name}=${JSON.stringify(needle)}`).toEqual(expected);
        compared++;
        if (expected.length > 0) nonEmpty++;
      }
    }
    expect(compared).toBeGreaterThan(1200);
    expect(nonEmpty).toBeGreaterThan(compared / 3);
    // the last table's indexes took the paths this case is about
    const stats = TEXT_FIELDS.map((f) => lastIx!.text(f)).filter((col) => col.hasTrigrams).map((col) => col.trigrams.stats);
    expect(stats.length).toBeGreaterThan(0);
    expect(TEXT_FIELDS.some((f) => lastIx!.text(f).hasWords)).toBe(inParts);
    const sum = (k: 'varint' | 'bitmap' | 'unindexed') => stats.reduce((a, s) => a + s[k], 0);
    if ((budget.trigramBytesPerValue ?? 0) >= 1000) {
      expect(sum('unindexed')).toBe(0);
      expect(sum('bitmap')).toBeGreaterThan(0);
      expect(sum('varint')).toBeGreaterThan(0);
    } else if (budget.trigramBytesPerValue === 0) {
      expect(sum('varint') + sum('bitmap')).toBe(0);
    } else {
      expect(sum('unindexed')).toBeGreaterThan(0);
      expect(sum('varint')).toBeGreaterThan(0);
    }
  });
});

describe('combined filters: the planner agrees with a naive scan', () => {
  it.each([[1], [2], [3]])('seed %i', (seed) => {
    const r = prng(seed);
    const n = 1100 + r.int(1500); // ≥ 1024 so that envelopes are considered
    const t0 = Date.UTC(2024, 0, 1);
    const events: FixtureEvent[] = Array.from({ length: n }, (_, i) => {
      const start = t0 + r.int(20_000) * 900_000;
      return {
        id: i + 1,
        title: randomText(r, 10),
        start,
        end: start + r.int(12) * 3_600_000, // follows start: envelope path
        registration_end: r.chance(0.4) ? null : start - r.int(72) * 3_600_000, // follows start, with nulls
        last_modified: t0 + r.int(1e9) * 20, // unrelated: permutation path
        dfp_points: r.chance(0.3) ? null : r.int(12),
        allday: r.chance(0.3),
        register: r.chance(0.5),
        attending_fees: r.chance(0.2),
        categories: Array.from({ length: r.int(3) }, () => 1 + r.int(8)),
        groups: r.chance(0.5) ? [1 + r.int(4)] : [],
      };
    });
    const table = buildTable(events);
    const ctx: FilterContext = { timezone: ZONE, categoryIds: new Set([1, 2, 3, 4, 5, 6, 7, 8]) };
    // the same rows, their text columns indexed however small
    const ix = new TableIndexes(buildTable(events, ZONE, { scanBelowValues: 0, trigramMinBytes: 0, trigramBytesPerValue: 64 }), { fewRows: 0 });
    const defaults = new TableIndexes(table);
    const c = table.columns;
    const iso = (ms: number) => new Date(ms).toISOString();
    const ops = ['exact', 'gt', 'gte', 'lt', 'lte'] as const;
    const cmp = (v: number, op: (typeof ops)[number], x: number) =>
      v === v && (op === 'exact' ? v === x : op === 'gt' ? v > x : op === 'gte' ? v >= x : op === 'lt' ? v < x : v <= x);

    type Clause = { pair: [string, string]; test: (row: number) => boolean };
    const clauses: (() => Clause)[] = [
      () => {
        const f = r.pick(['start', 'end', 'registration_end', 'last_modified'] as const);
        const op = r.pick(ops);
        const col = c.time[f];
        let x = col[r.int(n)];
        if (x !== x || r.chance(0.3)) x = t0 + r.int(20_000) * 900_000 + r.int(3) * 60_000;
        const name = op === 'exact' ? (r.chance(0.5) ? f : `${f}__exact`) : `${f}__${op}`;
        return { pair: [name, iso(x)], test: (row) => cmp(col[row], op, x) };
      },
      () => {
        const op = r.pick(ops);
        const x = r.int(14) - 1;
        return { pair: [op === 'exact' ? 'dfp_points' : `dfp_points__${op}`, `${x}${r.chance(0.3) ? '.7' : ''}`], test: (row) => cmp(c.dfp_points[row], op, x) };
      },
      () => {
        const f = r.pick(['allday', 'register', 'attending_fees'] as const);
        const v = r.chance(0.5);
        return { pair: [f, v ? 'true' : '0'], test: (row) => (c.bool[f][row] === 1) === v };
      },
      () => {
        const ids = Array.from({ length: 1 + r.int(3) }, () => 1 + r.int(8));
        // several values of one parameter: built as one clause with repeated pairs below
        return { pair: ['categories', ids.join('|')], test: (row) => c.categories.at(row).some((id) => ids.includes(id)) };
      },
      () => {
        const g = 1 + r.int(4);
        return { pair: ['groups', String(g)], test: (row) => c.groups.at(row).includes(g) };
      },
      () => {
        const id = 1 + r.int(n + 5);
        return { pair: ['id', String(id)], test: (row) => c.id[row] === id };
      },
      () => {
        const needle = mangle(r, c.text.title.at(r.int(n)) ?? 'a') || 'a';
        return { pair: ['title__icontains', needle], test: (row) => fold(c.text.title.at(row)!).includes(fold(needle)) };
      },
      () => {
        const prefix = c.iso.start.at(r.int(n))!.slice(0, 4 + r.int(10));
        return { pair: ['start__startswith', prefix], test: (row) => c.iso.start.at(row)!.startsWith(prefix) };
      },
    ];
    let nonEmpty = 0;
    for (let q = 0; q < 600; q++) {
      const chosen = Array.from({ length: 1 + r.int(4) }, () => r.pick(clauses)());
      // one clause per parameter name (a repeated name would mean "last wins")
      const byName = new Map(chosen.map((cl) => [cl.pair[0], cl]));
      const pairs: [string, string][] = [];
      for (const cl of byName.values()) {
        if (cl.pair[0] === 'categories') for (const id of cl.pair[1].split('|')) pairs.push(['categories', id]);
        else pairs.push(cl.pair);
      }
      if ([...byName.values()].some((cl) => cl.pair[1].trim() !== cl.pair[1])) continue;
      const expected = [...Array(n).keys()].filter((row) => [...byName.values()].every((cl) => cl.test(row)));
      expect(rowsOf(table, ix, ctx, pairs), JSON.stringify(pairs)).toEqual(expected);
      // and with the default options (short candidate lists tested row by row)
      expect(rowsOf(table, defaults, ctx, pairs), JSON.stringify(pairs)).toEqual(expected);
      if (expected.length > 0) nonEmpty++;
    }
    expect(nonEmpty).toBeGreaterThan(200);
    expect(ix.numeric('start').shape).toBe('monotone');
    expect(ix.numeric('end').shape).toBe('envelope');
    expect(ix.numeric('registration_end').shape).toBe('envelope');
    expect(ix.numeric('last_modified').shape).toBe('permutation');
    expect(ix.numeric('dfp_points').shape).toBe('permutation');
  });
});
