// Benchmark of filterEvents on a synthetic 100k-event table (not a test).
//
//   node --expose-gc --import tsx src/query/events/filter.bench.ts [rows] [queries-per-kind]
//   (ONLY=<kind prefix> runs some kinds; PREPARE=0 builds indexes lazily, on the first query)
//
// Every query of a kind has a different value (only a few of them can map to the same result,
// e.g. dfp_points=2 and 2.0), so no response cache helps. The first query of a kind is reported
// separately ("first ms"): without prepare() it pays for building its lazy index.
import { QueryParams } from '../query-dict.ts';
import { filterWithIndexes, type FilterContext } from './filter.ts';
import { TableIndexes } from './indexes/table-indexes.ts';
import { buildTable, stringsOf } from './table-fixture.ts';
import { syntheticEvents } from './test-synthetic-events.ts';

const ROWS = Number(process.argv[2] ?? 100_000);
const PER_KIND = Number(process.argv[3] ?? 300);

const { rand, int, pick, zipf, STEMS, KINDS, NOUNS, PEOPLE, PLACES, makeEvents } = syntheticEvents(42);
/** [JS heap, typed-array backing stores (which live outside the heap)] after a full GC */
const memory = () => {
  (globalThis as { gc?: () => void }).gc?.();
  const m = process.memoryUsage();
  return [m.heapUsed, m.arrayBuffers];
};
const heap = () => memory().reduce((a, b) => a + b);

console.log(`building ${ROWS} events…`);
const base = heap();
const events = makeEvents(ROWS);
const table = buildTable(events);
events.length = 0; // the table holds what it needs
const tableBytes = heap() - base;
const titles = stringsOf(table.columns.text.title, table.length) as string[];
const teasers = stringsOf(table.columns.text.teaser, table.length) as string[];
const ctx: FilterContext = { timezone: 'Europe/Vienna', categoryIds: new Set(Array.from({ length: 40 }, (_, i) => i + 1)) };
const reserved = new Set(['limit', 'offset', 'format', 'expand', 'fields', 'omit']);
const ix = new TableIndexes(table);
const [jsBefore, buffersBefore] = memory();

const enc = encodeURIComponent;
const day = (i: number) => new Date(Date.UTC(2021, 0, 1) + i * 86_400_000).toISOString().slice(0, 10);
const substr = (s: string, min: number, max: number) => {
  const len = min + int(max - min + 1);
  const at = int(Math.max(1, s.length - len));
  return s.slice(at, at + len);
};
const teaserWord = () => {
  const words = pick(teasers).split(/[ .]+/).filter((w) => w.length >= 4);
  return words.length ? pick(words) : 'xyz';
};

const KINDS_OF_QUERY: Record<string, () => string> = {
  'start__gte (day)': () => `start__gte=${day(int(1826))}`,
  'start range (1 week)': () => { const d = int(1800); return `start__gte=${day(d)}&start__lt=${day(d + 7)}`; },
  'start exact (naive)': () => `start=${day(int(1826))}T${String(8 + int(10)).padStart(2, '0')}:${pick(['00', '15', '30', '45'])}`,
  'end__lt (day)': () => `end__lt=${day(int(1826))}`,
  'last_modified__gte': () => `last_modified__gte=${day(int(1826))}`,
  'registration_end__lte': () => `registration_end__lte=${day(int(1826))}`,
  'dfp_points exact': () => `dfp_points=${int(21)}${rand() < 0.5 ? '.0' : ''}${'0'.repeat(int(4))}`,
  'dfp_points__gte': () => `dfp_points__gte=${int(21)}.${int(1000)}`,
  'id exact': () => `id=${1 + int(ROWS)}`,
  'allday / register': () => `${pick(['allday', 'register', 'attending_fees'])}=${pick(['true', 'false', '1', '0', 'True', 'FALSE'])}${' '.repeat(int(3))}`,
  'categories (1)': () => `categories=${1 + int(40)}${' '.repeat(int(3))}`,
  'categories (2)': () => `categories=${1 + int(40)}&categories=${1 + int(40)}`,
  'start__startswith (month)': () => `start__startswith=${day(int(1826)).slice(0, 7 + int(4))}`,
  'title exact': () => `title=${enc(pick(titles))}`,
  'title__iexact': () => `title__iexact=${enc(pick(titles).toUpperCase())}`,
  'title__istartswith': () => `title__istartswith=${enc(pick(titles).slice(0, 5 + int(10)).toLowerCase())}`,
  'title__icontains (4-8)': () => `title__icontains=${enc(substr(pick(titles), 4, 8).toLowerCase())}`,
  'title__contains (3-12)': () => `title__contains=${enc(substr(pick(titles), 3, 12))}`,
  'title__iendswith': () => `title__iendswith=${enc(pick(titles).slice(-4 - int(6)))}`,
  'teaser__icontains word': () => `teaser__icontains=${enc(teaserWord())}`,
  'teaser__icontains phrase': () => `teaser__icontains=${enc(substr(pick(teasers), 10, 25))}`,
  'organizer__icontains': () => `organizer__icontains=${enc(substr(pick(PEOPLE), 3, 6))}`,
  'location__contains': () => `location__contains=${enc(substr(pick(PLACES), 4, 10))}`,
  'email__iendswith': () => `email__iendswith=${enc(pick(PEOPLE).split(' ').pop()!.toLowerCase().slice(-4) + '@example.org')}`,
  'title__regex ^Kind: Word': () => `title__regex=${enc(`^${pick(KINDS)}: ${pick(NOUNS).slice(0, 4)}`)}`,
  'title__iregex a|b': () => `title__iregex=${enc(`${pick(NOUNS).slice(0, 5)}|${pick(NOUNS).slice(0, 5)}`)}`,
  'teaser__iregex word\\s+word': () => `teaser__iregex=${enc(`${teaserWord()}\\s+\\w+`)}`,
  'title__regex no literal': () => `title__regex=${enc(`^[A-Z]\\w+: [A-Z]\\w{${2 + int(4)}} `)}`,
  'combined: range+icontains+bool': () => { const d = int(1700); return `start__gte=${day(d)}&start__lt=${day(d + 90)}&title__icontains=${enc(substr(pick(titles), 4, 6).toLowerCase())}&allday=false`; },
  'combined: category+dfp+register': () => `categories=${1 + int(40)}&dfp_points__gte=${int(20)}&register=true`,
};

const fmt = (x: number) => x.toFixed(x < 10 ? 1 : 0).padStart(8);
console.log(`${'kind'.padEnd(34)} ${'first ms'.padStart(8)} ${'median µs'.padStart(9)} ${'p99 µs'.padStart(8)} ${'rows(med)'.padStart(9)}`);
const ONLY = process.env.ONLY;
for (const [kind, gen] of Object.entries(KINDS_OF_QUERY)) {
  if (ONLY && !kind.startsWith(ONLY)) continue;
  const seen = new Set<string>();
  const queries: QueryParams[] = [];
  for (let tries = 0; queries.length < PER_KIND && tries < PER_KIND * 20; tries++) {
    const q = gen();
    if (seen.has(q)) continue;
    seen.add(q);
    queries.push(QueryParams.parse(q));
  }
  const t0 = performance.now();
  const first = filterWithIndexes(ix, ctx, queries[0], reserved);
  const build = performance.now() - t0;
  if (!first.ok) throw new Error(`${kind}: ${JSON.stringify(first.errors)}`);
  const times: number[] = [];
  const counts: number[] = [];
  for (const q of queries.slice(1)) {
    const a = performance.now();
    const r = filterWithIndexes(ix, ctx, q, reserved);
    times.push((performance.now() - a) * 1000);
    if (!r.ok) throw new Error(`${kind}: ${JSON.stringify(r.errors)}`);
    counts.push(r.rows === null ? ROWS : r.rows.length);
  }
  times.sort((a, b) => a - b);
  counts.sort((a, b) => a - b);
  const q = (p: number) => times[Math.min(times.length - 1, Math.floor(p * times.length))];
  console.log(`${kind.padEnd(34)} ${fmt(build)} ${fmt(q(0.5)).padStart(9)} ${fmt(q(0.99))} ${String(counts[counts.length >> 1]).padStart(9)}`);
}

const [jsAfter, buffersAfter] = memory();
const mb = (x: number) => `${(x / 2 ** 20).toFixed(1)} MB`;
console.log(`\nindex memory: ${mb(buffersAfter - buffersBefore)} typed arrays (${mb(ix.byteSize())} counted by the indexes), ${mb(jsAfter - jsBefore)} JS heap (folded strings, maps)`);
console.log(`the table itself: ${mb(tableBytes)}`);
for (const f of ['title', 'teaser', 'organizer', 'location', 'contact', 'email'] as const) {
  const c = ix.text(f);
  console.log(`  ${f.padEnd(10)} ${String(c.valueCount).padStart(6)} values, ${c.hasTrigrams ? `trigrams ${(c.trigrams.byteSize / 2 ** 20).toFixed(1)} MB, ${(c.trigrams.coverage * 100).toFixed(0)}% of postings kept` : 'no trigram index'}`);
}
