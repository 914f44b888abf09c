// wrk (Debian package `wrk`, C, event loop per thread) as the bench's load generator: found on
// PATH or installed from Debian, and run as its own process so the load costs the bench's Node
// process nothing. One run = one wrk process over one Lua script (bench/wrk-script.ts).
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LoadResult } from './load.ts';
import { registerTempDir } from './processes.ts';
import { tcpRetransmits } from './tcp-counters.ts';
import { parseWrkOutput, wrkLoadResult } from './wrk-output.ts';
import { wrkScript } from './wrk-script.ts';

/** `wrk -v` prints e.g. "wrk debian/4.1.0-3+b2 [epoll] Copyright (C) 2012 Will Glozer" (and exits 1). */
export function wrkVersion(output: string): string | undefined {
  return /^wrk\s+(\S+(?:\s+\[[^\]]+\])?)/m.exec(output)?.[1];
}

function probeWrk(): string | undefined {
  const r = spawnSync('wrk', ['-v'], { encoding: 'utf8' });
  if (r.error) return undefined;
  return wrkVersion(`${r.stdout}\n${r.stderr}`);
}

export type WrkAvailability = { ok: true; version: string; installed: boolean } | { ok: false; reason: string };

const isRoot = () => typeof process.getuid === 'function' && process.getuid() === 0;
const hasCommand = (name: string) => spawnSync('sh', ['-c', `command -v ${name}`], { stdio: 'ignore' }).status === 0;

/**
 * wrk's version, installing the Debian package first when it is missing: as root with apt-get,
 * otherwise through sudo (which may ask for a password when the bench runs at a terminal).
 * Never throws; `ok: false` carries one line that says why and what to do.
 */
export function ensureWrk(log: (line: string) => void): WrkAvailability {
  const present = probeWrk();
  if (present) return { ok: true, version: present, installed: false };
  if (!hasCommand('apt-get')) return { ok: false, reason: 'wrk is not installed and there is no apt-get to install it; install wrk (https://github.com/wg/wrk) and run again' };
  const prefix = isRoot() ? [] : hasCommand('sudo') ? ['sudo', ...(process.stdin.isTTY ? [] : ['-n'])] : undefined;
  if (!prefix) return { ok: false, reason: 'wrk is not installed, and installing it needs root: run `sudo apt-get install -y wrk` (or the bench as root)' };
  const apt = (...args: string[]) => {
    const [cmd, ...rest] = [...prefix, 'apt-get', ...args];
    log(`installing wrk: ${[cmd, ...rest].join(' ')}`);
    // inherit: apt's progress and a sudo password prompt belong on the terminal
    return spawnSync(cmd, rest, { stdio: ['inherit', 'inherit', 'inherit'], env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } }).status === 0;
  };
  // A fresh machine has no package lists yet: update only when the first try finds nothing.
  if (!apt('install', '-y', 'wrk')) {
    if (!apt('update') || !apt('install', '-y', 'wrk')) {
      return { ok: false, reason: `could not install wrk with ${[...prefix, 'apt-get'].join(' ')} (see the output above); install it by hand (\`apt-get install -y wrk\`)` };
    }
  }
  const version = probeWrk();
  return version ? { ok: true, version, installed: true } : { ok: false, reason: 'apt-get installed wrk but `wrk -v` still fails' };
}

export interface WrkSettings {
  threads: number;
  connections: number;
  /** per-request timeout, seconds */
  timeoutS: number;
  /** count every status code with a response() callback (costs throughput) */
  countStatuses: boolean;
}

/** wrk takes whole seconds (`-d 1.5s` is read as 1 s): never ask for less than the caller meant. */
export const wholeSeconds = (s: number) => Math.max(1, Math.ceil(s - 1e-9));

export function wrkArgs(settings: WrkSettings, scriptPath: string, url: string, durationS: number, start: number): string[] {
  return [
    '-t', String(settings.threads),
    '-c', String(settings.connections),
    '-d', `${wholeSeconds(durationS)}s`,
    '--timeout', `${wholeSeconds(settings.timeoutS)}s`,
    '-s', scriptPath,
    url,
    '--', String(start),
  ];
}

let scriptDir: string | undefined;
let scriptSerial = 0;

/** Writes the script for a path pool into the bench's temp dir (removed when the bench ends). */
export function writeWrkScript(paths: readonly string[], settings: WrkSettings): string {
  if (!scriptDir) {
    scriptDir = mkdtempSync(join(tmpdir(), 'aula-bench-wrk-'));
    registerTempDir(scriptDir);
  }
  const file = join(scriptDir, `load-${++scriptSerial}.lua`);
  writeFileSync(file, wrkScript({ paths, threads: settings.threads, countStatuses: settings.countStatuses }));
  return file;
}

function runProcess(args: string[], limitMs: number): Promise<{ code: number | string; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn('wrk', args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString('utf8')));
    child.stderr.on('data', (c: Buffer) => (stderr = (stderr + c.toString('utf8')).slice(-4096)));
    // wrk stops by itself after -d; this only guards against a wedged process
    const limit = setTimeout(() => child.kill('SIGKILL'), limitMs);
    child.once('error', (e) => {
      clearTimeout(limit);
      resolve({ code: 'spawn error', stdout, stderr: `${stderr}${e.message}` });
    });
    child.once('close', (code, signal) => {
      clearTimeout(limit);
      resolve({ code: code ?? signal ?? 'unknown', stdout, stderr });
    });
  });
}

/**
 * One measured run, after a discarded warm-up run over the same script; the measured run starts
 * in the pool where the warm-up's requests ended, so in distinct mode it does not meet answers
 * the warm-up already cached.
 */
export async function runWrk(options: {
  settings: WrkSettings;
  scriptPath: string;
  poolSize: number;
  baseUrl: string;
  durationS: number;
  warmupS: number;
}): Promise<LoadResult> {
  const { settings, scriptPath, poolSize, baseUrl, durationS, warmupS } = options;
  const once = async (seconds: number, start: number) => {
    const args = wrkArgs(settings, scriptPath, baseUrl, seconds, start);
    const r = await runProcess(args, (wholeSeconds(seconds) + settings.timeoutS + 30) * 1000);
    if (r.code !== 0) throw new Error(`wrk exited with ${r.code}: ${(r.stderr || r.stdout).trim().slice(0, 400)}`);
    return parseWrkOutput(r.stdout);
  };
  const warmupRequests = warmupS > 0 ? (await once(warmupS, 0)).requests : 0;
  const before = tcpRetransmits();
  const measured = { ...wrkLoadResult(await once(durationS, warmupRequests % poolSize)), warmupRequests };
  const after = tcpRetransmits();
  return before === undefined || after === undefined ? measured : { ...measured, tcpRetransmits: after - before };
}
