// CPU nanoseconds per unit of counted work, for each site that charges a request (not a test).
//
//   node --import tsx bench/work-units.ts [rows]
//
// A unit is meant to be about a nanosecond of CPU (src/query/work-budget.ts), so that the work
// limit bounds how long a request can hold the event loop. Each site below runs a workload
// dominated by what it charges, under a meter, until it has used at least MIN_CPU_MS of CPU
// (process.cpuUsage: a busy machine does not inflate it as it inflates wall time), and prints
// CPU ns / units. Sites charged elsewhere (autocomplete, rendering, the calendar) add their rows
// to SITES.
import { RE2JS } from 're2js';
import { metered, WorkMeter } from '../src/query/work-budget.ts';
import { WorkTally } from '../src/query/work-tally.ts';
import { compileRegex, regexFlags } from '../src/query/regex/regex.ts';
import { Matcher } from '../src/query/regex/matcher.ts';
import { programOf } from '../src/query/regex/program.ts';
import { filterWithIndexes, type FilterContext } from '../src/query/events/filter.ts';
import { TableIndexes } from '../src/query/events/indexes/table-indexes.ts';
import { QueryParams } from '../src/query/query-dict.ts';
import { syntheticEvents } from '../src/query/events/test-synthetic-events.ts';
import { stringsOf } from '../src/query/events/table-fixture.ts';
import { mulberry32 } from '../src/util/mulberry32.ts';

const ROWS = Number(process.argv[2] ?? 20_000);
const MIN_CPU_MS = 300;

export interface Site {
  name: string;
  /** one round of the workload; its work is charged to the active meter */
  run: () => void;
}

const cpuNs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) * 1000;
};

/** ns of CPU per unit the site charges, over rounds until MIN_CPU_MS of CPU. */
export function nsPerUnit(site: Site): { ns: number; units: number; rounds: number } {
  metered(new WorkMeter(Infinity), site.run); // warm up the JIT and the lazy indexes
  const meter = new WorkMeter(Infinity);
  const start = cpuNs();
  let rounds = 0;
  while (cpuNs() - start < MIN_CPU_MS * 1e6) {
    metered(meter, site.run);
    rounds++;
  }
  return { ns: (cpuNs() - start) / meter.used, units: meter.used / rounds, rounds };
}

// ---------------------------------------------------------------------------------------------

const synthetic = syntheticEvents(7);
const table = synthetic.table(ROWS);
const ix = new TableIndexes(table);
const teasers = stringsOf(table.columns.text.teaser, table.length) as string[];
const ctx: FilterContext = { timezone: 'Europe/Vienna', categoryIds: new Set(Array.from({ length: 40 }, (_, i) => i + 1)) };
const reserved = new Set(['limit', 'offset']);
const rand = mulberry32(3);

/** A fresh matcher per round (a request's), tested on every text. */
function regexOver(pattern: string, texts: readonly string[], cacheBytes?: number): () => void {
  const program = programOf(RE2JS.compile(pattern, regexFlags(false)));
  return () => {
    const work = new WorkTally('bench');
    const m = new Matcher(program, cacheBytes);
    for (const t of texts) m.test(t, work);
    work.settle();
  };
}

/** The filters of one request, as the list endpoint runs them (result cache left out). */
function request(query: string | (() => string)): () => void {
  return () => {
    const q = typeof query === 'string' ? query : query();
    const r = filterWithIndexes(ix, ctx, QueryParams.parse(q), reserved);
    if (!r.ok) throw new Error(`${q}: ${JSON.stringify(r.errors)}`);
    ix.results.offer = () => {}; // every round computes its result
  };
}

const greek = Array.from({ length: 2000 }, () => Array.from({ length: 150 }, () => String.fromCharCode(0x3b1 + Math.floor(rand() * 25))).join(''));
const cjkFew = Array.from({ length: 1000 }, () => Array.from({ length: 150 }, () => String.fromCharCode(0x4e00 + Math.floor(rand() * 200))).join(''));
const cjk = [Array.from({ length: 200_000 }, () => String.fromCharCode(0x4e00 + Math.floor(rand() * 20_000))).join('')];
const compiled = [
  '^(seminar|workshop)', '\\d{4}', 'foo.*bar', '[a-z]+ung\\b', '(?i)vortrag|lesung', '(?:.{0,20}\\pL){10}\\p{Sm}', '\\pL{3}\\PL\\p{Greek}'.repeat(20),
  '(?i)[\\p{Lu}\\pN]+', 'x{1000}y{496}', '(?:.{0,60}\\pL){12}\\p{Sm}', '[\\pL\\pN]{700}', '\\pL'.repeat(300),
];
const words = ['und', 'der', 'ung', 'ie', 'en'];

export const SITES: Site[] = [
  { name: 'regex: cached DFA steps (Latin-1)', run: regexOver('\\d{4}x', teasers) },
  { name: 'regex: steps over Greek (table)', run: regexOver('\\d{4}x', greek) },
  { name: 'regex: steps over CJK (map)', run: regexOver('\\d{4}x', cjkFew) },
  { name: 'regex: DFA states built', run: regexOver('(?:.{0,12}[aeiou]){6}\\p{Sm}', teasers.slice(0, 400), 1 << 30) },
  { name: 'regex: NFA steps', run: regexOver('(?:.{0,30}[aeiou]){12}\\p{Sm}', teasers.slice(0, 200), 1) },
  { name: 'regex: characters classified', run: regexOver(`(?:${Array.from({ length: 30 }, (_, i) => `[\\x{${(0x4e00 + i * 600).toString(16)}}-\\x{${(0x4e00 + i * 600 + 300).toString(16)}}]`).join('|')})x`, cjk) },
  { name: 'regex: literal prefix searched', run: regexOver('Zqx.*y', teasers) },
  { name: 'regex: compiling', run: () => { for (const p of compiled) compileRegex(p, false, 'bench'); } },
  { name: 'regex lookup: teaser__regex, no literal', run: request('teaser__regex=%5Cd%7B4%7Dx') },
  { name: 'regex lookup: teaser__iregex, heavy pattern', run: request(`teaser__iregex=${encodeURIComponent('(?:.{0,30}[aeiou]){8}\\p{Sm}')}`) },
  { name: 'text: scan (needle < 3 characters)', run: request(() => `teaser__icontains=${synthetic.pick(words).slice(0, 2)}`) },
  { name: 'text: trigram candidates, verified', run: request(() => `teaser__icontains=${synthetic.pick(words)}`) },
  { name: 'text: rows of many values', run: request('title__icontains=e') },
  { name: 'planner: sieves', run: request(() => `register=true&allday=false&dfp_points__gte=${synthetic.int(20)}&attending_fees=false`) },
  { name: 'categories: 10,000 ids', run: request(Array.from({ length: 10_000 }, (_, i) => `categories=${1 + (i % 40)}`).join('&')) },
];

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(`${ROWS} events; CPU ns per counted unit (a unit is meant to be ~1 ns)\n`);
  console.log(`${'site'.padEnd(46)} ${'ns/unit'.padStart(8)} ${'units/round'.padStart(12)} ${'rounds'.padStart(7)}`);
  for (const site of SITES) {
    const r = nsPerUnit(site);
    console.log(`${site.name.padEnd(46)} ${r.ns.toFixed(2).padStart(8)} ${Math.round(r.units).toString().padStart(12)} ${String(r.rounds).padStart(7)}`);
  }
}
