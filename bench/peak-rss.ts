// Peak memory and CPU time of a measured process tree (a build, `aula dev`), with nothing but
// /proc and Node itself, so it works on a fresh Debian machine (/usr/bin/time may be absent).
// Two sources, since neither alone is enough:
// - bench/rusage-preload.mjs, loaded into every Node process of the tree with `--import`, reports
//   each process's getrusage peak RSS and CPU time at its exit: exact, worker threads included;
// - a sampler reads VmHWM (the kernel's per-process RSS high-water mark) of the root and every
//   descendant every 100 ms: it covers processes that are not Node, or end without an 'exit'.
// Each process counts with the larger of the two; the tree's peak is their sum. Peaks of
// different processes need not coincide, so for several processes this is an upper bound; the
// largest sampled sum of current RSS (a lower bound) is kept next to it.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { childPids } from './processes.ts';

export const PRELOAD = pathToFileURL(join(import.meta.dirname, 'rusage-preload.mjs')).href;

export interface TreePeak {
  /** sum over the tree's processes of each one's peak RSS */
  peakRssBytes: number;
  /** largest sum of the processes' current RSS seen by one sample */
  sampledRssBytes: number;
  processes: number;
  /** user + system CPU time of the processes that reported at exit (the preload) */
  cpuMs?: number;
}

export interface RusageLine {
  pid: number;
  maxRssBytes: number;
  userUs: number;
  systemUs: number;
}

/** The preload's lines; a torn or foreign line is skipped, not trusted. */
export function parseRusage(text: string): RusageLine[] {
  const out: RusageLine[] = [];
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    try {
      const v = JSON.parse(line) as Partial<RusageLine>;
      if ([v.pid, v.maxRssBytes, v.userUs, v.systemUs].every((n) => typeof n === 'number' && Number.isFinite(n) && n >= 0)) out.push(v as RusageLine);
    } catch {
      // skipped
    }
  }
  return out;
}

/** Per-process peaks from both sources → the tree's figures. */
export function combinePeaks(sampledHwm: ReadonlyMap<number, number>, reported: readonly RusageLine[], sampledRssBytes: number): TreePeak {
  const peak = new Map(sampledHwm);
  for (const r of reported) peak.set(r.pid, Math.max(peak.get(r.pid) ?? 0, r.maxRssBytes));
  let sum = 0;
  for (const b of peak.values()) sum += b;
  const cpuUs = reported.reduce((s, r) => s + r.userUs + r.systemUs, 0);
  return { peakRssBytes: sum, sampledRssBytes, processes: peak.size, cpuMs: reported.length ? cpuUs / 1000 : undefined };
}

function memoryOf(pid: number): { hwm: number; rss: number } | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (key: string) => Number(new RegExp(`^${key}:\\s+(\\d+)\\s+kB`, 'm').exec(text)?.[1] ?? 0) * 1024;
    return { hwm: kb('VmHWM'), rss: kb('VmRSS') };
  } catch {
    return undefined; // ended meanwhile
  }
}

/**
 * Starts sampling the tree under `rootPid`; `stop()` takes a last sample and combines it with the
 * lines the preload wrote to `rusageFile` (call it after the root has exited, so they are there).
 */
export function sampleTree(rootPid: number, rusageFile: string, intervalMs = 100): { stop(): TreePeak } {
  const hwm = new Map<number, number>();
  let sampledRss = 0;
  const sample = () => {
    let rss = 0;
    const queue = [rootPid];
    const seen = new Set<number>();
    while (queue.length > 0) {
      const pid = queue.pop()!;
      if (seen.has(pid)) continue;
      seen.add(pid);
      const m = memoryOf(pid);
      // a zombie has no memory left to read: it keeps what the earlier samples saw
      if (m && m.hwm > 0) {
        hwm.set(pid, Math.max(hwm.get(pid) ?? 0, m.hwm));
        rss += m.rss;
      }
      queue.push(...childPids(pid));
    }
    sampledRss = Math.max(sampledRss, rss);
  };
  sample();
  const timer = setInterval(sample, intervalMs);
  return {
    stop() {
      clearInterval(timer);
      sample();
      const reported = existsSync(rusageFile) ? parseRusage(readFileSync(rusageFile, 'utf8')) : [];
      return combinePeaks(hwm, reported, sampledRss);
    },
  };
}
