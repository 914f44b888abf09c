// Speed of the counting matcher against RE2JS.test, which answered regex lookups before it (not a
// test): CPU ns per text over the titles and teasers of synthetic events, for the patterns people
// typically send. Each round is one request: the pattern compiled, then tested on every text.
//
//   node --import tsx src/query/regex/matcher.bench.ts [events]
import { RE2JS } from 're2js';
import { compileRegex, regexFlags } from './regex.ts';
import { UNCOUNTED } from '../work-tally.ts';
import { syntheticEvents } from '../events/test-synthetic-events.ts';
import { stringsOf } from '../events/table-fixture.ts';

const EVENTS = Number(process.argv[2] ?? 20_000);
const ROUNDS = 15;
const PATTERNS = [
  '^(seminar|workshop)', '\\d{4}', 'foo.*bar', '[a-z]+ung\\b', '(?i)^(seminar|workshop)', '(?i)vortrag|lesung', '(?i)[a-zäöü]+ung\\b',
  '(?i)fortbildung.*herz', '\\b(und|oder)\\b', '\\pL+\\s\\d+$',
];

const table = syntheticEvents(11).table(EVENTS);
const columns = { title: stringsOf(table.columns.text.title, table.length) as string[], teaser: stringsOf(table.columns.text.teaser, table.length) as string[] };
const cpuNs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) * 1000;
};

/** Median CPU ns per text of a round (compile + every text). */
function measure(round: () => number): number {
  const times: number[] = [];
  for (let r = 0; r < ROUNDS + 3; r++) {
    const t = cpuNs();
    round();
    if (r >= 3) times.push(cpuNs() - t);
  }
  times.sort((a, b) => a - b);
  return times[times.length >> 1];
}

console.log(`${EVENTS} events; CPU ns per text (median of ${ROUNDS} rounds, each compiling once)\n`);
console.log(`${'pattern'.padEnd(26)} ${'column'.padEnd(7)} ${'RE2JS.test'.padStart(10)} ${'matcher'.padStart(9)} ${'ratio'.padStart(6)} ${'matches'.padStart(8)}`);
for (const pattern of PATTERNS) {
  for (const [name, texts] of Object.entries(columns)) {
    let expected = 0;
    let got = 0;
    const before = measure(() => {
      const re = RE2JS.compile(pattern, regexFlags(false));
      expected = 0;
      for (const t of texts) if (re.test(t)) expected++;
      return expected;
    });
    const after = measure(() => {
      const re = compileRegex(pattern, false, 'bench');
      got = 0;
      for (const t of texts) if (re.test(t, UNCOUNTED)) got++;
      return got;
    });
    if (got !== expected) throw new Error(`${pattern}: ${got} matches, RE2JS ${expected}`);
    const per = (ns: number) => (ns / texts.length).toFixed(0).padStart(9);
    console.log(`${pattern.padEnd(26)} ${name.padEnd(7)} ${per(before).padStart(10)} ${per(after)} ${(after / before).toFixed(2).padStart(6)} ${String(got).padStart(8)}`);
  }
}
