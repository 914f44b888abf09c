// One `aula` command run as a child process and measured: wall time from spawn to exit, peak RSS
// and CPU time of its process tree (bench/peak-rss.ts), and for builds the per-phase figures it
// prints with --timings, so a missed target names its phase.
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { PRELOAD, sampleTree, type TreePeak } from './peak-rss.ts';
import { aulaEnv, spawnTracked, stopTracked } from './processes.ts';

export interface BuildOutput {
  /** the "built … in … s" line */
  summary: string;
  /** phase → seconds, in the order the build ran them */
  phases: [string, number][];
  /** phase → seconds of CPU (all threads), where the build printed them */
  cpu?: [string, number][];
  cache?: { reused: number; parsed: number };
}

export interface MeasuredRun extends TreePeak, BuildOutput {
  wallMs: number;
}

/**
 * Reads what `aula build --timings` prints after its summary line: two-space indented
 * "name   1.23 s" lines and the cache line ("  cache   N files reused, M parsed").
 */
export function parseBuildOutput(text: string): BuildOutput {
  const lines = text.split('\n');
  const at = lines.findLastIndex((l) => l.startsWith('built '));
  const out: BuildOutput = { summary: at >= 0 ? lines[at].trim() : '', phases: [] };
  if (at < 0) return out;
  for (const line of lines.slice(at + 1)) {
    const cache = /^ {2}cache\s+(\d+) files reused, (\d+) parsed/.exec(line);
    if (cache) {
      out.cache = { reused: Number(cache[1]), parsed: Number(cache[2]) };
      continue;
    }
    const phase = /^ {2}(\S(?:.*\S)?)\s+(\d+(?:\.\d+)?) s(?:, (\d+(?:\.\d+)?) s CPU)?$/.exec(line);
    if (phase) {
      out.phases.push([phase[1], Number(phase[2])]);
      if (phase[3] !== undefined) (out.cpu ??= []).push([phase[1], Number(phase[3])]);
    }
  }
  return out;
}

let runs = 0;

/**
 * Runs `node [--import preload] bin/aula.cjs <args>` to its end and measures it; throws with the
 * command's output when it fails or outlives `timeoutMs`.
 */
export async function measuredAula(
  aula: string,
  args: readonly string[],
  options: { cwd: string; scratch: string; timeoutMs?: number },
): Promise<MeasuredRun> {
  const rusageFile = join(options.scratch, `rusage-${process.pid}-${++runs}.jsonl`);
  const t0 = performance.now();
  const proc = spawnTracked(process.execPath, ['--import', PRELOAD, aula, ...args], {
    cwd: options.cwd,
    env: aulaEnv({ ...process.env, AULA_BENCH_RUSAGE: rusageFile }),
  });
  const sampler = sampleTree(proc.child.pid!, rusageFile);
  const limit = setTimeout(() => void stopTracked(proc), options.timeoutMs ?? 600_000);
  const code = await proc.exited;
  const wallMs = performance.now() - t0;
  clearTimeout(limit);
  const peak = sampler.stop();
  if (code !== 0) throw new Error(`aula ${args[0]} failed (${code}):\n${proc.output().trim()}`);
  return { wallMs, ...peak, ...parseBuildOutput(proc.output()) };
}
