// Turns the figures of a bench run into bench/results.md: every figure next to its target.
import { cpus, platform, release, totalmem } from 'node:os';
import type { BuildRun, BuildRuns } from './build-runs.ts';
import { PROBE_FILES, SLOW_CREATE_MICROS } from './file-creation.ts';
import type { DevRun } from './dev-edit.ts';
import type { GeneratorInfo } from './generator.ts';
import type { MeasuredRun } from './measured-run.ts';
import { askedBefore, type LoadResult, type ProbeResult } from './load.ts';
import type { Group, QueryKind } from './queries.ts';
import type { SoakResult } from './soak.ts';
import { PARTS } from './cpu-profile.ts';
import type { MissProfiles, ProfiledRow } from './miss-profiles.ts';

/**
 * The targets of the open issues, where one states a figure (33: the build, 34: serving, 36:
 * ordering and search), else of the closed issue that set it (13: serving, 16: the build), kept
 * so that a regression shows. Serving ratios are to the bare node:http baseline measured by the
 * same generator in the same run, next to the row (run.ts `runMatrix`).
 */
export const TARGETS = {
  repeated: 0.9,
  distinct: {
    // issue 34: pages ≥ 0.4, ranges and numeric/boolean filters ≥ 0.35, expand ≥ 0.35,
    // substring ≥ 0.25, regex ≥ 0.15, autocomplete (1–3 words) ≥ 0.4, detail ≥ 0.7
    pages: 0.4, filters: 0.35, expand: 0.35, substring: 0.25, regex: 0.15, autocomplete: 0.4, detail: 0.7,
    // issue 36
    ordering: 0.3, search: 0.2, 'search-combined': 0.15,
  } satisfies Record<Group, number>,
  /** every load run, at the bench's 50 connections (issue 34) */
  p99Ms: 25,
  /** issue 33: a cold `aula build` of 100k events / 200k directory objects, cache on and fresh */
  buildS: 20,
  /** issue 33: the same build with `--no-cache` */
  noCacheS: 16,
  /** issue 33: peak RSS of that build's process tree (1 GB, not GiB) */
  buildPeakRssBytes: 1e9,
  /** issue 33: one event's title changed, build cache warm, same --out */
  changeS: 2,
  /** issue 33: one event added, or one deleted */
  addedOrDeletedS: 4,
  /** issue 33: `aula dev`, an edit saved → served */
  devEditS: 1,
  coldStartS: 1,
  /** issue 34: one process, after the load */
  rssBytes: 450 * 1024 ** 2,
  /** total RSS of `--workers 2` ÷ RSS of one process, both after the load */
  workersRssRatio: 1.3,
  autocompleteP99Ms: 2,
  soakRssGrowth: 0.1,
} as const;

export type Mode = 'repeated' | 'distinct';

export interface KindRun {
  kind: QueryKind;
  mode: Mode;
  /** how many different URLs the run cycled through */
  unique: number;
  load?: LoadResult;
  probe?: ProbeResult;
  error?: string;
  /** the mean of the bare server's samples just before and after this kind's runs (run.ts `runMatrix`); absent in older reports */
  baselineRps?: number;
}

/** A server process's memory after the load, as it reported it (bench/memory-preload.mjs). */
export interface ProcessMemory {
  pid: number;
  rss: number;
  heapTotal: number;
  heapUsed: number;
  external: number;
  arrayBuffers: number;
}

export interface Pass {
  title: string;
  workers: number;
  available: boolean;
  note?: string;
  coldStartMs?: number;
  rss?: { bytes: number; processes: number; each: number[] };
  /** each process's own account of its memory, smallest RSS first (the cluster primary) */
  memory?: ProcessMemory[];
  durationS: number;
  warmupS: number;
  runs: KindRun[];
}

export type InProcessAutocomplete =
  | { available: true; queries: number; objects: number; buildMs: number; indexBytes: number; loadMs: number; p50Ms: number; p99Ms: number }
  | { available: false; reason: string };

export interface BenchReport {
  started: Date;
  finished: Date;
  /** 1-minute load average before and after: other work on the machine skews every figure */
  loadavg: { start: number; end: number };
  settings: { events: number; directory: number; seed: number; connections: number; poolSize: number };
  generate: { files: number; bytes: number; ms: number };
  build: BuildRuns;
  /** `aula dev` serving an edit; absent with --skip-dev */
  dev?: DevRun;
  dist: { bytes: number; files: number };
  generator: GeneratorInfo;
  baseline: {
    /** each sample of the bare server; `pass` names the pass it was taken around (absent in older reports) */
    runs: { label: string; pass?: string; load: LoadResult }[];
    bodyBytes: number;
    rps: number;
    /** the same bare server answering a 2-byte body: what the generator itself can push here */
    ceiling?: { bodyBytes: number; load: LoadResult };
  };
  passes: Pass[];
  autocomplete: InProcessAutocomplete;
  /** the same measurement over the bundled sample content/ */
  sampleAutocomplete: InProcessAutocomplete;
  /** CPU profiles of the 1-process rows that missed their target (absent in older callers) */
  missProfiles?: MissProfiles;
}

export interface SoakReport extends SoakResult {
  started: Date;
  generator: GeneratorInfo;
  settings: { events: number; directory: number; seed: number; connections: number };
  seconds: number;
  coldStartMs: number;
  loadavg: { start: number; end: number };
}

const fmt = (n: number, digits = 0) => n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
const mib = (bytes: number) => `${fmt(bytes / 1024 ** 2, 1)} MiB`;
const verdict = (ok: boolean) => (ok ? 'met' : '**missed**');
/** wrk measures to the microsecond, autocannon to the millisecond */
const ms = (n: number) => fmt(n, Number.isInteger(n) ? 0 : 1);
const code = (text: string) => `\`${text.replaceAll('`', "'").replaceAll('|', '\\|')}\``;

export function targetOf(run: Pick<KindRun, 'kind' | 'mode'>): number {
  return run.mode === 'repeated' ? TARGETS.repeated : TARGETS.distinct[run.kind.group];
}

/** The baseline a run is judged against: the samples next to it, else (an older report) the run's mean. */
const baselineOf = (run: KindRun, mean: number) => run.baselineRps ?? mean;

/** A run's ratio is met when it reaches its target and no request failed. */
function ratioMet(run: KindRun, load: LoadResult, baselineRps: number): boolean {
  return load.rps / baselineOf(run, baselineRps) >= targetOf(run) && load.errors === 0 && load.failures === 0;
}

const p99Met = (load: LoadResult) => load.p99 <= TARGETS.p99Ms;

/** A load run that missed its ratio or its p99, or did not run (what passTable marks **missed**). */
export function missed(run: KindRun, baselineRps: number): boolean {
  return !run.load || !ratioMet(run, run.load, baselineRps) || !p99Met(run.load);
}

export function machine(): string[] {
  const cpu = cpus();
  return [
    `- machine: ${cpu[0]?.model ?? 'unknown CPU'}, ${cpu.length} cores, ${mib(totalmem())} memory`,
    `- system: ${platform()} ${release()}, Node ${process.version}`,
  ];
}

function problems(load: LoadResult): string {
  const parts: string[] = [];
  if (load.errors > 0) parts.push(`${load.errors} errors${load.timeouts > 0 ? ` (${load.timeouts} timeouts)` : ''}`);
  for (const [status, n] of Object.entries(load.statusCounts)) if (!status.startsWith('2')) parts.push(`${n}× ${status}`);
  return parts.join(', ') || '0';
}

/**
 * A distinct row's share of requests whose URL the warm-up or the run had asked already (askedBefore):
 * those answers may come from the server's answer cache, so the row is partly a repeated one.
 * The warm-up's count unknown (an older report): '?'.
 */
export function askedBeforeCell(run: KindRun): string {
  if (run.mode === 'repeated' || !run.load) return '–';
  if (run.load.warmupRequests === undefined) return '?';
  const share = askedBefore(run.load, run.unique) / Math.max(1, run.load.requests);
  return share === 0 ? '0' : `**${share < 0.01 ? '< 1' : fmt(share * 100)} %**`;
}

function passTable(pass: Pass, baselineRps: number): string[] {
  const lines = [
    `| kind | mode | unique URLs | asked before | bytes/answer | req/s | p50 ms | p99 ms | baseline req/s | × baseline | target | ratio | p99 ≤ ${TARGETS.p99Ms} ms | errors / non-2xx |`,
    '|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---|---|',
  ];
  for (const run of pass.runs) {
    const target = targetOf(run);
    if (!run.load) {
      lines.push(`| ${run.kind.label} | ${run.mode} | ${fmt(run.unique)} | – | – | – | – | – | – | – | ≥ ${target} | **missed** | **missed** | ${run.error ?? 'not run'} |`);
      continue;
    }
    const l = run.load;
    const base = baselineOf(run, baselineRps);
    lines.push(
      `| ${run.kind.label} | ${run.mode} | ${fmt(run.unique)} | ${askedBeforeCell(run)} | ${fmt(l.bytesPerAnswer)} | ${fmt(l.rps)} | ${ms(l.p50)} | ${ms(l.p99)} | ${fmt(base)} | ${fmt(l.rps / base, 2)} | ≥ ${target} | ` +
        `${verdict(ratioMet(run, l, baselineRps))} | ${verdict(p99Met(l))} | ${problems(l)} |`,
    );
  }
  return lines;
}

/** How the load was made and judged; bench/results.md keeps the same text between recorded runs. */
export function methodSection(g: GeneratorInfo, pass?: Pick<Pass, 'durationS' | 'warmupS'>): string[] {
  const run = pass ? `${fmt(pass.durationS, 1)} s` : 'the --duration';
  const warm = pass ? `${fmt(pass.warmupS, 1)} s` : 'a';
  const generator =
    g.name === 'wrk'
      ? [
          `- **Generator.** wrk (${g.settings}) per run, after a discarded ${warm} warm-up run over the same script ` +
            '(wrk takes whole seconds). The bench installs wrk from Debian when it is missing (README, "Performance"); ' +
            '`--generator autocannon` (or a failed install) falls back to autocannon, and the report then says its figures are capped.',
          '- **Script.** Written per query pool to a temp dir by bench/wrk-script.ts: the pool as a Lua table, thread *i* of *T* ' +
            'requesting paths *start + i*, *start + i + T*, … so the threads never ask for the same path in step, and the measured run ' +
            "starting where the warm-up's requests ended, so distinct paths are not already cached when measured, until the warm-up and the run " +
            'together ask for more URLs than the pool holds: from there every URL is asked again and its answer may come from the server\'s answer ' +
            'cache, so the table gives, per distinct row, the share of the run\'s requests whose URL had been asked before ("asked before"; a kind ' +
            'with fewer distinct URLs than a run asks for, such as location__istartswith, is then mostly a repeated run). `done()` prints requests, ' +
            'duration, bytes, connect/read/write/timeout errors, the 4xx/5xx count and p50/p90/p99/max latency as one JSON line; the 4xx/5xx ' +
            'count is cross-checked against wrk\'s "Non-2xx or 3xx responses" line. Per-code status counts (`--count-statuses`, a ' +
            '`response()` callback) cost wrk some throughput, since wrk then copies every answer into Lua, so they are off by default (README, "Performance"). ' +
            'Requests carry only wrk\'s Host header, as a server-to-server client or curl sends them: no `Accept` (JSON, the default form) and no ' +
            '`Accept-Encoding`, so every answer is measured uncompressed; a browser asking for gzip or br is answered from the static pages\' twins ' +
            'or compressed off the event loop, which these figures do not include.',
        ]
      : [`- **Generator.** ${g.name} ${g.version} (${g.settings}), ${run} per run after a ${warm} warm-up. ${AUTOCANNON_CAP}.`];
  return [
    '## Method',
    '',
    ...generator,
    "- **Baseline.** A bare `node:http` server (bench/baseline-server.ts) answering the default first page's bytes as a constant body, " +
      `measured by the same generator with the same connections and run length (${run}) before each pass's first kind and after ` +
      "every kind; a kind's two runs are divided by the mean of the samples just before and after them, since on a shared machine " +
      "the bare server's rate drifts by a third within a run, more than most rows' distance to their target.",
    '- **Generator ceiling.** The same bare server answering a 2-byte body, once per run: how many requests the generator can make on ' +
      "this machine while sharing its two cores with a Node server. The report compares the baseline and the ceiling with the fastest " +
      'page-sized aula row; if the baseline were not well above that row, the ratios would be measuring the generator.',
    '- **Content age.** The cold build starts 2.5 s after the generated content was written and flushed: the build\'s record of the content files\' stats (the event state) counts a file changed within 2 s of it as racy and reads and hashes it again in the next build (as git does); built at once, the last ~16,000 generated files were racy and added 0.3–0.4 s to the first warm build, which no site whose files are older than two seconds pays.',
    '- **Flushed writes.** Before each build the bench waits, untimed, for the kernel to write back what ran before it (`sync`): a cold build writes ~1.4 GB, and a one-event build run right after three of them spent 0.5 s of its swap waiting on that writeback, with little of its own to write. So each build is timed without the bench\'s earlier builds\' writeback, which no build is then charged with: the time each flush took is listed ("writes of what ran before"). Runs before 2026-11-27 17:57 did not flush; a build right after another, as in `aula dev`, may meet some of it.',
    '- **Settling.** Nothing is measured (the ceiling and the baseline included, which share the cores) until each started `aula serve` has spent next to no CPU (≤ 2 clock ticks) for 2 s: ' +
      '1 s after it starts listening it reads its deferred text columns and then builds its filter indexes in the background, and anything measured meanwhile would measure that too. ' +
      '(A 0.5 s quiet spell, as before, could end before the warm-up began: it then ran during the first baseline sample and the first row of the workers pass.)',
    '- **Probe.** 20 sequential requests per row before its load, to name the first URL that did not answer 2xx ' +
      '(the generators count failures but cannot say which URL failed).',
  ];
}

/** The lines of the report's head that say what made the load and how far to trust it. */
export function generatorLines(g: GeneratorInfo, connections: number, poolSize?: number): string[] {
  const lines = [
    `- load generator: ${g.name} ${g.version} (${g.settings}), ${connections} connections, loopback, on the same machine` +
      (poolSize === undefined ? '' : `; distinct pools of up to ${fmt(poolSize)} URLs per kind`),
  ];
  if (g.note) lines.push(`- generator note: ${g.note}`);
  if (g.capped) lines.push(`- **these req/s figures are capped by the load generator, not the server**: ${AUTOCANNON_CAP}`);
  return lines;
}

const AUTOCANNON_CAP =
  'autocannon shares the bench\'s Node process and the two cores with the server; run with wrk (the default) for figures that measure the server';

export function resultsMarkdown(r: BenchReport): string {
  const onePass = r.passes.find((p) => p.workers === 1);
  const out: string[] = [
    '# aula benchmark results',
    '',
    `Written by \`npm run bench\` (bench/run.ts) on ${r.started.toISOString()}; the run took ${fmt((r.finished.getTime() - r.started.getTime()) / 1000)} s.`,
    '',
    ...machine(),
    `- 1-minute load average ${fmt(r.loadavg.start, 2)} at the start, ${fmt(r.loadavg.end, 2)} at the end (other processes compete for the cores if it is well above the bench's own share)`,
    `- content: ${fmt(r.settings.events)} events, ${fmt(r.settings.directory)} directory objects (generator seed ${r.settings.seed})`,
    ...generatorLines(r.generator, r.settings.connections, r.settings.poolSize),
    '- ratio = requests/s ÷ baseline requests/s (the bare server, same generator, sampled just before and after the row\'s kind); a ratio is met when it reaches the target ' +
      `and no request failed; p99 is met at ≤ ${TARGETS.p99Ms} ms; targets are those of issues 33, 34 and 36 (TARGETS in bench/report.ts)`,
    '',
    ...methodSection(r.generator, onePass),
    '',
    ...buildSection(r),
  ];
  const oneRss = onePass?.available ? onePass.rss?.bytes : undefined;
  for (const pass of r.passes) {
    if (!pass.available) continue;
    const who = pass.workers === 1 ? '1 process' : `${pass.workers} workers`;
    if (pass.coldStartMs !== undefined) {
      const s = pass.coldStartMs / 1000;
      out.push(`| cold start, ${who} (spawn → first 200) | ${fmt(s, 3)} s | ≤ ${TARGETS.coldStartS} s | ${verdict(s <= TARGETS.coldStartS)} |`);
    }
    if (pass.rss) {
      const what = `RSS after load, ${who}${pass.rss.processes > 1 ? ` (${pass.rss.processes} processes: ${pass.rss.each.map((b) => fmt(b / 1024 ** 2)).join(' + ')} MiB)` : ''}`;
      if (pass.workers === 1) {
        out.push(`| ${what} | ${mib(pass.rss.bytes)} | ≤ ${mib(TARGETS.rssBytes)} | ${verdict(pass.rss.bytes <= TARGETS.rssBytes)} |`);
      } else if (oneRss) {
        const ratio = pass.rss.bytes / oneRss;
        out.push(`| ${what} | ${mib(pass.rss.bytes)} (${fmt(ratio, 2)}× 1 process) | ≤ ${TARGETS.workersRssRatio}× 1 process | ${verdict(ratio <= TARGETS.workersRssRatio)} |`);
      } else {
        out.push(`| ${what} | ${mib(pass.rss.bytes)} | ≤ ${TARGETS.workersRssRatio}× 1 process | – |`);
      }
    }
    if (pass.memory && pass.memory.length > 0) out.push(`| ${memoryRow(who, pass.memory)} | – | – |`);
  }
  for (const [ac, where] of [[r.autocomplete, ''], [r.sampleAutocomplete, ', bundled sample'] ] as const) {
    if (ac.available) {
      out.push(
        `| in-process autocomplete p50 / p99 (${fmt(ac.queries)} queries, ${fmt(ac.objects)} objects${where}) | ${fmt(ac.p50Ms, 3)} / ${fmt(ac.p99Ms, 3)} ms | ` +
          `p99 ≤ ${TARGETS.autocompleteP99Ms} ms | ${verdict(ac.p99Ms <= TARGETS.autocompleteP99Ms)} |`,
        `| autocomplete index${where}: build / load / size | ${fmt(ac.buildMs)} ms / ${fmt(ac.loadMs)} ms / ${mib(ac.indexBytes)} | – | – |`,
      );
    } else {
      out.push(`| in-process autocomplete p50 / p99${where} | not available (${ac.reason}) | p99 ≤ ${TARGETS.autocompleteP99Ms} ms | – |`);
    }
  }

  out.push('', ...phaseSection(r.build));
  out.push('', ...baselineSection(r));

  for (const pass of r.passes) {
    out.push('', `## ${pass.title}`, '');
    if (!pass.available) {
      out.push(`${pass.workers > 1 ? 'workers' : 'server'}: not available${pass.note ? ` — ${pass.note}` : ''}`);
      continue;
    }
    out.push(
      `${fmt(pass.durationS, 1)} s per run after a ${fmt(pass.warmupS, 1)} s warm-up.` +
        (pass.workers > 1 ? ' Same baseline server and targets as the 1-process pass, sampled around each kind again; the load generator shares the 2 cores with the workers.' : ''),
      '',
      ...passTable(pass, r.baseline.rps),
    );
    if (pass.note) out.push('', pass.note);
  }

  if (r.missProfiles) out.push('', ...missProfileSection(r.missProfiles));

  if (onePass) {
    out.push('', '## Query kinds', '', '| kind | repeated URL | a distinct URL |', '|---|---|---|');
    for (const run of onePass.runs) {
      if (run.mode !== 'repeated') continue;
      out.push(`| ${run.kind.label} | ${code(run.kind.repeated)} | ${code(run.kind.distinct[1] ?? run.kind.distinct[0])} |`);
    }
  }

  const failures = r.passes.flatMap((p) =>
    p.runs.filter((run) => run.probe?.firstFailure).map((run) => ({ pass: p.title, run, f: run.probe!.firstFailure! })),
  );
  if (failures.length > 0) {
    out.push('', '## Answers that were not 2xx', '', 'Sequential probe before each load run (first failing URL of the sample):', '');
    for (const { pass, run, f } of failures) {
      out.push(`- ${pass}, ${run.kind.label} (${run.mode}): ${f.status} for ${code(f.path)} — ${code(f.body.slice(0, 200))}`);
    }
  }
  out.push('');
  return out.join('\n');
}

/** The baseline's samples: each pass's as one row (their range, mean and median latencies), older reports' one by one. */
function baselineRows(runs: BenchReport['baseline']['runs']): string[] {
  const rows: string[] = [];
  const passes = new Map<string, LoadResult[]>();
  for (const { label, pass, load: l } of runs) {
    if (pass === undefined) rows.push(`| ${label} | ${fmt(l.rps)} | ${ms(l.p50)} | ${ms(l.p90)} | ${ms(l.p99)} |`);
    else passes.set(pass, [...(passes.get(pass) ?? []), l]);
  }
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)];
  for (const [pass, loads] of passes) {
    const rps = loads.map((l) => l.rps);
    rows.push(
      `| ${pass}: ${loads.length} samples, ${fmt(Math.min(...rps))} to ${fmt(Math.max(...rps))} req/s (mean; latencies the samples' medians) | ` +
        `${fmt(rps.reduce((a, b) => a + b, 0) / rps.length)} | ${ms(median(loads.map((l) => l.p50)))} | ${ms(median(loads.map((l) => l.p90)))} | ${ms(median(loads.map((l) => l.p99)))} |`,
    );
  }
  return rows;
}

/**
 * The baseline runs, the generator's ceiling, and the check that matters most: the bare server
 * must run far faster than any aula row, or the ratios measure the generator.
 */
export function baselineSection(r: Pick<BenchReport, 'baseline' | 'passes' | 'generator'>): string[] {
  const out = [
    '## Baseline and generator ceiling',
    '',
    `A bare \`node:http\` server (bench/baseline-server.ts) answering the default first page's bytes (${fmt(r.baseline.bodyBytes)} bytes) ` +
      `as a constant body, loaded by the same generator (${r.generator.name}) with the same connections and run length as the 1-process pass; ` +
      "sampled before each pass's first kind and after every kind; each row is divided by the mean of the samples next to it. " +
      'The ceiling is the same bare server answering a 2-byte body: the most requests the generator can make on this machine ' +
      'while sharing it with a server.',
    '',
    '| run | req/s | p50 ms | p90 ms | p99 ms |',
    '|---|---:|---:|---:|---:|',
    ...baselineRows(r.baseline.runs),
    `| **baseline** (the mean of every sample) | **${fmt(r.baseline.rps)}** | | | |`,
  ];
  const c = r.baseline.ceiling;
  if (c) out.push(`| generator ceiling (${fmt(c.bodyBytes)}-byte body) | ${fmt(c.load.rps)} | ${ms(c.load.p50)} | ${ms(c.load.p90)} | ${ms(c.load.p99)} |`);
  const rows = r.passes.filter((p) => p.workers === 1).flatMap((p) => p.runs);
  // the heaviest-bodied rows are the fair comparison: detail and autocomplete answers are ~20× smaller
  const large = rows.filter((run) => run.load && run.load.bytesPerAnswer >= r.baseline.bodyBytes / 2);
  const best = large.reduce<KindRun | undefined>((b, run) => (b && b.load!.rps >= run.load!.rps ? b : run), undefined);
  if (best?.load) {
    out.push(
      '',
      `The fastest page-sized aula row (${best.kind.label}, ${best.mode}) ran ${fmt(best.load.rps)} req/s: the baseline is ` +
        `${fmt(baselineOf(best, r.baseline.rps) / best.load.rps, 1)}× that` +
        (c ? `, and the generator ceiling ${fmt(c.load.rps / best.load.rps, 1)}×.` : '.') +
        // The ceiling says whether the generator could have gone faster; the baseline, a single
        // sample per pass, can be off by half on a shared machine.
        ((c ? c.load.rps : baselineOf(best, r.baseline.rps)) / best.load.rps < 1.5
          ? ` **The ${c ? 'generator ceiling' : 'baseline'} is under 1.5× this row: the generator may be what limits these runs.**`
          : '') +
        (baselineOf(best, r.baseline.rps) < best.load.rps
          ? ' The baseline ran slower than this row: both are at what the generator reaches beside a server on these cores, so this row measures the generator, not aula.'
          : ''),
    );
  }
  // the distinct rows are the ones that measure the server: the baseline must be well above them
  const distinct = large.filter((run) => run.mode === 'distinct').reduce<KindRun | undefined>((b, run) => (b && b.load!.rps >= run.load!.rps ? b : run), undefined);
  if (distinct?.load && distinct !== best) {
    out.push('', `The fastest page-sized distinct row (${distinct.kind.label}) ran ${fmt(distinct.load.rps)} req/s: the baseline is ${fmt(baselineOf(distinct, r.baseline.rps) / distinct.load.rps, 1)}× that.`);
  }
  if (r.generator.capped) out.push('', `**Capped:** ${AUTOCANNON_CAP}.`);
  return out;
}

export function soakMarkdown(s: SoakReport): string {
  const l = s.load;
  const failed = l.errors + l.failures;
  const growth = s.rssStart > 0 ? (s.rssEnd - s.rssStart) / s.rssStart : 0;
  return [
    '',
    `## Soak (issue 7), ${s.started.toISOString()}`,
    '',
    ...machine(),
    `- ${fmt(s.settings.events)} events, ${fmt(s.settings.directory)} directory objects (seed ${s.settings.seed}); one server process, ` +
      `${s.settings.connections} connections for ${fmt(s.seconds)} s over a mix of ${s.kinds.length} query kinds (${s.kinds.join(', ')}), ` +
      `distinct values; RSS "start" is taken after a ${fmt(s.warmupS)} s warm-up of the same mix`,
    `- 1-minute load average ${fmt(s.loadavg.start, 2)} at the start, ${fmt(s.loadavg.end, 2)} at the end`,
    ...generatorLines(s.generator, s.settings.connections),
    '',
    '| figure | value | target | result |',
    '|---|---:|---:|---|',
    `| requests | ${fmt(l.requests)} (${fmt(l.rps)} req/s) | – | – |`,
    `| errors (connection errors, timeouts, 4xx/5xx) | ${fmt(failed)}${failed > 0 ? ` (${problems(l)})` : ''} | 0 | ${verdict(failed === 0)} |`,
    `| p50 / p99 latency | ${ms(l.p50)} / ${ms(l.p99)} ms | – | – |`,
    `| RSS start → end (max) | ${mib(s.rssStart)} → ${mib(s.rssEnd)} (${mib(s.rssMax)}) | growth ≤ ${TARGETS.soakRssGrowth * 100} % | ` +
      `${verdict(growth <= TARGETS.soakRssGrowth)} (${growth >= 0 ? '+' : ''}${fmt(growth * 100, 1)} %) |`,
    `| RSS every tenth of the soak | ${s.rssTimeline.map((b) => fmt(b / 1024 ** 2)).join(' → ')} MiB | – | – |`,
    `| cold start | ${fmt(s.coldStartMs / 1000, 3)} s | – | – |`,
    '',
  ].join('\n');
}

const seconds = (ms: number) => `${fmt(ms / 1000, 2)} s`;
const cpu = (run: MeasuredRun) => (run.cpuMs === undefined ? '' : ` (CPU ${fmt(run.cpuMs / 1000, 1)} s)`);
/** peak RSS of a run's process tree; several processes are summed, each at its own peak */
const peak = (run: Pick<MeasuredRun, 'peakRssBytes' | 'processes'>) =>
  `${mib(run.peakRssBytes)}${run.processes > 1 ? ` (${run.processes} processes, each at its peak)` : ''}`;

export type BuildFigures = Pick<BenchReport, 'generate' | 'build' | 'dist' | 'dev'>;

/** The "Build, start, memory" table, as the full report and the builds-only report both open it. */
function buildSection(r: BuildFigures): string[] {
  return ['## Build, start, memory', '', '| figure | value | target | result |', '|---|---:|---:|---|', ...buildRows(r)];
}

/** The build rows of the "Build, start, memory" table: issue 33's targets and the figures around them. */
export function buildRows(r: BuildFigures): string[] {
  const b = r.build;
  const coldS = b.cold.wallMs / 1000;
  const changeS = b.change.wallMs / 1000;
  // judged on the median time of the cold builds, and on the highest peak of them
  const several = b.coldRuns.length > 1;
  const highest = b.coldRuns.reduce((top, run) => (run.peakRssBytes > top.peakRssBytes ? run : top), b.cold);
  const coldTime = several
    ? `median ${seconds(b.cold.wallMs)}${cpu(b.cold)} of ${b.coldRuns.length} runs: ${b.coldRuns.map((run) => seconds(run.wallMs)).join(', ')}`
    : `${seconds(b.cold.wallMs)}${cpu(b.cold)}`;
  const coldPeak = several ? `highest ${peak(highest)} of ${b.coldRuns.length} runs: ${b.coldRuns.map((run) => mib(run.peakRssBytes)).join(', ')}` : peak(b.cold);
  const rows = [
    `| content generated | ${fmt(r.generate.files)} files, ${mib(r.generate.bytes)} in ${fmt(r.generate.ms / 1000, 1)} s | – | – |`,
    `| cold build, build cache on in a fresh folder (\`aula build\`, process start to exit) | ${coldTime} | ≤ ${TARGETS.buildS} s | ${verdict(coldS <= TARGETS.buildS)} |`,
    `| cold build, cache on: peak RSS | ${coldPeak} | ≤ 1 GB (${mib(TARGETS.buildPeakRssBytes)}) | ${verdict(highest.peakRssBytes <= TARGETS.buildPeakRssBytes)} |`,
    `| cold build \`--no-cache\`: time / peak RSS | ${seconds(b.noCache.wallMs)}${cpu(b.noCache)} / ${peak(b.noCache)} | ≤ ${TARGETS.noCacheS} s | ${verdict(b.noCache.wallMs / 1000 <= TARGETS.noCacheS)} |`,
    ...fileCreationRow(b),
    ...flushRow(b),
    `| build throughput (cold, cache on) | ${fmt(r.generate.files / coldS)} content files/s | – | – |`,
    `| one event's title changed (${code(b.files.changed)}), cache warm, same \`--out\`: time / peak RSS | ${seconds(b.change.wallMs)}${cpu(b.change)} / ${peak(b.change)} | ≤ ${TARGETS.changeS} s | ${verdict(changeS <= TARGETS.changeS)} |`,
    `| one event added at the top of the list (a new file, ${code(b.files.added)}, starting after every other): time / peak RSS | ${seconds(b.added.wallMs)}${cpu(b.added)} / ${peak(b.added)} | ≤ ${TARGETS.addedOrDeletedS} s | ${verdict(b.added.wallMs / 1000 <= TARGETS.addedOrDeletedS)} |`,
    `| one event deleted (its file, ${code(b.files.deleted)}): time / peak RSS | ${seconds(b.deleted.wallMs)}${cpu(b.deleted)} / ${peak(b.deleted)} | ≤ ${TARGETS.addedOrDeletedS} s | ${verdict(b.deleted.wallMs / 1000 <= TARGETS.addedOrDeletedS)} |`,
    `| the three edits undone: time / peak RSS | ${seconds(b.restored.wallMs)}${cpu(b.restored)} / ${peak(b.restored)} | – | – |`,
    identicalRow(b),
  ];
  const d = r.dev;
  if (d?.available) {
    const editS = d.editMs / 1000;
    rows.push(
      `| \`aula dev\`: edit saved → new title served (${code(d.file)}) | ${seconds(d.editMs)} | ≤ ${TARGETS.devEditS} s | ${verdict(editS <= TARGETS.devEditS)} |`,
      `| \`aula dev\`: start → first answer (its first build, cache warm) / peak RSS | ${seconds(d.startMs)} / ${peak(d)} | – | – |`,
    );
  } else if (d) {
    rows.push(`| \`aula dev\`: edit saved → new title served | not measured (${d.reason.replaceAll('|', '\\|')}) | ≤ ${TARGETS.devEditS} s | **missed** |`);
  }
  rows.push(`| dist size | ${mib(r.dist.bytes)} (${fmt(r.dist.bytes)} bytes, ${fmt(r.dist.files)} files) | – | – |`);
  return rows;
}

/**
 * How long creating a file took where each cold build was about to write (file-creation.ts): the
 * host's state, which can add seconds of system time to the same work.
 */
function fileCreationRow(b: BuildRuns): string[] {
  const probed = [...b.coldRuns, b.noCache].filter((run) => run.createMicros !== undefined);
  if (probed.length === 0) return [];
  const us = (run: BuildRun) => `${fmt(run.createMicros!, 0)} µs`;
  const slow = probed.some((run) => run.createMicros! > SLOW_CREATE_MICROS);
  const value = `cache on: ${b.coldRuns.filter((run) => run.createMicros !== undefined).map(us).join(', ')}; \`--no-cache\`: ${b.noCache.createMicros === undefined ? '–' : us(b.noCache)}`;
  const note = slow
    ? ` — **slowed** (over ${SLOW_CREATE_MICROS} µs: many files were deleted nearby within the last minutes, and ext4 steps over recently freed inodes; the builds' system time includes it)`
    : '';
  return [`| a new file created, written (4 KB) and closed where each cold build then wrote (median of ${PROBE_FILES}, just before it) | ${value}${note} | – | – |`];
}

/**
 * How long the kernel took to write back what ran before each build (`sync`, untimed, just before
 * it): the bench's own earlier builds, which would otherwise be written back during the next one.
 */
function flushRow(b: BuildRuns): string[] {
  const runs: [string, BuildRun][] = [['`--no-cache`', b.noCache], ...b.coldRuns.map((run, i): [string, BuildRun] => [`cold ${i + 1}`, run]), ['title changed', b.change], ['added', b.added], ['deleted', b.deleted], ['undone', b.restored]];
  if (runs.every(([, run]) => run.flushMs === undefined)) return [];
  const value = runs.map(([label, run]) => `${label} ${run.flushMs === undefined ? '–' : run.flushMs === null ? '**not flushed** (sync failed)' : `${fmt(run.flushMs / 1000, 2)} s`}`).join(', ');
  return [`| writes of what ran before, flushed to disk (\`sync\`) just before each build, untimed | ${value} | – | – |`];
}

function identicalRow(b: BuildRuns): string {
  const c = b.identical;
  const what = '| dist after the edits and their undo (incremental) against the `--no-cache` build, changes.json aside |';
  return c.differingCount === 0
    ? `${what} byte-identical (${fmt(c.files)} files) | identical | met |`
    : `${what} ${fmt(c.differingCount)} files differ: ${c.differing.slice(0, 5).map(code).join(', ')} | identical | **missed** |`;
}

/** Per-phase seconds of every build (`aula build --timings`), so a miss names its phase. */
export function phaseSection(b: BuildRuns): string[] {
  const columns: [string, MeasuredRun][] = [
    ['cold, cache on', b.cold],
    ['cold, --no-cache', b.noCache],
    ['title changed', b.change],
    ['event added', b.added],
    ['event deleted', b.deleted],
  ];
  const names: string[] = [];
  for (const [, run] of columns) for (const [name] of run.phases) if (!names.includes(name)) names.push(name);
  const cell = (run: MeasuredRun, name: string) => {
    const phase = run.phases.find(([n]) => n === name);
    const cpu = run.cpu?.find(([n]) => n === name);
    return phase ? (cpu ? `${fmt(phase[1], 2)} (${fmt(cpu[1], 2)})` : fmt(phase[1], 2)) : '–';
  };
  return [
    '## Build phases',
    '',
    'Seconds per phase as `aula build --timings` prints them (the build\'s own clock, inside the process), and in brackets the ' +
      'CPU seconds of all the process\'s threads in that phase; the last rows are the ' +
      'process from start to exit, Node\'s start-up and module loading included, its CPU time (user + system) and its peak RSS: ' +
      'every process of the tree at its own peak, the larger of what it reports at exit (getrusage, bench/rusage-preload.mjs) and ' +
      'its VmHWM sampled from /proc every 100 ms.',
    '',
    `| phase | ${columns.map(([label]) => label).join(' | ')} |`,
    `|---|${columns.map(() => '---:').join('|')}|`,
    ...names.map((name) => `| ${name} | ${columns.map(([, run]) => cell(run, name)).join(' | ')} |`),
    `| content files parsed / reused | ${columns.map(([, run]) => (run.cache ? `${fmt(run.cache.parsed)} / ${fmt(run.cache.reused)}` : '–')).join(' | ')} |`,
    `| **process start to exit** | ${columns.map(([, run]) => `**${fmt(run.wallMs / 1000, 2)}**`).join(' | ')} |`,
    `| CPU time | ${columns.map(([, run]) => (run.cpuMs === undefined ? '–' : fmt(run.cpuMs / 1000, 2))).join(' | ')} |`,
    `| peak RSS, MiB | ${columns.map(([, run]) => fmt(run.peakRssBytes / 1024 ** 2)).join(' | ')} |`,
  ];
}

export interface BuildOnlyReport extends BuildFigures {
  started: Date;
  finished: Date;
  loadavg: { start: number; end: number };
  settings: { events: number; directory: number; seed: number };
}

/** `npm run bench -- --only-build`: the build figures alone, without serving or load. */
export function buildOnlyMarkdown(r: BuildOnlyReport): string {
  return [
    '# aula benchmark results: builds only',
    '',
    `Written by \`npm run bench -- --only-build\` (bench/run.ts) on ${r.started.toISOString()}; the run took ${fmt((r.finished.getTime() - r.started.getTime()) / 1000)} s.`,
    '',
    ...machine(),
    `- 1-minute load average ${fmt(r.loadavg.start, 2)} at the start, ${fmt(r.loadavg.end, 2)} at the end (other processes compete for the cores if it is well above the bench's own share)`,
    `- content: ${fmt(r.settings.events)} events, ${fmt(r.settings.directory)} directory objects (generator seed ${r.settings.seed})`,
    '- targets are those of issue 33 (TARGETS in bench/report.ts)',
    '',
    ...buildSection(r),
    '',
    ...phaseSection(r.build),
    '',
  ].join('\n');
}

/**
 * What each process's RSS is made of, in MiB: V8's heap (allocated), memory outside the heap that
 * V8 knows of (ArrayBuffers, strings' external bytes), and the rest (code, stacks, malloc, the
 * page pool's free blocks are ArrayBuffers too).
 */
function memoryRow(who: string, memory: ProcessMemory[]): string {
  const m = (b: number) => fmt(b / 1024 ** 2);
  const each = memory.map((p) => `${m(p.rss)} = ${m(p.heapTotal)} + ${m(p.external)} + ${m(Math.max(0, p.rss - p.heapTotal - p.external))}`);
  return `what the RSS is, ${who}, each process in MiB: RSS = V8 heap + outside the heap (ArrayBuffers …) + the rest (code, stacks, malloc) | ${each.join(' · ')}`;
}

const us = (n: number) => fmt(n, n < 10 ? 1 : 0);

/** Per request, in µs: the main thread's sampled time of each part. */
function profileCells(row: ProfiledRow): string[] {
  const n = Math.max(1, row.requests);
  const s = row.summary;
  const idleShare = s.busyUs + s.idleUs > 0 ? s.idleUs / (s.busyUs + s.idleUs) : 0;
  return [fmt(row.rps), us(row.cpuUsPerRequest), us(s.busyUs / n), ...PARTS.map((p) => us(s.parts[p] / n)), `${fmt(idleShare * 100)} %`];
}

/** Where the rows that missed spend their time, next to the bare server doing the same wire work. */
export function missProfileSection(p: MissProfiles): string[] {
  const out = ['## Why the missed rows missed: CPU profiles', ''];
  if (!p.available) return [...out, `Not measured: ${p.reason}.`];
  out.push(
    `Each row of the 1-process pass that missed its target was run again for ${fmt(p.durationS, 1)} s (no warm-up) against a fresh ` +
      '`aula serve` under `node --cpu-prof`; the server\'s profile was cut into one window per row (the profile\'s clock is ' +
      "CLOCK_MONOTONIC, as process.hrtime's). The bare baseline server was profiled the same way. The profiler slows a server by a " +
      'few per cent: read the req/s here as the profiled run\'s, the rest as costs per request. *CPU* is the whole process\'s ' +
      '(all threads, from /proc); the other columns split the main thread\'s sampled time, in µs per request: *socket writes* ' +
      "and *file reads* are the system calls' own time (the kernel's TCP/loopback send, which wakes the generator, and the copy " +
      "from the page cache), *aula* its compiled modules, *node* node's JavaScript, *V8, native* what the profiler cannot attribute " +
      'to JavaScript. Native calls made by JavaScript (a RegExp, a builtin) count for their caller. *Idle*: the share of the window ' +
      'the thread waited for the network.',
    '',
    `| row | mode | req/s (profiled) | CPU µs/req | main thread µs/req | ${PARTS.join(' | ')} | idle |`,
    `|---|---|---:|---:|---:|${PARTS.map(() => '---:').join('|')}|---:|`,
  );
  const rows = p.bare ? [p.bare, ...p.rows] : p.rows;
  for (const row of rows) out.push(`| ${row.label} | ${row.mode} | ${profileCells(row).join(' | ')} |`);
  out.push('', "Against the bare server, per request (the largest differences first), and aula's costliest modules and functions:", '');
  for (const row of p.rows) out.push(`- **${row.label}, ${row.mode}:** ${difference(row, p.bare)}`);
  return out;
}

function difference(row: ProfiledRow, bare: ProfiledRow | undefined): string {
  const n = Math.max(1, row.requests);
  const parts: string[] = [];
  if (bare) {
    const b = Math.max(1, bare.requests);
    const cpu = row.cpuUsPerRequest - bare.cpuUsPerRequest;
    const diffs = PARTS.map((part) => ({ part, d: row.summary.parts[part] / n - bare.summary.parts[part] / b }))
      .filter((x) => Math.abs(x.d) >= 1)
      .sort((a, c) => c.d - a.d)
      .map((x) => `${x.part} ${x.d >= 0 ? '+' : '−'}${us(Math.abs(x.d))}`);
    const where = diffs.length > 0 ? `; ${diffs.join(', ')}` : '; no part differs by 1 µs or more';
    // a row that costs the server no more than the bare server's constant answer missed for the run's sake
    if (row.cpuUsPerRequest <= bare.cpuUsPerRequest * 1.05) {
      parts.push('*No more CPU per request than the bare server:* the miss is the run\'s (the machine or the generator at that moment), not aula\'s work.');
    }
    parts.push(`${us(row.cpuUsPerRequest)} µs of CPU per request against ${us(bare.cpuUsPerRequest)} (${cpu >= 0 ? '+' : '−'}${us(Math.abs(cpu))} µs)${where}.`);
  } else {
    parts.push(`${us(row.cpuUsPerRequest)} µs of CPU per request.`);
  }
  const modules = Object.entries(row.summary.aulaModules).sort((a, c) => c[1] - a[1]).slice(0, 4);
  if (modules.length > 0) parts.push(`aula by module: ${modules.map(([m, t]) => `${m} ${us(t / n)}`).join(', ')}.`);
  const fns = row.summary.aulaFunctions.slice(0, 4);
  if (fns.length > 0) parts.push(`Costliest: ${fns.map((f) => `${code(f.name)} ${us(f.us / n)}`).join(', ')}.`);
  return parts.join(' ');
}
