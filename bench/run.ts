// `npm run bench`: generate content, build it, serve it, load it, write bench/results.md.
//   npm run bench                                   full run (100k events, 200k directory objects)
//   npm run bench -- --events 2000 --directory 4000 --duration 2 --skip-workers    smoke run
//   npm run bench -- --soak [SECONDS]               soak (issue 7) instead of the matrix, appended
//   npm run bench -- --only-build                   the build figures of issue 16 alone (no serving, no load)
//   npm run bench -- --only-start-up [--dist DIR]   start → full speed alone (issue 34), aula serve and workerd
// Every option also reads an environment variable (BENCH_EVENTS, BENCH_DURATION, …), see --help.
import { Command, InvalidArgumentError, Option } from 'commander';
import { appendFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { spawnSync } from 'node:child_process';
import { chooseGenerator, type GeneratorName, type LoadGenerator } from './generator.ts';
import { probe, type LoadResult } from './load.ts';
import {
  aulaEnv, cleanupNow, freePort, httpGet, installCleanup, registerTempDir, SERVER_QUIET_MS, settled, startServerProcess, stopTracked, treeRss,
  type Tracked,
} from './processes.ts';
import { buildQuerySet, type QueryKind } from './queries.ts';
import { MARGIN_NS } from '../src/pipeline/state/stat-fields.ts';
import { runBuilds } from './build-runs.ts';
import { devEdit, type DevRun } from './dev-edit.ts';
import {
  buildOnlyMarkdown, missed, resultsMarkdown, soakMarkdown, targetOf,
  type BenchReport, type InProcessAutocomplete, type KindRun, type Mode, type Pass, type ProcessMemory,
} from './report.ts';
import { profileMisses, type MissProfiles } from './miss-profiles.ts';
import { runSoak } from './soak.ts';
import { wholeSeconds } from './wrk.ts';
import { loadContent } from '../src/content/index.ts';
import { benchAutocomplete } from './autocomplete-inprocess.ts';
import { generateContent } from '../src/gen/content-generator.ts';
import { measureWorst, worstMarkdown } from './worst-requests.ts';
import { measureEdgeFirst, measureStartUp, startUpMarkdown } from './start-up.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const AULA = join(ROOT, 'bin/aula.cjs');
const HOST = '127.0.0.1';
const EVENTS_PATH = '/v1/cms/event/';

function positiveNumber(value: string): number {
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0) throw new InvalidArgumentError('expected a positive number');
  return n;
}
function count(value: string): number {
  const n = Number(value);
  if (!Number.isSafeInteger(n) || n < 0) throw new InvalidArgumentError('expected a non-negative integer');
  return n;
}

const program = new Command()
  .name('bench')
  .description('Benchmark aula build + serve against a bare node:http baseline; writes bench/results.md.')
  .addOption(new Option('--events <n>', 'events to generate').argParser(count).env('BENCH_EVENTS').default(100_000))
  .addOption(new Option('--directory <n>', 'directory objects to generate').argParser(count).env('BENCH_DIRECTORY').default(200_000))
  .addOption(new Option('--seed <n>', 'seed of the generator and of the query values').argParser(count).env('BENCH_SEED').default(1))
  .addOption(new Option('--duration <s>', 'seconds per measured load run').argParser(positiveNumber).env('BENCH_DURATION').default(3))
  .addOption(new Option('--warmup <s>', 'seconds of discarded load before each run (default: 1, or duration/2 when shorter)').argParser(positiveNumber).env('BENCH_WARMUP'))
  .addOption(new Option('--workers-duration <s>', 'seconds per run of the 2-worker pass (default: 2/3 of --duration)').argParser(positiveNumber).env('BENCH_WORKERS_DURATION'))
  .addOption(new Option('--connections <n>', 'concurrent connections').argParser(count).env('BENCH_CONNECTIONS').default(50))
  .addOption(new Option('--pool <n>', 'distinct URLs per query kind').argParser(count).env('BENCH_POOL').default(100_000))
  .addOption(new Option('--generator <name>', 'load generator; wrk is installed from Debian when missing, autocannon (capped near 5,000 req/s on 2 cores) is the fallback')
    .choices(['wrk', 'autocannon']).env('BENCH_GENERATOR').default('wrk'))
  .addOption(new Option('--threads <n>', 'wrk threads (-t)').argParser(count).env('BENCH_THREADS').default(2))
  .addOption(new Option('--count-statuses', 'wrk: count every status code with a Lua response() callback (costs wrk throughput; 4xx/5xx are counted either way)').env('BENCH_COUNT_STATUSES'))
  .addOption(new Option('--skip-workers', 'skip the `serve --workers 2` pass').env('BENCH_SKIP_WORKERS'))
  .addOption(new Option('--soak [seconds]', 'run the soak instead of the matrix (default 300 s) and append it to the results').argParser(positiveNumber).env('BENCH_SOAK').preset(300))
  .addOption(new Option('--results <file>', 'markdown file to write (the soak appends)').env('BENCH_RESULTS').default(join(ROOT, 'bench/results.md')))
  .addOption(new Option('--only-build', 'measure the builds and `aula dev` only (issue 16), no serving or load; writes --results only when it is given').env('BENCH_ONLY_BUILD'))
  .addOption(new Option('--skip-profiles', 'skip the CPU profiles of the rows that missed their target').env('BENCH_SKIP_PROFILES'))
  .addOption(new Option('--skip-dev', 'skip the `aula dev` edit-to-served measurement').env('BENCH_SKIP_DEV'))
  .addOption(new Option('--access-log', 'run aula serve with its access log on (the default of `aula serve`; off in the matrix)').env('BENCH_ACCESS_LOG'))
  .addOption(new Option('--keep', 'keep the temporary content and dist folders').env('BENCH_KEEP'))
  .addOption(new Option('--only-worst', 'measure only the worst requests of each kind (issue 31) against one aula serve; writes --results only when it is given').env('BENCH_ONLY_WORST'))
  .addOption(new Option('--skip-start-up', 'skip the start → full speed measurement (and the --edge build it needs)').env('BENCH_SKIP_START_UP'))
  .addOption(new Option('--only-start-up', 'measure only start → full speed (issue 34): aula serve, and workerd over the dist\'s edge/; writes --results only when it is given').env('BENCH_ONLY_START_UP'))
  .addOption(new Option('--dist <dir>', 'with --only-worst or --only-start-up: a dist built already (no generating or building)').env('BENCH_DIST'))
  .showHelpAfterError();

interface Options {
  events: number;
  directory: number;
  seed: number;
  duration: number;
  warmup?: number;
  workersDuration?: number;
  connections: number;
  pool: number;
  generator: GeneratorName;
  threads: number;
  countStatuses?: boolean;
  skipWorkers?: boolean;
  soak?: number;
  results: string;
  keep?: boolean;
  accessLog?: boolean;
  onlyBuild?: boolean;
  skipDev?: boolean;
  skipProfiles?: boolean;
  onlyWorst?: boolean;
  skipStartUp?: boolean;
  onlyStartUp?: boolean;
  dist?: string;
}

const opts = program.parse().opts<Options>();
const log = (line: string) => console.log(`[bench ${new Date().toISOString().slice(11, 19)}] ${line}`);
installCleanup(() => opts.keep === true);

/** Bytes and files below a folder. */
function treeSize(dir: string): { bytes: number; files: number } {
  let bytes = 0;
  let files = 0;
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    bytes += statSync(join(entry.parentPath, entry.name)).size;
    files++;
  }
  return { bytes, files };
}

async function generate(contentDir: string): Promise<BenchReport['generate']> {
  // In-process: the generator is part of the repo, and a child process would only add start-up.
  const t0 = performance.now();
  const { files, bytes } = await generateContent({ events: opts.events, directory: opts.directory, seed: opts.seed, outDir: contentDir });
  return { files, bytes, ms: performance.now() - t0 };
}

/**
 * `aula serve` on a free port. `memoryDir`: every process of it writes its memoryUsage() there
 * (bench/memory-preload.mjs); `nodeArgs` go to node before the script (--cpu-prof).
 */
async function startAula(distDir: string, workers: number, options: { memoryDir?: string; nodeArgs?: string[] } = {}) {
  const port = await freePort(HOST);
  // --quiet: the access log (one stdout line per request, on by default) is an operator's choice;
  // the matrix measures answering. Its cost is in bench/results.md, measured with it on.
  const args = [...(options.nodeArgs ?? []), AULA, 'serve', '--dist', distDir, '--port', String(port), '--host', HOST];
  if (options.memoryDir) {
    mkdirSync(options.memoryDir, { recursive: true });
    args.unshift('--import', pathToFileURL(join(ROOT, 'bench/memory-preload.mjs')).href);
  }
  if (!opts.accessLog) args.push('--quiet');
  if (workers > 1) args.push('--workers', String(workers));
  const env = aulaEnv(options.memoryDir ? { ...process.env, AULA_BENCH_MEMORY: options.memoryDir } : process.env);
  const started = await startServerProcess(process.execPath, args, `http://${HOST}:${port}${EVENTS_PATH}`, { cwd: ROOT, env });
  return { ...started, baseUrl: `http://${HOST}:${port}` };
}

/** What each process of a pass last wrote of its memory (bench/memory-preload.mjs). */
function processMemory(dir: string): ProcessMemory[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .flatMap((f) => {
      try {
        return [JSON.parse(readFileSync(join(dir, f), 'utf8')) as ProcessMemory];
      } catch {
        return [];
      }
    })
    .sort((a, b) => a.rss - b.rss);
}

let generator: LoadGenerator;

async function measure(baseUrl: string, paths: readonly string[], durationS: number, warmupS: number): Promise<LoadResult> {
  return generator.run({ baseUrl, paths, durationS, warmupS });
}

function describe(l: LoadResult): string {
  const bad = l.errors + l.failures;
  return `${l.rps.toFixed(0).padStart(6)} req/s  p50 ${l.p50.toFixed(1).padStart(5)} ms  p99 ${l.p99.toFixed(1).padStart(6)} ms` +
    (l.max !== undefined ? `  max ${l.max.toFixed(0)} ms` : '') +
    (l.tcpRetransmits !== undefined ? `  ${l.tcpRetransmits} TCP segments sent again` : '') +
    (bad > 0 ? `  ${l.errors} errors, ${l.failures} 4xx/5xx` : '');
}

/**
 * Each kind's two runs, with the bare server sampled before the first kind and after every kind:
 * a kind's runs are judged against the mean of the samples on either side of them, since on a
 * shared machine the bare server's rate drifts by a third within a run, more than most rows'
 * distance to their target.
 */
async function runMatrix(baseUrl: string, kinds: readonly QueryKind[], durationS: number, warmupS: number, sampleBaseline: (label: string) => Promise<number>): Promise<KindRun[]> {
  const runs: KindRun[] = [];
  let before = kinds.length > 0 ? await sampleBaseline(`before ${kinds[0].key}`) : 0;
  for (const kind of kinds) {
    const ofKind: KindRun[] = [];
    for (const mode of ['repeated', 'distinct'] as Mode[]) {
      const paths = mode === 'repeated' ? [kind.repeated] : kind.distinct;
      const run: KindRun = { kind, mode, unique: new Set(paths).size };
      // Probe from the end of the pool: the load starts at its beginning, so probed values
      // are not pre-warmed for the measured run.
      run.probe = await probe(baseUrl, mode === 'repeated' ? paths : paths.slice(-20), 20);
      try {
        run.load = await measure(baseUrl, paths, durationS, warmupS);
      } catch (e) {
        run.error = e instanceof Error ? e.message : String(e);
        log(`${kind.key} ${mode}: ${run.error}`);
      }
      if (run.probe.firstFailure) {
        const f = run.probe.firstFailure;
        log(`  ! ${f.status} for ${f.path}: ${f.body.slice(0, 160)}`);
      }
      ofKind.push(run);
    }
    const after = await sampleBaseline(`after ${kind.key}`);
    for (const run of ofKind) {
      run.baselineRps = (before + after) / 2;
      if (run.load) log(`${kind.key.padEnd(11)} ${run.mode.padEnd(8)} ${describe(run.load)}  ×${(run.load.rps / run.baselineRps).toFixed(2)} (≥ ${targetOf(run)})`);
    }
    runs.push(...ofKind);
    before = after;
  }
  return runs;
}

async function inProcessAutocomplete(contentDir: string, queries: string[]): Promise<InProcessAutocomplete> {
  if (queries.length === 0) return { available: false, reason: 'no directory names to query' };
  try {
    const { model, problems } = await loadContent(contentDir);
    if (!model) return { available: false, reason: `loadContent found ${problems.length} problems` };
    const r = await benchAutocomplete(model.directory, queries);
    return { available: true, queries: queries.length, objects: model.directory.length, ...r };
  } catch (e) {
    return { available: false, reason: `failed: ${e instanceof Error ? e.message.split('\n')[0] : String(e)}` };
  }
}

const loadStart = loadavg()[0];

/** `aula build --no-cache --quiet` of `content` into `out`, with `args`; throws if it fails. */
function buildQuietly(content: string, out: string, args: string[] = []): void {
  const built = spawnSync(process.execPath, [AULA, 'build', '--content', content, '--out', out, '--no-cache', '--quiet', ...args], { stdio: 'inherit', env: aulaEnv() });
  if (built.status !== 0) throw new Error('aula build failed');
}

/** --dist, or a dist of freshly generated content built with `args`. */
async function givenOrBuiltDist(args: string[] = []): Promise<string> {
  if (opts.dist) return resolve(opts.dist);
  const work = mkdtempSync(join(tmpdir(), 'aula-bench-'));
  registerTempDir(work);
  log(`generating ${opts.events} events, ${opts.directory} directory objects (seed ${opts.seed})`);
  await generate(join(work, 'content'));
  buildQuietly(join(work, 'content'), join(work, 'dist'), args);
  return join(work, 'dist');
}

/** Writes a section measured alone to --results when it was given (bench/results.md holds the full run). */
function writeAlone(markdown: string): void {
  console.log(`\n${markdown}`);
  if (program.getOptionValueSource('results') !== 'default') {
    writeFileSync(resolve(opts.results), markdown);
    log(`wrote ${resolve(opts.results)}`);
  }
}

/** Start → full speed (bench/start-up.ts): aula serve over `distDir`, workerd over `edgeDist` (a dist built with --edge). */
async function startUp(distDir: string, edgeDist: string): Promise<string> {
  log('start → full speed: aula serve');
  const serve = await measureStartUp(distDir);
  log(`background CPU after the first answer ${serve.backgroundCpuMs.toFixed(0)} ms; workerd`);
  const edge = await measureEdgeFirst(edgeDist);
  const load = loadavg();
  return `${startUpMarkdown(serve, edge)}\nLoad average (1, 5, 15 min) at the end: ${load.map((l) => l.toFixed(2)).join(', ')}; ${opts.events.toLocaleString('en-US')} events / ${opts.directory.toLocaleString('en-US')} directory objects unless --dist was given.\n`;
}

/** `--only-start-up`: one dist built with --edge (given, or generated and built once), start → full speed. */
async function onlyStartUp(): Promise<void> {
  const distDir = await givenOrBuiltDist(['--edge']);
  writeAlone(await startUp(distDir, distDir));
}

/** `--only-worst`: one dist (given, or generated and built once), one aula serve, the worst requests. */
async function onlyWorst(): Promise<void> {
  const distDir = await givenOrBuiltDist();
  generator = chooseGenerator(opts.generator, { threads: opts.threads, connections: opts.connections, timeoutS: 10, countStatuses: opts.countStatuses === true }, log);
  const one = await startAula(distDir, 1);
  if (!one.ok) throw new Error(`aula serve did not start: ${one.message}`);
  try {
    if (!(await settled(one.server.child.pid!, SERVER_QUIET_MS))) log('aula serve: still busy after 60 s; measuring anyway');
    const durationS = generator.name === 'wrk' ? wholeSeconds(opts.duration) : opts.duration;
    const result = await measureWorst({ origin: one.baseUrl, pid: one.server.child.pid!, dist: distDir, generator, durationS, log });
    writeAlone(worstMarkdown(result, generator.settings));
  } finally {
    await stopTracked(one.server);
  }
}

async function main(): Promise<void> {
  if (opts.onlyWorst) return onlyWorst();
  if (opts.onlyStartUp) return onlyStartUp();
  const started = new Date();
  const work = mkdtempSync(join(tmpdir(), 'aula-bench-'));
  registerTempDir(work);
  const contentDir = join(work, 'content');
  const distDir = join(work, 'dist');
  log(`working in ${work}${opts.keep ? ' (kept)' : ''}`);

  log(`generating ${opts.events} events, ${opts.directory} directory objects (seed ${opts.seed})`);
  const generated = await generate(contentDir);
  // Flush the generator's 150 MB of writes first: the build's time should not include the
  // kernel writing back someone else's dirty pages.
  spawnSync('sync');
  // The build's recorded stats treat a file changed within MARGIN_NS (2 s) of when it was recorded as
  // racy, and the next build reads and hashes it again (as git does). Built at once, the last ~2 s
  // of the generator's output (~16,000 files) were racy, and the first warm build after the cold
  // one read them all: 0.3–0.4 s of its "find changes" (reproduced by touching 16,000 files).
  // A site's files are not written two seconds before its build, so the builds wait that out.
  await new Promise((resolve) => setTimeout(resolve, Number(MARGIN_NS / 1_000_000n) + 500));
  log(`generated ${generated.files} files, ${(generated.bytes / 1024 ** 2).toFixed(1)} MiB in ${(generated.ms / 1000).toFixed(1)} s`);

  // Child processes, timed from spawn to exit: what `aula build` costs someone running it.
  const builds = await runBuilds({ aula: AULA, root: ROOT, contentDir, distDir, work, log });
  const dist = treeSize(distDir);
  log(`dist ${(dist.bytes / 1024 ** 2).toFixed(1)} MiB in ${dist.files} files`);
  // before any server starts, so the load passes are not disturbed by it
  let dev: DevRun | undefined;
  if (!opts.skipDev) {
    dev = await devEdit({ aula: AULA, root: ROOT, contentDir, file: builds.files.changed, work, log });
    if (!dev.available) log(`aula dev: ${dev.reason}`);
  }

  if (opts.onlyBuild) {
    const markdown = buildOnlyMarkdown({
      started,
      finished: new Date(),
      loadavg: { start: loadStart, end: loadavg()[0] },
      settings: { events: opts.events, directory: opts.directory, seed: opts.seed },
      generate: generated,
      build: builds,
      dist,
      dev,
    });
    console.log(`\n${markdown}`);
    // bench/results.md holds the full run; a builds-only run writes only where it is told to
    if (program.getOptionValueSource('results') !== 'default') {
      writeFileSync(resolve(opts.results), markdown);
      log(`wrote ${resolve(opts.results)}`);
    }
    return;
  }

  // Start → full speed, before the load passes: each server it starts is fresh. The workerd side
  // needs the edge bundle, built into a folder of its own (not timed) and removed after.
  let startUpSection = '';
  if (!opts.skipStartUp) {
    const edgeDist = join(work, 'dist-edge');
    buildQuietly(contentDir, edgeDist, ['--edge']);
    startUpSection = await startUp(distDir, edgeDist);
    rmSync(edgeDist, { recursive: true, force: true });
  }

  // The builds leave gigabytes of written pages for the kernel to flush; flushed now, so their
  // writeback cannot overlap the baseline and the load passes. (A first baseline sample a third
  // below the later ones was suspected of this; the flush then took 0.0 s, so that was not it.)
  const flushed = performance.now();
  spawnSync('sync');
  log(`dirty pages flushed in ${((performance.now() - flushed) / 1000).toFixed(1)} s`);

  const queries = buildQuerySet({ distDir, contentDir, seed: opts.seed, poolSize: opts.pool });
  log(`query pools: ${queries.kinds.map((k) => `${k.key} ${k.distinct.length}`).join(', ')}`);

  generator = chooseGenerator(opts.generator, { threads: opts.threads, connections: opts.connections, timeoutS: 10, countStatuses: opts.countStatuses === true }, log);
  log(`load generator: ${generator.name} ${generator.version} (${generator.settings})`);

  if (opts.soak !== undefined) return soak(started, queries.kinds, distDir);

  // wrk counts its duration in whole seconds; the report states what was run
  const asRun = (s: number) => (generator.name === 'wrk' ? wholeSeconds(s) : s);
  const durationS = asRun(opts.duration);
  const warmupS = asRun(opts.warmup ?? Math.min(1, durationS / 2));
  const workersDurationS = asRun(opts.workersDuration ?? Math.max(0.5, Math.round((durationS * 2) / 3 * 10) / 10));
  const workersWarmupS = asRun(Math.min(0.5, warmupS));

  const passes: Pass[] = [];
  let worst: Awaited<ReturnType<typeof measureWorst>> | undefined;
  const baselineRuns: BenchReport['baseline']['runs'] = [];
  let ceiling: BenchReport['baseline']['ceiling'];
  let baselineRps = 0;
  let bodyBytes = 0;

  // The baseline answers the bytes of the default first page; the static page in dist/ is
  // byte-identical to the server's answer (README), so it needs no running aula.
  let bodyFile = join(distDir, 'v1/cms/event/index.json');
  const one = await startAula(distDir, 1, { memoryDir: join(work, 'memory-1') });
  if (!one.ok) throw new Error(`aula serve did not start: ${one.message}`);
  log(`aula serve: cold start ${one.coldStartMs.toFixed(0)} ms`);
  if (!existsSync(bodyFile)) {
    bodyFile = join(work, 'first-page.json');
    writeFileSync(bodyFile, (await httpGet(one.baseUrl + EVENTS_PATH)).body);
  }
  bodyBytes = statSync(bodyFile).size;
  // Nothing is measured while aula serve is busy (processes.ts `settled`): the ceiling and the
  // baseline share its two cores.
  if (!(await settled(one.server.child.pid!, SERVER_QUIET_MS))) log('aula serve: still busy after 60 s; measuring anyway');

  let baseline: Tracked | undefined;
  try {
    const base = await startBaseline(bodyFile);
    baseline = base.server;
    const baseUrl = base.baseUrl;
    // Measured around every pass and averaged: on a shared 2-core machine one sample can be off
    // by half, and each ratio would inherit that.
    const measureBaseline = async (label: string, pass: string) => {
      const load = await measure(baseUrl, [EVENTS_PATH], durationS, warmupS);
      baselineRuns.push({ label, pass, load });
      baselineRps = baselineRuns.reduce((sum, r) => sum + r.load.rps, 0) / baselineRuns.length;
      log(`baseline    ${describe(load)}  (${pass}, ${label})`);
      return load.rps;
    };

    // --- the generator's own ceiling: the bare server with next to nothing to send. If aula's
    // rows came near this, the generator would be what they measure.
    const tinyFile = join(work, 'tiny-body.json');
    writeFileSync(tinyFile, '{}');
    const tiny = await startBaseline(tinyFile);
    try {
      ceiling = { bodyBytes: 2, load: await measure(tiny.baseUrl, [EVENTS_PATH], durationS, warmupS) };
      log(`ceiling     ${describe(ceiling.load)}  (bare server, 2-byte body)`);
    } finally {
      await stopTracked(tiny.server);
    }

    // --- 1 process
    try {
      const runs = await runMatrix(one.baseUrl, queries.kinds, durationS, warmupS, (label) => measureBaseline(label, '1 process'));
      const rss = treeRss(one.server.child.pid!);
      log(`aula serve RSS after load: ${(rss.bytes / 1024 ** 2).toFixed(0)} MiB`);
      worst = await measureWorst({ origin: one.baseUrl, pid: one.server.child.pid!, dist: distDir, generator, durationS, log });
      const memory = processMemory(join(work, 'memory-1'));
      passes.push({ title: 'Load: aula serve, 1 process', workers: 1, available: true, coldStartMs: one.coldStartMs, rss, memory, durationS, warmupS, runs });
    } finally {
      await stopTracked(one.server);
    }

    // --- 2 workers (node:cluster)
    const workersTitle = 'Load: aula serve --workers 2';
    const unavailable = (note: string) =>
      passes.push({ title: workersTitle, workers: 2, available: false, note, durationS: workersDurationS, warmupS: workersWarmupS, runs: [] });
    if (opts.skipWorkers) {
      unavailable('skipped (--skip-workers)');
    } else {
      const two = await startAula(distDir, 2, { memoryDir: join(work, 'memory-2') });
      if (!two.ok) {
        log(`workers: not available (${two.message.split('\n')[0]})`);
        unavailable(two.message.split('\n')[0]);
      } else {
        try {
          log(`aula serve --workers 2: cold start ${two.coldStartMs.toFixed(0)} ms`);
          if (!(await settled(two.server.child.pid!, SERVER_QUIET_MS))) log('aula serve --workers 2: still busy after 60 s; measuring anyway');
          const runs = await runMatrix(two.baseUrl, queries.kinds, workersDurationS, workersWarmupS, (label) => measureBaseline(label, 'workers 2'));
          const rss = treeRss(two.server.child.pid!);
          log(`aula serve --workers 2 RSS after load: ${(rss.bytes / 1024 ** 2).toFixed(0)} MiB in ${rss.processes} processes`);
          const note = rss.processes < 3 ? `only ${rss.processes} server process(es) found: the flag may be accepted but not start workers` : undefined;
          const memory = processMemory(join(work, 'memory-2'));
          passes.push({ title: workersTitle, workers: 2, available: true, coldStartMs: two.coldStartMs, rss, memory, durationS: workersDurationS, warmupS: workersWarmupS, runs, note });
        } finally {
          await stopTracked(two.server);
        }
      }
    }
  } finally {
    await stopTracked(one.server);
    if (baseline) await stopTracked(baseline);
  }

  // --- a profile of every row of the 1-process pass that missed its target, against the bare server's
  let missProfiles: MissProfiles = { available: false, reason: 'skipped (--skip-profiles)' };
  if (!opts.skipProfiles) {
    const onePass = passes.find((p) => p.workers === 1 && p.available);
    const misses = (onePass?.runs ?? []).filter((run) => run.load && missed(run, baselineRps));
    missProfiles = await profileMisses({
      misses,
      startAula: (nodeArgs) => startAula(distDir, 1, { nodeArgs }),
      startBare: async (nodeArgs) => {
        return { ok: true as const, ...(await startBaseline(bodyFile, nodeArgs)) };
      },
      barePath: EVENTS_PATH,
      generator,
      durationS,
      work,
      root: ROOT,
      quietMs: SERVER_QUIET_MS,
      log,
    });
  }

  // --- in-process autocomplete, after the servers are gone so it has a core to itself
  log('in-process autocomplete');
  const autocomplete = await inProcessAutocomplete(contentDir, queries.autocompleteQueries);
  log(autocomplete.available ? `autocomplete p50 ${autocomplete.p50Ms.toFixed(3)} ms, p99 ${autocomplete.p99Ms.toFixed(3)} ms` : `autocomplete: not available (${autocomplete.reason})`);
  // the bundled sample's directory, with the same names (the generator draws both from one list)
  const sampleAutocomplete = await inProcessAutocomplete(join(ROOT, 'content'), queries.autocompleteQueries);

  const report: BenchReport = {
    started,
    finished: new Date(),
    loadavg: { start: loadStart, end: loadavg()[0] },
    settings: { events: opts.events, directory: opts.directory, seed: opts.seed, connections: opts.connections, poolSize: opts.pool },
    generate: generated,
    build: builds,
    dev,
    dist,
    generator,
    baseline: { runs: baselineRuns, bodyBytes, rps: baselineRps, ceiling },
    passes,
    autocomplete,
    sampleAutocomplete,
    missProfiles,
  };
  const markdown = resultsMarkdown(report) + (startUpSection ? `\n${startUpSection}` : '') + (worst ? `\n${worstMarkdown(worst, generator.settings)}` : '');
  writeFileSync(resolve(opts.results), markdown + keptSections(resolve(opts.results)));
  console.log(`\n${markdown}`);
  log(`wrote ${resolve(opts.results)}`);
}

/** The bare node:http server (bench/baseline-server.ts) answering `bodyFile` to every request; `nodeArgs` go to node (--cpu-prof). */
async function startBaseline(bodyFile: string, nodeArgs: string[] = []): Promise<{ server: Tracked; baseUrl: string }> {
  const port = await freePort(HOST);
  const started = await startServerProcess(
    process.execPath,
    [...nodeArgs, '--import', 'tsx', join(ROOT, 'bench/baseline-server.ts'), '--body', bodyFile, '--port', String(port), '--host', HOST],
    `http://${HOST}:${port}/`,
    { cwd: ROOT },
  );
  if (!started.ok) throw new Error(`baseline server did not start: ${started.message}`);
  return { server: started.server, baseUrl: `http://${HOST}:${port}` };
}

/**
 * The sections a new matrix run keeps from the previous results file: earlier figures kept for
 * comparison, the written analysis, the soak and the MiniSearch comparison, which the matrix does not measure (update the
 * analysis when figures move).
 */
function keptSections(file: string): string {
  if (!existsSync(file)) return '';
  const sections = readFileSync(file, 'utf8').split(/^(?=## )/m);
  const kept = sections.filter((s) => /^## (Earlier|Analysis|Soak|MiniSearch)/.test(s));
  return kept.length ? `\n${kept.join('').trimEnd()}\n` : '';
}

async function soak(started: Date, kinds: readonly QueryKind[], distDir: string): Promise<void> {
  const seconds = opts.soak!;
  const server = await startAula(distDir, 1);
  if (!server.ok) throw new Error(`aula serve did not start: ${server.message}`);
  try {
    const r = await runSoak({ baseUrl: server.baseUrl, generator, serverPid: server.server.child.pid!, kinds, seconds, connections: opts.connections, log });
    const markdown = soakMarkdown({
      started,
      generator,
      settings: { events: opts.events, directory: opts.directory, seed: opts.seed, connections: opts.connections },
      seconds,
      coldStartMs: server.coldStartMs,
      loadavg: { start: loadStart, end: loadavg()[0] },
      ...r,
    });
    appendFileSync(resolve(opts.results), existsSync(resolve(opts.results)) ? markdown : `# aula benchmark results\n${markdown}`);
    console.log(markdown);
    log(`appended to ${resolve(opts.results)}`);
  } finally {
    await stopTracked(server.server);
  }
}

try {
  await main();
} catch (e) {
  console.error(e instanceof Error ? e.message : e);
  process.exitCode = 1;
} finally {
  cleanupNow(opts.keep === true);
}
