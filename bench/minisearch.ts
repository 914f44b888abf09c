// The MiniSearch index (dist/autocomplete/minisearch.json) side by side with the own index:
// file size, load time and in-process query latency, both over the same generated directory
// and the same type-ahead queries. Writes (or replaces) its section of bench/results.md.
//   npm run bench:minisearch                                   200,000 objects (a few minutes)
//   npm run bench:minisearch -- --directory 5000 --queries 150 --no-write    smoke run
// (= node --expose-gc --import tsx bench/minisearch.ts: collecting garbage around each load is
// what lets it report the memory an index holds)
import { Command, InvalidArgumentError } from 'commander';
import MiniSearch, { type SearchOptions } from 'minisearch';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { createAutocomplete } from '../src/query/autocomplete/searcher.ts';
import { AUTOCOMPLETE_INDEX_FILE } from '../src/store/format/dist-paths.ts';
import { buildAutocompleteFiles } from '../src/store/write/autocomplete-files.ts';
import { buildMiniSearchFiles, MINISEARCH_INDEX_FILE } from '../src/store/write/minisearch/build.ts';
import { miniSearchDocuments } from '../src/store/write/minisearch/documents.ts';
import { miniSearchOptions } from '../src/store/write/minisearch/options.ts';
import { rawWords, wordForms } from '../src/store/format/words.ts';
import { loadContent } from '../src/content/index.ts';
import { generateContent } from '../src/gen/content-generator.ts';
import type { DirectoryObject } from '../src/model/types.ts';
import { mulberry32 as seededRandom } from '../src/util/mulberry32.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const HEADING = '## MiniSearch index vs the own index (issue 14)';
const PAGE = 20;

function count(value: string): number {
  const n = Number(value);
  if (!Number.isSafeInteger(n) || n < 1) throw new InvalidArgumentError('expected a positive integer');
  return n;
}

const opts = new Command()
  .name('bench-minisearch')
  .option('--directory <n>', 'directory objects to generate', count, 200_000)
  .option('--seed <n>', 'seed of the generator and of the queries', count, 1)
  .option('--queries <n>', 'type-ahead queries (1, 2 and 3 words, a third each)', count, 600)
  .option('--results <file>', 'markdown file whose section to write', join(ROOT, 'bench/results.md'))
  .option('--no-write', 'print the section only')
  .parse()
  .opts<{ directory: number; seed: number; queries: number; results: string; write: boolean }>();

const log = (line: string) => console.error(`[bench-minisearch] ${line}`);
const ms = (t0: number) => performance.now() - t0;
const bytes = (s: string) => Buffer.byteLength(s);
const gc = () => (globalThis as { gc?: () => void }).gc?.();

/** What a person types: 1–3 consecutive words of an object, the last one usually unfinished. */
function typeAheadQueries(objects: readonly DirectoryObject[], n: number, seed: number): string[] {
  const rng = seededRandom(seed);
  const int = (lo: number, hi: number) => lo + Math.floor(rng() * (hi - lo + 1));
  const out: string[] = [];
  for (let i = 0; out.length < n && i < n * 20; i++) {
    const words = rawWords(objects[int(0, objects.length - 1)].presentation);
    const k = 1 + (out.length % 3);
    if (words.length < k) continue;
    const start = int(0, words.length - k);
    const window = words.slice(start, start + k);
    const last = window[k - 1];
    window[k - 1] = last.slice(0, int(Math.min(2, last.length), last.length));
    out.push(rng() < 0.5 ? window.join(' ').toLowerCase() : window.join(' '));
  }
  return out;
}

interface Latency {
  /** over every timed call */
  p50: number;
  p99: number;
  /** over each query's fastest call: what the query costs when no other process takes the core */
  bestP50: number;
  bestP99: number;
}

/** Latency in ms of run(q) over the queries, `rounds` times each, after a warm-up round. */
function latency(queries: readonly string[], rounds: number, run: (q: string) => unknown): Latency {
  for (const q of queries) run(q);
  const samples: number[] = [];
  const best = new Array<number>(queries.length).fill(Infinity);
  for (let r = 0; r < rounds; r++) {
    queries.forEach((q, i) => {
      const t0 = performance.now();
      run(q);
      const took = performance.now() - t0;
      samples.push(took);
      if (took < best[i]) best[i] = took;
    });
  }
  const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)];
  samples.sort((a, b) => a - b);
  best.sort((a, b) => a - b);
  return { p50: pct(samples, 0.5), p99: pct(samples, 0.99), bestP50: pct(best, 0.5), bestP99: pct(best, 0.99) };
}

/** make()'s time, and its heap growth in MiB where --expose-gc lets garbage be collected around it. */
function timedLoad<T>(make: () => T): { value: T; ms: number; mib: number | null } {
  // the own index lives mostly in typed arrays, whose memory is outside the JS heap
  const used = () => {
    const m = process.memoryUsage();
    return m.heapUsed + m.arrayBuffers;
  };
  gc();
  const before = used();
  const t0 = performance.now();
  const value = make();
  const took = ms(t0);
  gc();
  const canMeasure = (globalThis as { gc?: unknown }).gc !== undefined;
  return { value, ms: took, mib: canMeasure ? (used() - before) / 1024 ** 2 : null };
}

const started = new Date();
const load0 = loadavg()[0];
const work = mkdtempSync(join(tmpdir(), 'aula-bench-minisearch-'));
try {
  log(`generating ${opts.directory} directory objects (seed ${opts.seed})`);
  await generateContent({ events: 0, directory: opts.directory, seed: opts.seed, outDir: work });
  const { model, problems } = await loadContent(work);
  if (!model) throw new Error(`the generated content has ${problems.length} problems`);
  const objects = model.directory;
  const queries = typeAheadQueries(objects, opts.queries, opts.seed);
  log(`${objects.length} objects, ${queries.length} queries`);

  let t0 = performance.now();
  const own = await buildAutocompleteFiles(objects);
  const ownBuildMs = ms(t0);
  const ownText = own[AUTOCOMPLETE_INDEX_FILE];
  t0 = performance.now();
  const mini = await buildMiniSearchFiles(objects);
  const miniBuildMs = ms(t0);
  const miniText = mini[MINISEARCH_INDEX_FILE].toString();
  log(`built: own ${ownBuildMs.toFixed(0)} ms, MiniSearch ${miniBuildMs.toFixed(0)} ms`);

  // what the umlaut vocabulary (see options.ts) costs: the same index with only the word forms
  const plain = new MiniSearch({ ...miniSearchOptions, processTerm: wordForms });
  plain.addAll(miniSearchDocuments(objects));
  const plainBytes = bytes(JSON.stringify(plain));

  const ownLoad = timedLoad(() => createAutocomplete(own[AUTOCOMPLETE_INDEX_FILE]));
  const miniLoad = timedLoad(() => MiniSearch.loadJSON(miniText, miniSearchOptions));
  log(`loaded: own ${ownLoad.ms.toFixed(0)} ms, MiniSearch ${miniLoad.ms.toFixed(0)} ms`);

  const ac = ownLoad.value;
  const miniSearch = miniLoad.value;
  const rows: [string, number, Latency][] = [];
  const measure = (label: string, rounds: number, run: (q: string) => unknown) => {
    const r = latency(queries, rounds, run);
    log(`${label}: p50 ${r.p50.toFixed(3)} ms, p99 ${r.p99.toFixed(3)} ms (best of ${rounds}: ${r.bestP50.toFixed(3)} / ${r.bestP99.toFixed(3)} ms)`);
    rows.push([label, rounds, r]);
  };
  measure('own index, as the endpoint (typo tolerance, first page of 20)', 5, (q) => ac.search(q, null).page(0, PAGE));
  measure('own index, `{ typos: false }`, first page of 20', 5, (q) => ac.search(q, null, { typos: false }).page(0, PAGE));
  const top = (o: SearchOptions) => (q: string) => miniSearch.search(q, o).slice(0, PAGE);
  measure("MiniSearch, `{ prefix: true, combineWith: 'AND' }` (same set as the line above), top 20", 3, top({ prefix: true, combineWith: 'AND' }));
  measure('MiniSearch, `{ prefix: true, fuzzy: 0.2 }` (the README snippet), top 20', 3, top({ prefix: true, fuzzy: 0.2 }));

  const fmt = (n: number, d = 0) => n.toLocaleString('en-US', { minimumFractionDigits: d, maximumFractionDigits: d });
  const mib = (b: number) => `${fmt(b / 1024 ** 2, 1)} MiB`;
  const heap = (m: number | null) => (m === null ? 'n/a (run with --expose-gc)' : `${fmt(m)} MiB`);
  const section = [
    HEADING,
    '',
    `Written by \`npm run bench:minisearch\` (bench/minisearch.ts) on ${started.toISOString()} (in-process, one core; 1-minute load average ` +
      `${fmt(load0, 2)} at the start, ${fmt(loadavg()[0], 2)} at the end); \`npm run bench\` rewrites this file, so run it after.`,
    `${fmt(objects.length)} generated directory objects (seed ${opts.seed}); ${fmt(queries.length)} type-ahead queries of 1–3 words ` +
      'drawn from them, the last word usually unfinished. Load = from the file\'s text in memory to a searchable index.',
    '',
    '| figure | own index (`index.json`) | MiniSearch (`minisearch.json`) |',
    '|---|---:|---:|',
    `| file size | ${mib(bytes(ownText))} | ${mib(bytes(miniText))} |`,
    `| gzip -6 | ${mib(gzipSync(ownText, { level: 6 }).length)} | ${mib(gzipSync(miniText, { level: 6 }).length)} |`,
    `| build (in \`aula build\`) | ${fmt(ownBuildMs)} ms | ${fmt(miniBuildMs)} ms |`,
    `| load (\`createAutocomplete\` / \`MiniSearch.loadJSON\`) | ${fmt(ownLoad.ms)} ms | ${fmt(miniLoad.ms)} ms |`,
    `| memory held after load (heap + array buffers) | ${heap(ownLoad.mib)} | ${heap(miniLoad.mib)} |`,
    '',
    '| query | rounds | p50 | p99 | p50, each query\'s best round | p99, each query\'s best round |',
    '|---|---:|---:|---:|---:|---:|',
    ...rows.map(([label, rounds, r]) => `| ${label} | ${rounds} | ${fmt(r.p50, 3)} ms | ${fmt(r.p99, 3)} ms | ${fmt(r.bestP50, 3)} ms | ${fmt(r.bestP99, 3)} ms |`),
    '',
    'The best-round columns take each query\'s fastest run, which drops the time other processes held the core ' +
      '(the machine is shared, see the load average above).',
    '',
    `The umlaut vocabulary that makes MiniSearch find what the own index finds (a query word with an umlaut matches either ` +
      `spelling) costs ${mib(bytes(miniText) - plainBytes)} of the file: ${mib(plainBytes)} without it.`,
    '',
  ].join('\n');
  console.log(section);
  if (opts.write) {
    const before = existsSync(opts.results) ? readFileSync(opts.results, 'utf8') : '';
    const at = before.indexOf(HEADING);
    // the section runs up to the next "## " heading (or the end of the file)
    const end = at < 0 ? -1 : before.indexOf('\n## ', at + HEADING.length);
    const next = at < 0 ? `${before.trimEnd()}\n\n${section}` : `${before.slice(0, at)}${section}${end < 0 ? '' : before.slice(end + 1)}`;
    writeFileSync(opts.results, next);
    log(`wrote its section of ${opts.results}`);
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
