// Why a row missed its target, from a profile: after the measured passes, the rows that missed are
// run again, against a fresh `aula serve` started under `node --cpu-prof`, each with the same
// generator for the same duration (no warm-up, so the run holds only its own requests), and the
// server's profile is cut into one window per row. The bare baseline server gets the same
// treatment once, as the yardstick of what a request costs when a server does nothing else.
// Profiling costs the server a few per cent, so the figures here are read as proportions and per
// request costs, never as the row's throughput.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { summarizeWindows, type CpuProfile, type WindowSummary } from './cpu-profile.ts';
import type { LoadGenerator } from './generator.ts';
import { settled, stopTracked, treeCpuTicks, type Tracked } from './processes.ts';
import type { QueryKind } from './queries.ts';

export interface ProfiledRow {
  label: string;
  mode: 'repeated' | 'distinct';
  requests: number;
  rps: number;
  /** user + system CPU of the server's process (all its threads) per request, from /proc */
  cpuUsPerRequest: number;
  summary: WindowSummary;
}

export type MissProfiles =
  | { available: true; rows: ProfiledRow[]; bare?: ProfiledRow; durationS: number }
  | { available: false; reason: string };

/** Starts a server with these node flags, listening at `baseUrl`. */
type StartServer = (nodeArgs: string[]) => Promise<{ ok: true; server: Tracked; baseUrl: string } | { ok: false; message: string }>;

const TICK_US = 1e6 / 100; // /proc counts CPU in clock ticks of 10 ms (USER_HZ 100 on Linux)
const nowUs = () => Number(process.hrtime.bigint() / 1000n);

/** The main thread's profile a process wrote at exit: CPU.<date>.<time>.<pid>.<thread>.<seq>.cpuprofile */
function mainThreadProfile(dir: string, pid: number): CpuProfile | undefined {
  const name = readdirSync(dir).find((f) => {
    const parts = f.split('.');
    return f.endsWith('.cpuprofile') && parts[3] === String(pid) && parts[4] === '0';
  });
  return name ? (JSON.parse(readFileSync(join(dir, name), 'utf8')) as CpuProfile) : undefined;
}

/**
 * Runs each of `rows` once against a server started with `--cpu-prof` into `dir`, and returns the
 * server's time per row. `lib` is the folder of aula's compiled modules, so its frames are told
 * from node's.
 */
export async function profileServer(options: {
  start: StartServer;
  rows: { label: string; mode: 'repeated' | 'distinct'; paths: readonly string[] }[];
  generator: LoadGenerator;
  durationS: number;
  dir: string;
  lib: string;
  /** how long the server must be quiet before it is measured (processes.ts `settled`, SERVER_QUIET_MS) */
  quietMs: number;
}): Promise<ProfiledRow[]> {
  const { start, rows, generator, durationS, dir, lib, quietMs } = options;
  const started = await start(['--cpu-prof', '--cpu-prof-dir', dir]);
  if (!started.ok) throw new Error(started.message);
  const pid = started.server.child.pid!;
  const windows: { from: number; to: number; ticks: number; requests: number; rps: number }[] = [];
  try {
    await settled(pid, quietMs);
    for (const row of rows) {
      const from = nowUs();
      const ticks = treeCpuTicks(pid);
      const load = await generator.run({ baseUrl: started.baseUrl, paths: row.paths, durationS, warmupS: 0 });
      windows.push({ from, to: nowUs(), ticks: treeCpuTicks(pid) - ticks, requests: load.requests, rps: load.rps });
    }
  } finally {
    // a clean exit (SIGTERM: the server drains and exits 0) is when node writes the profile
    await stopTracked(started.server, 10_000);
  }
  const profile = mainThreadProfile(dir, pid);
  if (!profile) throw new Error(`the server (pid ${pid}) wrote no main-thread profile into ${dir}`);
  const summaries = summarizeWindows(profile, windows, lib);
  return rows.map((row, i) => {
    const w = windows[i];
    return {
      label: row.label,
      mode: row.mode,
      requests: w.requests,
      rps: w.rps,
      cpuUsPerRequest: w.requests > 0 ? (w.ticks * TICK_US) / w.requests : 0,
      summary: summaries[i],
    };
  });
}

export async function profileMisses(options: {
  misses: { kind: QueryKind; mode: 'repeated' | 'distinct' }[];
  startAula: StartServer;
  startBare: StartServer;
  barePath: string;
  generator: LoadGenerator;
  durationS: number;
  work: string;
  root: string;
  quietMs: number;
  log: (line: string) => void;
}): Promise<MissProfiles> {
  const { misses, generator, durationS, work, root, log } = options;
  if (misses.length === 0) return { available: false, reason: 'no row of the 1-process pass missed its target' };
  const lib = pathToFileURL(join(root, 'lib')).href + '/';
  try {
    log(`profiling the ${misses.length} missed rows (aula serve under --cpu-prof)`);
    const rows = await profileServer({
      start: options.startAula,
      rows: misses.map(({ kind, mode }) => ({ label: kind.label, mode, paths: mode === 'repeated' ? [kind.repeated] : kind.distinct })),
      generator,
      durationS,
      dir: join(work, 'profiles-aula'),
      lib,
      quietMs: options.quietMs,
    });
    const [bare] = await profileServer({
      start: options.startBare,
      rows: [{ label: 'bare node:http server (the baseline)', mode: 'repeated', paths: [options.barePath] }],
      generator,
      durationS,
      dir: join(work, 'profiles-bare'),
      lib,
      quietMs: options.quietMs,
    });
    for (const r of [...rows, bare]) {
      log(`  ${r.label} (${r.mode}): ${r.cpuUsPerRequest.toFixed(0)} µs CPU per request at ${r.rps.toFixed(0)} req/s`);
    }
    return { available: true, rows, bare, durationS };
  } catch (e) {
    const reason = e instanceof Error ? e.message.split('\n')[0] : String(e);
    log(`miss profiles: not available (${reason})`);
    return { available: false, reason };
  }
}
