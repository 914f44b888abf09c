// Swapping in a replaced dist/. A reload that finds the dist incomplete or inconsistent (a
// manifest copied before its data files, a checksum that does not match yet) keeps the old data
// answering and tries again with backoff until the dist is whole; readiness is false meanwhile,
// so a load balancer can tell the server is behind.
import { unwatchFile, watchFile, type Stats } from 'node:fs';

export interface ReloadOptions {
  /** loads the new data and swaps it in; throws (and swaps nothing) when it cannot */
  load(): void;
  log(line: string): void;
  /** first retry after this long (default 100 ms), doubling … */
  firstRetryMs?: number;
  /** … up to this (default 5 s) */
  maxRetryMs?: number;
  /** runs `retry` after `ms` and returns what cancels it (default: an unref'd setTimeout; tests pass their own clock) */
  schedule?: (retry: () => void, ms: number) => () => void;
}

function afterDelay(retry: () => void, ms: number): () => void {
  const timer = setTimeout(retry, ms);
  timer.unref();
  return () => clearTimeout(timer);
}

export interface Reloader {
  /** loads now; on failure keeps the old data and schedules retries. True when the new data is in. */
  reload(): boolean;
  /** false while the last reload failed and no retry has succeeded yet */
  readonly ready: boolean;
  /** stops retrying */
  stop(): void;
}

export function reloader(options: ReloadOptions): Reloader {
  const first = options.firstRetryMs ?? 100;
  const max = options.maxRetryMs ?? 5_000;
  const schedule = options.schedule ?? afterDelay;
  let ready = true;
  let cancelRetry: (() => void) | undefined;
  let delay = first;
  let lastProblem = '';
  let stopped = false;

  const attempt = (): boolean => {
    cancelRetry?.();
    cancelRetry = undefined;
    try {
      options.load();
    } catch (e) {
      const problem = (e as Error).message;
      ready = false;
      if (!stopped) {
        // one line per new problem, not one per retry: a dist that stays broken would flood the log
        if (problem !== lastProblem) options.log(`kept serving the previous data: ${problem} (retrying until the dist is complete)`);
        lastProblem = problem;
        cancelRetry = schedule(attempt, delay);
        delay = Math.min(delay * 2, max);
      }
      return false;
    }
    ready = true;
    delay = first;
    lastProblem = '';
    return true;
  };

  return {
    reload() {
      // an outside trigger (a changed manifest, SIGHUP) starts the backoff afresh
      delay = first;
      return attempt();
    },
    get ready() {
      return ready;
    },
    stop() {
      stopped = true;
      cancelRetry?.();
      cancelRetry = undefined;
    },
  };
}

/**
 * Calls `onChange` when dist/manifest.json is replaced. Builds rename a complete tree into place,
 * so the manifest's inode or mtime changes once per build; stat polling follows that across the
 * rename. Returns the function that stops watching.
 */
export function watchManifest(path: string, onChange: () => void): () => void {
  const listener = (now: Stats, before: Stats) => {
    // a zeroed stat means the file is gone for the instant between the two renames of a swap
    if (now.ino !== 0 && (now.ino !== before.ino || now.mtimeMs !== before.mtimeMs)) onChange();
  };
  watchFile(path, { interval: 500, persistent: false }, listener);
  return () => unwatchFile(path, listener);
}
