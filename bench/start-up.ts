// Start → full speed: what a started `aula serve` still spends once it answers, and what the first
// request of each filter kind costs right after the start, when nothing has been asked before.
//   npx tsx bench/start-up.ts --dist DIR [--aula BIN]   (a dist built by `aula build`; with --edge, workerd too;
//                                                     BIN: another checkout's bin/aula.cjs, for a before/after)
//   npx tsx bench/start-up.ts --dist DIR --edge-only [--worker JS]   (workerd alone; JS: another build's
//                                                     edge/worker.js over DIR's data files, for a before/after)
//   npx tsx bench/start-up.ts --dist DIR --edge-only --worker A.js --worker B.js [--repeat N] [--only K]...
//                                                     (each kind, or those named, as a fresh isolate's first,
//                                                     N times per worker in turn: medians)
// Also a phase of `npm run bench` (bench/run.ts), and `npm run bench -- --only-start-up`.
//
// CPU time throughout (every thread, /proc/<pid>/task/*/schedstat, nanoseconds): on a shared
// machine a wall time measures the neighbours too.
// - background CPU: the server's CPU from its first 200 answer until it has been quiet for the
//   settling time (the quiet spell itself not counted);
// - first request per kind: a fresh server, each kind's URL asked once right after the first 200,
//   in sequence; the server's CPU for that one answer (and the client's wall time, for reference);
// - workerd: an isolate's start and a request's CPU apart, as Cloudflare accounts them. workerd
//   evaluates the bundle after it starts accepting connections, so a fresh workerd is left until
//   idle with no request asked (its CPU from accepting until then: the isolate's start), and only
//   then asked: one unfiltered request (the isolate loads what it needs), then each filtered
//   kind's first request, the CPU workerd spent on it; and each kind's request as the first of a
//   fresh, idle workerd (the isolate loads per need, so this is what a kind costs an isolate that
//   has answered nothing yet).
import { spawn, spawnSync } from 'node:child_process';
import { connect } from 'node:net';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { aulaEnv, freePort, httpGet, quietSpell, startServerProcess, stopTracked, treePids, treeStatSum, type SettleClock } from './processes.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const AULA = join(ROOT, 'bin/aula.cjs');
const HOST = '127.0.0.1';
const EVENTS = '/v1/cms/event/';

/**
 * Scheduler nanoseconds of a process and its descendants, every thread
 * (/proc/<pid>/task/<tid>/schedstat): `run` on a CPU, `wait` runnable but waiting for one.
 */
export function treeSchedNs(pid: number): { run: number; wait: number } {
  const ns = { run: 0, wait: 0 };
  for (const p of treePids(pid)) {
    let tasks: string[] = [];
    try {
      tasks = readdirSync(`/proc/${p}/task`);
    } catch {
      continue;
    }
    for (const tid of tasks) {
      try {
        const [run, wait] = readFileSync(`/proc/${p}/task/${tid}/schedstat`, 'utf8').split(' ');
        ns.run += Number(run);
        ns.wait += Number(wait);
      } catch {
        // ended meanwhile
      }
    }
  }
  return ns;
}

/** Clock ticks per second of /proc's utime and stime. */
let ticksPerS: number | undefined;
const clockTicks = () => (ticksPerS ??= Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout) || 100);

/** utime + stime of a /proc stat file, in clock ticks; 0 where it is gone. */
function statTicks(file: string): number {
  try {
    const stat = readFileSync(file, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(fields[11]) + Number(fields[12]);
  } catch {
    return 0;
  }
}

/** The CPU of the threads of `pid` that have ended, in ns: the process's ticks (every thread's, ended ones too) less its live threads'. */
function endedThreadsNs(pid: number): number {
  let live = 0;
  let tasks: string[] = [];
  try {
    tasks = readdirSync(`/proc/${pid}/task`);
  } catch {
    return 0;
  }
  for (const tid of tasks) live += statTicks(`/proc/${pid}/task/${tid}/stat`);
  return (Math.max(0, statTicks(`/proc/${pid}/stat`) - live) * 1e9) / clockTicks();
}

/** The highest CPU reading of each process tree so far, by its root's pid. */
const highestCpuNs = new Map<number, number>();

/**
 * CPU nanoseconds of a process and its descendants, every thread, ended ones too, never less than
 * an earlier reading of the same tree: a thread's schedstat goes with it when it ends (the worker
 * that checks the rows ends after the first answer), so an ended thread's CPU is counted from its
 * process's ticks, and the ticks' coarser grain cannot make a later reading fall below an earlier one.
 */
export function treeCpuNs(pid: number): number {
  let ns = treeSchedNs(pid).run;
  for (const p of treePids(pid)) ns += endedThreadsNs(p);
  const highest = Math.max(ns, highestCpuNs.get(pid) ?? 0);
  highestCpuNs.set(pid, highest);
  return highest;
}

/**
 * Minor page faults of a process and its descendants (/proc/<pid>/stat's minflt, every thread):
 * the fresh memory a request touched, a count the machine's other work does not move.
 */
export const treeMinorFaults = (pid: number): number => treeStatSum(pid, (fields) => Number(fields[7]));

/**
 * The nanoseconds a process tree has run or wanted to run: idle means neither moves. A process
 * starved by the machine's other work stops running but still waits, so it does not pass for idle.
 */
export const treeBusyNs = (pid: number, sched = treeSchedNs): number => {
  const ns = sched(pid);
  return ns.run + ns.wait;
};

/** One URL per filter kind: together they need every index the server uses. */
export const FIRST_REQUESTS: readonly [kind: string, query: string][] = [
  ['title__icontains', 'title__icontains=herz'],
  ['teaser__icontains', 'teaser__icontains=patient'],
  ['title__iregex', 'title__iregex=%5Efort'],
  ['title__contains', 'title__contains=Kurs'],
  ['organizer__icontains', 'organizer__icontains=klinik'],
  ['location__istartswith', 'location__istartswith=h'],
  ['contact__iexact', 'contact__iexact=x'],
  ['email__iendswith', 'email__iendswith=.at'],
  ['start__contains', 'start__contains=2025-05'],
  ['start range', 'start__gte=2025-05-01&start__lt=2025-06-01'],
  ['end__gte', 'end__gte=2025-06-01'],
  ['registration_end__lte', 'registration_end__lte=2025-06-01'],
  ['last_modified__gte', 'last_modified__gte=2025-01-01'],
  ['dfp_points__gte + register', 'dfp_points__gte=3&register=true'],
  ['allday', 'allday=true'],
  ['attending_fees', 'attending_fees=false'],
  ['categories', 'categories=1&categories=2'],
  ['groups', 'groups=1'],
  ['id', 'id=100016'],
  ['expand=categories', 'expand=categories&offset=500'],
];
export const FIRST_AUTOCOMPLETE: readonly [kind: string, query: string][] = [
  ['autocomplete, 1 word', 'q=a'],
  ['autocomplete, 2 words', 'q=david%20le'],
  ['autocomplete, umlaut', 'q=m%C3%BCl'],
];

const firstUrls = () => [
  ...FIRST_REQUESTS.map(([kind, query]): [string, string] => [kind, `${EVENTS}?${query}`]),
  ...FIRST_AUTOCOMPLETE.map(([kind, query]): [string, string] => [kind, `/v1/api/autocomplete/?${query}`]),
];

export interface FirstRequest {
  kind: string;
  status: number;
  wallMs: number;
  cpuMs: number;
  /** minor page faults of `pid`'s tree meanwhile */
  faults: number;
}

export interface StartUp {
  coldStartMs: number;
  /** the server's CPU from spawn to its first answer (every thread: the rows are checked on one) */
  startCpuMs: number;
  /** server CPU from the first answer until settled, the idle rate taken out */
  backgroundCpuMs: number;
  /** how long after the first answer it took to settle */
  settledAfterMs: number;
  first: FirstRequest[];
}

/**
 * Waits until the tree spent at most `idleNsPerS` per second over `quietMs`; returns its CPU at the
 * start of that spell (never quiet: its CPU at the timeout, a lower bound).
 */
async function quiet(pid: number, quietMs: number, idleNsPerS = 20e6, timeoutMs = 120_000): Promise<{ ns: number; at: number }> {
  const calm = await quietSpell(() => treeCpuNs(pid), quietMs, (idleNsPerS * quietMs) / 1000, timeoutMs, 50);
  return calm === null ? { ns: treeCpuNs(pid), at: performance.now() } : { ns: calm.value, at: calm.at };
}

async function startAula(dist: string, aula: string) {
  const port = await freePort(HOST);
  const started = await startServerProcess(process.execPath, [aula, 'serve', '--dist', dist, '--port', String(port), '--host', HOST, '--quiet'], `http://${HOST}:${port}${EVENTS}?limit=1`, { cwd: ROOT, env: aulaEnv() });
  if (!started.ok) throw new Error(`aula serve did not start: ${started.message}`);
  return { ...started, origin: `http://${HOST}:${port}` };
}

/**
 * Each URL once, in order (each after `before` resolved): the client's wall time and the CPU `pid`
 * spent meanwhile.
 */
async function timed(origin: string, pid: number, urls: readonly [string, string][], before?: () => Promise<void>): Promise<FirstRequest[]> {
  const out: FirstRequest[] = [];
  for (const [kind, url] of urls) {
    await before?.();
    const faults = treeMinorFaults(pid);
    const cpu = treeCpuNs(pid);
    const t0 = performance.now();
    const answer = await httpGet(origin + url, 30_000);
    const wallMs = performance.now() - t0;
    out.push({ kind, status: answer.status, wallMs, cpuMs: (treeCpuNs(pid) - cpu) / 1e6, faults: treeMinorFaults(pid) - faults });
  }
  return out;
}

/**
 * `settleMs`: how long the server must be quiet to count as settled (longer than the delay before
 * any work a server defers); `aula`: the bin/aula.cjs to run (another checkout's, for a before/after).
 */
export async function measureStartUp(dist: string, settleMs = 2_500, aula = AULA): Promise<StartUp> {
  const a = await startAula(dist, aula);
  let backgroundCpuMs: number;
  let settledAfterMs: number;
  let coldStartMs: number;
  let startCpuMs: number;
  try {
    coldStartMs = a.coldStartMs;
    const pid = a.server.child.pid!;
    const t0 = performance.now();
    const first = treeCpuNs(pid);
    startCpuMs = first / 1e6;
    const calm = await quiet(pid, settleMs);
    settledAfterMs = calm.at - t0;
    backgroundCpuMs = (calm.ns - first) / 1e6;
  } finally {
    await stopTracked(a.server);
  }
  const b = await startAula(dist, aula);
  try {
    const first = await timed(b.origin, b.server.child.pid!, firstUrls());
    return { coldStartMs, startCpuMs, backgroundCpuMs, settledAfterMs, first };
  } finally {
    await stopTracked(b.server);
  }
}

/** Whether something accepts connections on host:port. */
function accepts(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host, port }, () => {
      socket.destroy();
      resolve(true);
    });
    socket.on('error', () => resolve(false));
  });
}

/** workerd's binary, as the workerd package resolves it; null when it cannot run here. */
async function workerdBinary(): Promise<string | null> {
  try {
    const pkg = 'workerd';
    const main = ((await import(pkg)) as { default: string | { default: string } }).default;
    return typeof main === 'string' ? main : main.default;
  } catch {
    return null;
  }
}

/** A fresh workerd's start, CPU ms: its own until it accepts connections, then the isolate's until idle. */
export interface IsolateStart {
  /** spawn → the first connection accepted */
  acceptCpuMs: number;
  /** the first connection accepted → idle with no request asked: workerd evaluates the bundle then */
  startCpuMs: number;
}

export interface EdgeStartUp {
  /** the start of the isolate that answers `load` and `first` */
  start: IsolateStart;
  /** the isolate's first request once idle (an unfiltered page; it loads what that needs): its CPU */
  loadCpuMs: number;
  /** each kind's first request after that one, in one isolate */
  first: FirstRequest[];
  /** each kind's request as the first request of a fresh isolate, asked once it is idle (it loads what that kind needs) */
  fresh: (FirstRequest & { start: IsolateStart })[];
  /**
   * A worker that answers every request with a constant body, in the same workerd configuration:
   * workerd's own part of a start and a request (medians of REFERENCE_STARTS fresh starts).
   */
  constant: { start: IsolateStart; firstCpuMs: number };
}

const REFERENCE_STARTS = 5;
const CONSTANT_WORKER = "export default { fetch: () => new Response('{}', { headers: { 'content-type': 'application/json' } }) };\n";

/** `text` with `pattern` replaced; throws where it is not there (the measurement would be of another configuration). */
function replaced(text: string, pattern: string | RegExp, by: string): string {
  const out = text.replace(pattern, by);
  if (out === text) throw new Error(`bench: the edge config has no ${String(pattern)} to replace`);
  return out;
}

/**
 * workerd counts as idle once its threads have neither run nor waited to run for more than
 * `allowanceNs` over `quietMs` (its timers; a request's or the bundle's evaluation is a
 * millisecond or more). It evaluates the bundle after it starts accepting connections, so a
 * request asked at once would pay for part of that.
 */
const IDLE = { quietMs: 250, allowanceNs: 0.5e6, timeoutMs: 60_000, stepMs: 10 };

/** Whether `pid`'s tree became idle (IDLE) within IDLE.timeoutMs. */
export async function idle(pid: number, busyNs: (pid: number) => number = (p) => treeBusyNs(p), clock?: SettleClock): Promise<boolean> {
  return (await quietSpell(() => busyNs(pid), IDLE.quietMs, IDLE.allowanceNs, IDLE.timeoutMs, IDLE.stepMs, clock)) !== null;
}

/**
 * A workerd over `dist` (its edge/ bundle, or `worker`: another build's worker.js over the same
 * data, for a before/after) with `maxDataBytes` raised, listening and idle, no request made yet;
 * `start`: the CPU its start took.
 */
async function startWorkerd(binary: string, dist: string, maxDataBytes: number, worker?: string) {
  const port = await freePort(HOST);
  const config = readFileSync(join(dist, 'edge/workerd.capnp'), 'utf8');
  // the bench's dist is larger than an isolate is allowed by default: the limit is a setting
  let configured = replaced(config, /bindings = \[/, `bindings = [ (name = "AULA_MAX_DATA_BYTES", text = "${maxDataBytes}"),`);
  // (the dist's own worker.js is embedded as it is)
  if (worker !== undefined && resolve(worker) !== resolve(dist, 'edge/worker.js')) configured = replaced(configured, 'embed "worker.js"', `embed ${JSON.stringify(relative(join(dist, 'edge'), resolve(worker)))}`);
  // beside the bundle, which it embeds by a relative name; removed by stop()
  const configFile = join(dist, `edge/bench-workerd-${port}.capnp`);
  writeFileSync(configFile, configured);
  const child = spawn(binary, ['serve', configFile, '--socket-addr', `http=${HOST}:${port}`, '--directory-path', `assets=${dist}`], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  const stop = async () => {
    child.kill('SIGTERM');
    await new Promise((r) => (child.exitCode !== null ? r(null) : child.once('exit', r)));
    rmSync(configFile, { force: true });
  };
  const pid = child.pid!;
  let start: IsolateStart;
  try {
    const deadline = performance.now() + 30_000;
    while (!(await accepts(HOST, port))) {
      if (child.exitCode !== null || performance.now() > deadline) throw new Error(`workerd did not start: ${output.slice(-1000)}`);
      await new Promise((r) => setTimeout(r, 10));
    }
    const accepted = treeCpuNs(pid);
    if (!(await idle(pid))) throw new Error(`workerd did not become idle within ${IDLE.timeoutMs} ms of accepting: ${output.slice(-1000)}`);
    start = { acceptCpuMs: accepted / 1e6, startCpuMs: (treeCpuNs(pid) - accepted) / 1e6 };
  } catch (e) {
    await stop();
    throw e;
  }
  return { origin: `http://${HOST}:${port}`, pid, start, output: () => output, stop };
}

/** `dist` built with --edge; `maxDataBytes` raised for a bench-sized dist; `worker`: another worker.js than the dist's. */
export async function measureEdgeFirst(dist: string, maxDataBytes = 4e9, worker?: string): Promise<EdgeStartUp | { unavailable: string }> {
  const binary = await workerdBinary();
  if (binary === null) return { unavailable: 'the workerd package is not installed' };
  if (!existsSync(join(dist, 'edge/workerd.capnp'))) return { unavailable: 'the dist has no edge/ (built without --edge)' };
  const w = await startWorkerd(binary, dist, maxDataBytes, worker);
  let loadCpuMs: number;
  let first: FirstRequest[];
  try {
    const [load] = await timed(w.origin, w.pid, [['load', `${EVENTS}?limit=1`]]);
    if (load.status !== 200) throw new Error(`workerd answered ${load.status}: ${w.output().slice(-1000)}`);
    loadCpuMs = load.cpuMs;
    // each once workerd is idle again: no request pays for the work its predecessor left
    first = await timed(w.origin, w.pid, firstUrls(), async () => {
      if (!(await idle(w.pid))) throw new Error(`workerd did not become idle within ${IDLE.timeoutMs} ms after a request: ${w.output().slice(-1000)}`);
    });
  } finally {
    await w.stop();
  }
  const fresh: EdgeStartUp['fresh'] = [];
  for (const url of firstUrls()) {
    const f = await startWorkerd(binary, dist, maxDataBytes, worker);
    try {
      const [one] = await timed(f.origin, f.pid, [url]);
      fresh.push({ ...one, start: f.start });
    } finally {
      await f.stop();
    }
  }
  return { start: w.start, loadCpuMs, first, fresh, constant: await measureConstantWorker(binary, dist, maxDataBytes) };
}

/** The constant worker (EdgeStartUp.constant) over `dist`'s workerd configuration. */
async function measureConstantWorker(binary: string, dist: string, maxDataBytes: number): Promise<EdgeStartUp['constant']> {
  const folder = mkdtempSync(join(tmpdir(), 'aula-bench-constant-'));
  try {
    const worker = join(folder, 'worker.js');
    writeFileSync(worker, CONSTANT_WORKER);
    const samples: { start: IsolateStart; cpuMs: number }[] = [];
    for (let i = 0; i < REFERENCE_STARTS; i++) {
      const f = await startWorkerd(binary, dist, maxDataBytes, worker);
      try {
        const [one] = await timed(f.origin, f.pid, [['constant', EVENTS]]);
        if (one.status !== 200) throw new Error(`the constant worker answered ${one.status}: ${f.output().slice(-1000)}`);
        samples.push({ start: f.start, cpuMs: one.cpuMs });
      } finally {
        await f.stop();
      }
    }
    return {
      start: { acceptCpuMs: median(samples.map((s) => s.start.acceptCpuMs)), startCpuMs: median(samples.map((s) => s.start.startCpuMs)) },
      firstCpuMs: median(samples.map((s) => s.cpuMs)),
    };
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

/**
 * Each kind's request as a fresh isolate's first, `repeat` times per worker.js of `workers`, the
 * workers taken in turn for every sample (A, B, A, B: the same minutes for each): the median CPU
 * ms per kind and worker, and each sample.
 */
async function compareEdgeFirst(
  dist: string,
  workers: readonly string[],
  repeat: number,
  only?: readonly string[],
  maxDataBytes = 4e9,
): Promise<{ kind: string; samples: number[][]; faults: number[][] }[] | { unavailable: string }> {
  const binary = await workerdBinary();
  if (binary === null) return { unavailable: 'the workerd package is not installed' };
  const urls = only === undefined ? firstUrls() : firstUrls().filter(([kind]) => only.includes(kind));
  if (only !== undefined && urls.length !== only.length) throw new Error(`bench: no kind named ${only.filter((k) => !urls.some(([kind]) => kind === k)).join(', ')}`);
  const out: { kind: string; samples: number[][]; faults: number[][] }[] = [];
  for (const url of urls) {
    const samples = workers.map((): number[] => []);
    const faults = workers.map((): number[] => []);
    for (let r = 0; r < repeat; r++) {
      for (let w = 0; w < workers.length; w++) {
        const f = await startWorkerd(binary, dist, maxDataBytes, workers[w]);
        try {
          const [one] = await timed(f.origin, f.pid, [url]);
          if (one.status !== 200) throw new Error(`${workers[w]} answered ${one.status} to ${url[1]}: ${f.output().slice(-1000)}`);
          samples[w].push(one.cpuMs);
          faults[w].push(one.faults);
        } finally {
          await f.stop();
        }
      }
    }
    out.push({ kind: url[0], samples, faults });
  }
  return out;
}

const median = (xs: readonly number[]) => {
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

function compareMarkdown(workers: readonly string[], rows: { kind: string; samples: number[][]; faults: number[][] }[]): string {
  const lines = [
    `| first request of (a fresh isolate's) | ${workers.map((w) => `${w}: median CPU ms`).join(' | ')} | ${workers.map((w) => `${w}: median minor faults`).join(' | ')} | samples (CPU ms) |`,
    `|---|${workers.map(() => '---:|---:|').join('')}---|`,
  ];
  for (const { kind, samples, faults } of rows) {
    lines.push(
      `| ${kind} | ${samples.map((s) => median(s).toFixed(1)).join(' | ')} | ${faults.map((f) => median(f).toFixed(0)).join(' | ')} | ${samples.map((s) => s.map((x) => x.toFixed(0)).join(' ')).join(' / ')} |`,
    );
  }
  return `${lines.join('\n')}\n`;
}

/** Targets of issue 34 (CPU ms): background work after the first answer, a first request, a workerd isolate's first filtered request. */
export const START_UP_TARGETS = { backgroundMs: 1_000, firstMs: 20, edgeFirstMs: 50 };

export function startUpMarkdown(s: StartUp, edge?: EdgeStartUp | { unavailable: string }): string {
  const ms = (x: number) => x.toFixed(1);
  const T = START_UP_TARGETS;
  const verdict = (ok: boolean) => (ok ? 'met' : '**missed**');
  const e = edge && 'first' in edge ? edge : undefined;
  const lines = [
    '## Start → full speed',
    '',
    `Cold start (spawn → first 200) ${ms(s.coldStartMs)} ms wall, ${ms(s.startCpuMs)} ms of CPU. After its first answer the server spent **${ms(s.backgroundCpuMs)} ms** of CPU ` +
      `(every thread, /proc schedstat) before it was quiet (target ≤ ${T.backgroundMs.toLocaleString('en-US')} ms: ${verdict(s.backgroundCpuMs <= T.backgroundMs)}; settled ${ms(s.settledAfterMs)} ms after). ` +
      `Then a fresh server, each kind's first request right after its first 200, in this order; judged by the server's CPU for it (the wall time includes the client and the machine's other work):`,
    '',
    `| first request of | status | server CPU ms | ≤ ${T.firstMs} ms | wall ms |` +
      (e ? ` workerd CPU ms, after the isolate's first | a fresh isolate's start, workerd CPU ms: to accepting + to idle | a fresh isolate's first, workerd CPU ms | ≤ ${T.edgeFirstMs} ms | its minor faults |` : ''),
    '|---|---:|---:|---|---:|' + (e ? '---:|---:|---:|---|---:|' : ''),
  ];
  s.first.forEach((f, i) => {
    const w = e?.first[i];
    const fresh = e?.fresh[i];
    lines.push(
      `| ${f.kind} | ${f.status} | ${ms(f.cpuMs)} | ${verdict(f.cpuMs <= T.firstMs)} | ${ms(f.wallMs)} |` +
        (w && fresh ? ` ${ms(w.cpuMs)} | ${startCell(fresh.start)} | ${ms(fresh.cpuMs)} | ${verdict(fresh.cpuMs <= T.edgeFirstMs)} | ${fresh.faults} |` : ''),
    );
  });
  if (e) lines.push('', edgeNote(e));
  else if (edge && 'unavailable' in edge) lines.push('', `workerd: ${edge.unavailable}`);
  return `${lines.join('\n')}\n`;
}

/**
 * Both parts of a start: where the bench sees workerd accept depends on when it is scheduled
 * (the bundle may be evaluated by then), so the sum is the start and the split a guide.
 */
const startCell = (s: IsolateStart) => `${s.acceptCpuMs.toFixed(1)} + ${s.startCpuMs.toFixed(1)}`;

/** How the workerd columns are measured, and the starts' figures. */
function edgeNote(e: EdgeStartUp): string {
  const ms = (x: number) => x.toFixed(1);
  const starts = e.fresh.map((f) => f.start);
  return (
    "workerd, measured apart as Cloudflare accounts them: an isolate's start (the bundle's evaluation, its own limit) and a request's CPU. " +
    'workerd evaluates the bundle after it starts accepting connections, so each workerd is first left until idle ' +
    `(its threads neither ran nor waited to run for more than ${IDLE.allowanceNs / 1e6} ms over ${IDLE.quietMs} ms) with no request asked: ` +
    `a fresh workerd's start, spawn → accepting, median ${ms(median(starts.map((s) => s.acceptCpuMs)))} ms of CPU; ` +
    `the isolate's start, accepting → idle, median ${ms(median(starts.map((s) => s.startCpuMs)))} ms; the whole start, median ${ms(median(starts.map((s) => s.acceptCpuMs + s.startCpuMs)))} ms ` +
    "(per fresh isolate in its column; the bench sees the accepting when it is scheduled, so on a busy machine part of the evaluation may fall before it). " +
    `For reference, a worker that answers a constant body in the same configuration: start ${startCell(e.constant.start)} ms, ` +
    `its first request ${ms(e.constant.firstCpuMs)} ms (medians of ${REFERENCE_STARTS}): workerd's own part of each. ` +
    `Then a request, judged by the CPU workerd spent on it. workerd loads per need: an isolate fetches and checks each data file when an answer first reads it. ` +
    `In one isolate (start ${startCell(e.start)} ms), its first request (an unfiltered page: the manifest, the rows' offsets and their first part) took ${ms(e.loadCpuMs)} ms, ` +
    "then each kind's first request after it, each once idle again (the first workerd column); the last columns are each kind's request as a fresh isolate's first (judged by that one)."
  );
}

/** The workerd rows alone (`--edge-only`): each kind's CPU after the isolate's first request and as a fresh isolate's first. */
function edgeMarkdown(e: EdgeStartUp): string {
  const ms = (x: number) => x.toFixed(1);
  const lines = [
    `| first request of | status | workerd CPU ms, after the isolate's first | a fresh isolate's start, workerd CPU ms: to accepting + to idle | a fresh isolate's first, workerd CPU ms | ≤ ${START_UP_TARGETS.edgeFirstMs} ms | its minor faults |`,
    '|---|---:|---:|---:|---:|---|---:|',
  ];
  e.fresh.forEach((fresh, i) => {
    const verdict = fresh.cpuMs <= START_UP_TARGETS.edgeFirstMs ? 'met' : '**missed**';
    lines.push(`| ${fresh.kind} | ${fresh.status} | ${ms(e.first[i].cpuMs)} | ${startCell(fresh.start)} | ${ms(fresh.cpuMs)} | ${verdict} | ${fresh.faults} |`);
  });
  lines.push('', edgeNote(e));
  return `${lines.join('\n')}\n`;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const arg = (name: string) => {
    const i = process.argv.indexOf(name);
    return i >= 0 ? process.argv[i + 1] : undefined;
  };
  const dist = arg('--dist');
  if (!dist) {
    throw new Error("usage: tsx bench/start-up.ts --dist DIR [--aula BIN] [--edge-only [--worker JS]]   (BIN: another checkout's bin/aula.cjs; workerd is measured with this one's only; JS: another build's edge/worker.js over DIR's data)");
  }
  const workers = process.argv.flatMap((a, i) => (a === '--worker' ? [process.argv[i + 1]] : []));
  if (process.argv.includes('--edge-only') && workers.length > 1) {
    const only = process.argv.flatMap((a, i) => (a === '--only' ? [process.argv[i + 1]] : []));
    const rows = await compareEdgeFirst(dist, workers, Number(arg('--repeat') ?? 5), only.length > 0 ? only : undefined);
    console.log('unavailable' in rows ? `workerd: ${rows.unavailable}` : compareMarkdown(workers, rows));
  } else if (process.argv.includes('--edge-only')) {
    const worker = arg('--worker');
    const edge = await measureEdgeFirst(dist, undefined, worker);
    console.log('first' in edge ? edgeMarkdown(edge) : `workerd: ${edge.unavailable}`);
  } else {
    const aula = arg('--aula');
    const s = await measureStartUp(dist, undefined, aula ? resolve(aula) : AULA);
    console.log(startUpMarkdown(s, aula ? undefined : await measureEdgeFirst(dist)));
  }
}
