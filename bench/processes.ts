// Child processes of the bench (build, servers): spawning, cold start, RSS, and making sure none
// outlives the bench, whatever way it ends.
import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { createServer } from 'node:net';
import { performance } from 'node:perf_hooks';
import { hugePageEnv } from '../src/util/huge-pages.ts';

/**
 * The environment node gets from the `aula` program (bin/aula.cjs started as users start it: its
 * first line sets glibc's huge-page tunable, then becomes node). The bench runs
 * `node <flags> bin/aula.cjs` to put flags and preloads before it, so it sets what that line would.
 */
export const aulaEnv = (env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv => ({ ...env, ...hugePageEnv(env) });

export interface Tracked {
  child: ChildProcess;
  /** last few KiB of stdout+stderr, to explain a failure */
  output(): string;
  /** resolves with the exit code (or signal name) once the process has ended */
  exited: Promise<number | string>;
}

const live = new Set<ChildProcess>();
const tempDirs = new Set<string>();

/**
 * Each child leads its own process group (detached), so a cluster primary and its workers can be
 * signalled together, and a Ctrl-C at the terminal reaches only the bench, which then ends them
 * itself instead of leaving a half-stopped server behind.
 */
export function spawnTracked(command: string, args: readonly string[], options: SpawnOptions = {}): Tracked {
  const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], ...options, detached: true });
  live.add(child);
  let tail = '';
  const keep = (chunk: Buffer) => {
    tail = (tail + chunk.toString('utf8')).slice(-8192);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const exited = new Promise<number | string>((resolve) => {
    child.once('exit', (code, signal) => {
      live.delete(child);
      resolve(code ?? signal ?? 'unknown');
    });
    child.once('error', (e) => {
      live.delete(child);
      tail += `\n${e.message}`;
      resolve('spawn error');
    });
  });
  return { child, output: () => tail, exited };
}

function signalGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    try {
      child.kill(signal);
    } catch {
      // already gone
    }
  }
}

const stopped = new WeakSet<Tracked>();

/**
 * SIGTERM (a clean server close), then SIGKILL if it has not ended within `graceMs`; once it has
 * ended, one SIGKILL to its group for cluster workers a dying primary left behind. Idempotent:
 * a group id is never signalled again later, when it could belong to someone else.
 */
export async function stopTracked(t: Tracked, graceMs = 3000): Promise<void> {
  if (stopped.has(t)) return;
  stopped.add(t);
  if (t.child.exitCode === null && t.child.signalCode === null) {
    signalGroup(t.child, 'SIGTERM');
    const timer = new Promise<'timeout'>((resolve) => setTimeout(() => resolve('timeout'), graceMs).unref());
    if ((await Promise.race([t.exited, timer])) === 'timeout') signalGroup(t.child, 'SIGKILL');
    await t.exited;
  }
  signalGroup(t.child, 'SIGKILL');
}

export function registerTempDir(dir: string): void {
  tempDirs.add(dir);
}

/** Synchronous, so it also works from the 'exit' event. */
export function cleanupNow(keepTemp = false): void {
  for (const child of live) signalGroup(child, 'SIGKILL');
  live.clear();
  if (!keepTemp) for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true });
  tempDirs.clear();
}

export function installCleanup(keepTemp: () => boolean): void {
  process.once('exit', () => cleanupNow(keepTemp()));
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.once(signal, () => {
      console.error(`\nbench: ${signal}, stopping child processes and removing temp files`);
      cleanupNow(keepTemp());
      process.exit(130);
    });
  }
}

/** A port the kernel just handed out; the tiny window before the server binds it is acceptable here. */
export function freePort(host = '127.0.0.1'): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, host, () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

export interface HttpAnswer {
  status: number;
  body: Buffer;
}

/** One GET on a fresh connection, bounded by `timeoutMs`. */
export function httpGet(url: string, timeoutMs = 5000): Promise<HttpAnswer> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'GET', agent: false, timeout: timeoutMs }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new Error(`timeout after ${timeoutMs} ms`)));
    req.on('error', reject);
    req.end();
  });
}

export type Started = { ok: true; server: Tracked; coldStartMs: number } | { ok: false; message: string };

/**
 * Spawns a server and polls `readyUrl` every 10 ms; cold start is spawn → first 200 answer, so
 * it includes Node's own start-up and the loading of dist/, which is what a restart costs.
 */
export async function startServerProcess(
  command: string,
  args: readonly string[],
  readyUrl: string,
  options: SpawnOptions & { timeoutMs?: number } = {},
): Promise<Started> {
  const { timeoutMs = 60_000, ...spawnOptions } = options;
  const t0 = performance.now();
  const server = spawnTracked(command, args, spawnOptions);
  let exitedWith: number | string | undefined;
  void server.exited.then((code) => (exitedWith = code));
  while (performance.now() - t0 < timeoutMs) {
    if (exitedWith !== undefined) {
      return { ok: false, message: `exited (${exitedWith}) before answering: ${server.output().trim().slice(-1500)}` };
    }
    try {
      const answer = await httpGet(readyUrl, 2000);
      if (answer.status === 200) return { ok: true, server, coldStartMs: performance.now() - t0 };
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 10));
  }
  await stopTracked(server);
  return { ok: false, message: `no 200 answer from ${readyUrl} within ${timeoutMs / 1000} s: ${server.output().trim().slice(-1500)}` };
}

/** The direct children of a process, from /proc (every thread's `children` list). */
export function childPids(pid: number): number[] {
  const out: number[] = [];
  let tasks: string[];
  try {
    tasks = readdirSync(`/proc/${pid}/task`);
  } catch {
    return out;
  }
  for (const tid of tasks) {
    try {
      const text = readFileSync(`/proc/${pid}/task/${tid}/children`, 'utf8').trim();
      if (text) out.push(...text.split(/\s+/).map(Number));
    } catch {
      // thread ended meanwhile
    }
  }
  return out;
}

function status(pid: number): { name: string; rss: number } | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/status`, 'utf8');
    const name = /^Name:\s+(.*)$/m.exec(text)?.[1] ?? '';
    const rss = /^VmRSS:\s+(\d+)\s+kB/m.exec(text);
    return { name, rss: rss ? Number(rss[1]) * 1024 : 0 };
  } catch {
    return undefined;
  }
}

/**
 * Resident memory of a process and its descendants of the same executable: cluster workers are
 * separate node processes and count, helpers of another program (tsx may start an esbuild
 * service) are not the server's memory and do not.
 */
export function treeRss(pid: number): { bytes: number; processes: number; each: number[] } {
  const root = status(pid);
  if (!root) return { bytes: 0, processes: 0, each: [] };
  let bytes = 0;
  let processes = 0;
  const each: number[] = [];
  for (const p of treePids(pid)) {
    const s = status(p);
    if (s && s.name === root.name && s.rss > 0) {
      bytes += s.rss;
      processes++;
      each.push(s.rss);
    }
  }
  return { bytes, processes, each };
}

/** A process and its descendants: the pids, the process first. */
export function treePids(pid: number): number[] {
  const pids: number[] = [];
  const queue = [pid];
  while (queue.length > 0) {
    const p = queue.pop()!;
    pids.push(p);
    queue.push(...childPids(p));
  }
  return pids;
}

/**
 * The sum over a process and its descendants of one figure of /proc/<pid>/stat (every thread's),
 * `pick` given the fields after the command's closing parenthesis (state is the first); a process
 * that ended meanwhile counts nothing.
 */
export function treeStatSum(pid: number, pick: (fields: string[]) => number): number {
  let sum = 0;
  for (const p of treePids(pid)) {
    try {
      const stat = readFileSync(`/proc/${p}/stat`, 'utf8');
      sum += pick(stat.slice(stat.lastIndexOf(')') + 2).split(' '));
    } catch {
      // ended meanwhile
    }
  }
  return sum;
}

/** CPU time (user + system, clock ticks) of a process and all its descendants: utime and stime are the 12th and 13th fields. */
export const treeCpuTicks = (pid: number): number => treeStatSum(pid, (fields) => Number(fields[11]) + Number(fields[12]));

/**
 * How long a started server must be quiet before a pass is measured: aula serve does no work after
 * its first answer (the start-up phase, bench/start-up.ts, measures what it does spend), but
 * anything it did would otherwise be measured with the first pass, or with the baseline before it.
 * Longer than a second, so work begun after a quiet second is waited out too.
 */
export const SERVER_QUIET_MS = 2_000;

/** What a quiet spell is timed by and how it waits: the real clock, or a clock a test turns. */
export interface SettleClock {
  now(): number;
  sleep(ms: number): Promise<void>;
}

const REAL_CLOCK: SettleClock = {
  now: () => performance.now(),
  sleep: (ms) => new Promise((r) => setTimeout(r, ms)),
};

/**
 * Waits until `read()` (a process tree's CPU so far, in any unit) grew by at most `idle` over the
 * last `quietMs`, sampling every `stepMs`; returns the sample at the start of that quiet spell, or
 * null after `timeoutMs`.
 */
export async function quietSpell(
  read: () => number,
  quietMs: number,
  idle: number,
  timeoutMs: number,
  stepMs = 100,
  clock: SettleClock = REAL_CLOCK,
): Promise<{ at: number; value: number } | null> {
  const deadline = clock.now() + timeoutMs;
  const samples = [{ at: clock.now(), value: read() }];
  while (clock.now() < deadline) {
    await clock.sleep(stepMs);
    const now = { at: clock.now(), value: read() };
    samples.push(now);
    while (samples.length > 1 && now.at - samples[1].at >= quietMs) samples.shift();
    if (now.at - samples[0].at >= quietMs && now.value - samples[0].value <= idle) return samples[0];
  }
  return null;
}

/**
 * Waits until a freshly started server has settled: its process tree spent at most `idleTicks`
 * clock ticks of CPU (timers and the like) over the last `quietMs`. Resolves false on timeout.
 */
export async function settled(pid: number, quietMs = 500, timeoutMs = 60_000, idleTicks = 2, clock: SettleClock = REAL_CLOCK, cpuTicks = treeCpuTicks): Promise<boolean> {
  return (await quietSpell(() => cpuTicks(pid), quietMs, idleTicks, timeoutMs, 100, clock)) !== null;
}
