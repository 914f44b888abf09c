// The filters charge the request for the loops its parameters size (work-costs.ts): counted, so the
// same request costs the same units on every answer, whatever earlier requests left in caches.
import { describe, expect, it } from 'vitest';
import { metered, WorkLimitExceeded, WorkMeter } from '../work-budget.ts';
import { QueryParams } from '../query-dict.ts';
import { filterWithIndexes, type FilterContext } from './filter.ts';
import { TableIndexes } from './indexes/table-indexes.ts';
import { syntheticEvents } from './test-synthetic-events.ts';
import { buildTable } from './table-fixture.ts';

const ctx: FilterContext = { timezone: 'Europe/Vienna', categoryIds: new Set(Array.from({ length: 40 }, (_, i) => i + 1)) };
const reserved = new Set<string>();
const tables = new Map<number, ReturnType<ReturnType<typeof syntheticEvents>['table']>>();
const tableOf = (n: number) => tables.get(n) ?? tables.set(n, syntheticEvents(5).table(n)).get(n)!;

/** The units one request's filters charge, on fresh indexes or on `ix`. */
function units(query: string, ix = new TableIndexes(tableOf(2000)), limit = Infinity): number {
  const meter = new WorkMeter(limit);
  const r = metered(meter, () => filterWithIndexes(ix, ctx, QueryParams.parse(query), reserved));
  expect(r.ok, query).toBe(true);
  return meter.used;
}

/** lookups that visit every distinct value, or every candidate row */
const SCANS = [
  'title__icontains=ng', 'teaser__iendswith=en.', 'teaser__regex=%5Cd%7B4%7D', 'teaser__iregex=%5Cbwie%5Cb', 'start__startswith=2023-0',
  'register=true&dfp_points__gte=5&allday=false', 'end__lt=2024-01-01&title__icontains=e',
];
const LOOKUPS = [
  'title__icontains=ng', 'title__icontains=ung', 'teaser__contains=und', 'teaser__iendswith=en.', 'organizer__icontains=dr',
  'teaser__regex=%5Cd%7B4%7D', 'teaser__iregex=(?i)fortbildung.*herz', 'title__iregex=%5E(seminar%7Cworkshop)', 'teaser__iregex=vortrag%7Clesung',
  'start__startswith=2023-0', 'categories=3&categories=7', 'register=true&dfp_points__gte=5&allday=false', 'end__lt=2024-01-01&title__icontains=e',
];

describe('charged work', () => {
  it('every lookup charges its parameters; a scan in proportion to the table', () => {
    for (const q of LOOKUPS) expect(units(q), q).toBeGreaterThan(0);
    for (const q of SCANS) {
      const small = units(q, new TableIndexes(tableOf(1000)));
      const large = units(q, new TableIndexes(tableOf(4000)));
      // 4x the rows: about 4x the work (besides what a request costs whatever the table)
      expect(large / small, q).toBeGreaterThan(2.5);
      expect(large / small, q).toBeLessThan(5);
    }
  });

  it('the same request costs the same units every time, whatever earlier requests left in the caches', () => {
    const ix = new TableIndexes(tableOf(2000));
    for (const q of [...LOOKUPS, 'register=true&dfp_points__gte=2', 'categories=1&categories=2&categories=3']) {
      const cold = units(q, new TableIndexes(tableOf(2000)));
      expect(units(q, ix), q).toBe(cold);
      // the result cache, the union and span caches of the indexes now hold what it computed
      expect(units(q, ix), q).toBe(cold);
    }
  });

  it('a request over its limit is refused naming the parameter, close to the limit', () => {
    for (const [q, param] of [
      ['teaser__iregex=(%3F%3A.%7B0%2C30%7D%5Baeiou%5D)%7B8%7D%5Cp%7BSm%7D', 'teaser__iregex'],
      ['title__icontains=e', 'title__icontains'],
      [Array.from({ length: 10_000 }, (_, i) => `categories=${1 + (i % 40)}`).join('&'), 'categories'],
    ]) {
      const meter = new WorkMeter(200_000);
      const ix = new TableIndexes(tableOf(4000));
      let refused: unknown = null;
      try {
        metered(meter, () => filterWithIndexes(ix, ctx, QueryParams.parse(q), reserved));
      } catch (e) {
        refused = e;
      }
      expect(refused, q.slice(0, 40)).toBeInstanceOf(WorkLimitExceeded);
      expect((refused as WorkLimitExceeded).what).toBe(param);
    }
  });

  it('loops that count as they go stop within a step of the limit', () => {
    // (limits above what compiling a pattern costs, which is charged once it is done)
    for (const [q, limit] of [
      ['teaser__iregex=(%3F%3A.%7B0%2C30%7D%5Baeiou%5D)%7B8%7D%5Cp%7BSm%7D', 2_000_000],
      ['teaser__regex=%5Cd%7B4%7D', 1_000_000],
      ['teaser__icontains=e', 200_000],
    ] as const) {
      const meter = new WorkMeter(limit);
      expect(() => metered(meter, () => filterWithIndexes(new TableIndexes(tableOf(4000)), ctx, QueryParams.parse(q), reserved)), q).toThrow(WorkLimitExceeded);
      expect(meter.used, q).toBeLessThan(limit + 20_000);
    }
  });

  it('a 4 MB value does not run before it is counted: the automaton stops inside it', () => {
    const events = syntheticEvents(5).makeEvents(10);
    events[0].teaser = 'é'.repeat(4 << 20);
    const table = buildTable(events);
    const meter = new WorkMeter(1_000_000);
    expect(() =>
      metered(meter, () => filterWithIndexes(new TableIndexes(table), ctx, QueryParams.parse('teaser__regex=%5Cd%7B4%7D'), reserved)),
    ).toThrow(WorkLimitExceeded);
    expect(meter.used).toBeLessThan(1_010_000);
  });
});
