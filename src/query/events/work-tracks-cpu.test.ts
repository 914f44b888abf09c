// A unit of counted work is meant to be about a nanosecond of CPU (work-budget.ts), so that the
// work limit bounds how long a request holds the event loop. Over a large generated table, the CPU
// time of the heaviest lookups (process.cpuUsage: a busy machine does not inflate it as it
// inflates wall time) stays within a generous factor of the units they count. The calibration
// itself, site by site, is bench/work-units.ts.
import { describe, expect, it } from 'vitest';
import { QueryParams } from '../query-dict.ts';
import { HEAVIEST_PATTERNS, underLimit } from '../regex/test-adversarial-patterns.ts';
import { filterWithIndexes, type FilterContext } from './filter.ts';
import { TableIndexes } from './indexes/table-indexes.ts';
import { syntheticEvents } from './test-synthetic-events.ts';

/** Generous: calibrated at about 1 ns per unit, this holds with two CPU hogs on a 2-core machine. */
const MAX_NS_PER_UNIT = 10;
/** Each measured request stops here at the latest (about 30 ms of work). */
const LIMIT = 30_000_000;

const ctx: FilterContext = { timezone: 'Europe/Vienna', categoryIds: new Set(Array.from({ length: 40 }, (_, i) => i + 1)) };
const enc = encodeURIComponent;

describe('counted work tracks CPU time', () => {
  it('costs at most 10 ns of CPU per unit, for the heaviest regexes and the text lookups', () => {
    const ix = new TableIndexes(syntheticEvents(3).table(6_000));
    const queries = [
      ...HEAVIEST_PATTERNS.map((p) => `teaser__iregex=${enc(p)}`),
      `teaser__regex=${enc('\\d{4}')}`,
      `teaser__regex=${enc('.{0,700}\\p{Sm}')}`,
      `title__iregex=${enc('[a-z]+ung\\b')}`,
      `teaser__iregex=${enc('(?:\\w+\\s+){3}\\pN')}`,
      // re2js's parser folds each class range a code point at a time, and copies each table
      `title__iregex=${enc('[b-\\x{10FFFF}]'.repeat(4))}`,
      `teaser__regex=${enc(`(?i)${'[\\x{100}-\\x{1e900}]'.repeat(3)}`)}`,
      `teaser__iregex=${enc('\\pL'.repeat(60))}`,
      `teaser__regex=${enc('[\\PL\\p{Greek}]'.repeat(40))}`,
      'teaser__icontains=ie',
      'teaser__icontains=und',
      Array.from({ length: 10_000 }, (_, i) => `categories=${1 + (i % 40)}`).join('&'),
    ];
    const ratios: Record<string, number> = {};
    for (const query of queries) {
      const params = QueryParams.parse(query);
      const run = () => underLimit(LIMIT, () => filterWithIndexes(ix, ctx, params, new Set()));
      for (let warm = 0; warm < 3; warm++) run(); // compiled by the JIT, as in a server that has answered a few requests
      let best = Infinity;
      for (let round = 0; round < 3; round++) {
        const started = process.cpuUsage();
        const r = run();
        const used = process.cpuUsage(started);
        expect(r.used, query.slice(0, 60)).toBeGreaterThan(100_000); // enough work to measure
        best = Math.min(best, ((used.user + used.system) * 1000) / r.used);
      }
      ratios[query.slice(0, 60)] = Math.round(best * 100) / 100;
    }
    for (const [query, ns] of Object.entries(ratios)) expect(ns, `${query}: ${JSON.stringify(ratios)}`).toBeLessThanOrEqual(MAX_NS_PER_UNIT);
  });

  it('costs at most 10 ns of CPU per unit for a text lookup over a column no request has read yet', () => {
    // A column's strings are made when first read and kept (store/read/string-table.ts): the
    // first request testing them pays for that, and is charged for it as every later one is.
    // Each round reads a table loaded afresh; the JIT has compiled the lookups on another table.
    const queries = [
      'teaser__icontains=ie',
      'teaser__icontains=e~', // a common first character, never matched: every text searched whole
      'teaser__contains=und',
      'title__icontains=ng',
      'organizer__icontains=dr',
      `teaser__iregex=${enc('(?:schmerz|therapie)')}`,
    ];
    const ask = (ix: TableIndexes, query: string) => underLimit(LIMIT, () => filterWithIndexes(ix, ctx, QueryParams.parse(query), new Set()));
    const warm = new TableIndexes(syntheticEvents(4).table(6_000));
    for (let round = 0; round < 3; round++) for (const query of queries) ask(warm, query);
    const best: Record<string, number> = {};
    for (let round = 0; round < 3; round++) {
      const ix = new TableIndexes(syntheticEvents(3).table(6_000));
      for (const query of queries) {
        const started = process.cpuUsage();
        const r = ask(ix, query);
        const used = process.cpuUsage(started);
        expect(r.used, query).toBeGreaterThan(20_000);
        best[query] = Math.min(best[query] ?? Infinity, ((used.user + used.system) * 1000) / r.used);
      }
    }
    for (const [query, ns] of Object.entries(best)) expect(ns, `${query}: ${JSON.stringify(best)}`).toBeLessThanOrEqual(MAX_NS_PER_UNIT);
  });
});
