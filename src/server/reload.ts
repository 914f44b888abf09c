// Swapping in a replaced dist/. A reload that finds the dist incomplete or inconsistent (a
// manifest copied before its data files, a checksum that does not match yet) keeps the old data
// answering and tries again with backoff until the dist is whole; readiness is false meanwhile,
// so a load balancer can tell the server is behind. A load is asynchronous (the old data answers
// while it runs) and one runs at a time: a trigger during one loads again once it is done, since
// the files may have changed after it read them.
import { unwatchFile, watchFile, type Stats } from 'node:fs';

export interface ReloadOptions {
  /**
   * loads the new data and swaps it in; rejects (and swaps nothing) when it cannot; resolves false
   * when it swapped nothing on purpose (its data was replaced meanwhile: no retry)
   */
  load(): Promise<boolean | void>;
  log(line: string): void;
  /** first retry after this long (default 100 ms), doubling … */
  firstRetryMs?: number;
  /** … up to this (default 5 s) */
  maxRetryMs?: number;
  /** runs `retry` after `ms` and returns what cancels it (default: an unref'd setTimeout; tests pass their own clock) */
  schedule?: (retry: () => Promise<boolean>, ms: number) => () => void;
}

function afterDelay(retry: () => Promise<boolean>, ms: number): () => void {
  const timer = setTimeout(() => void retry(), ms);
  timer.unref();
  return () => clearTimeout(timer);
}

export interface Reloader {
  /**
   * loads now, or once the load running now is done; on failure keeps the old data and schedules
   * retries. Resolves true when the new data is in (never rejects).
   */
  reload(): Promise<boolean>;
  /** false while the last reload failed and no retry has succeeded yet */
  readonly ready: boolean;
  /** stops: no retry, no load starts any more, and one finishing now resolves false */
  stop(): void;
  /** the data was replaced from elsewhere (aula dev): retries pending are cancelled, and ready again */
  replaced(): void;
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

  /** the load running now, and the one a trigger during it asked for */
  let running: Promise<boolean> | undefined;
  let queued: Promise<boolean> | undefined;

  const attempt = async (): Promise<boolean> => {
    let swapped: boolean | void;
    try {
      swapped = await options.load();
    } catch (e) {
      const problem = (e as Error).message;
      ready = false;
      if (!stopped) {
        // one line per new problem, not one per retry: a dist that stays broken would flood the log
        if (problem !== lastProblem) options.log(`kept serving the previous data: ${problem} (retrying until the dist is complete)`);
        lastProblem = problem;
        cancelRetry = schedule(() => run(false), delay);
        delay = Math.min(delay * 2, max);
      }
      return false;
    }
    // (a load finished after stop swapped nothing: live-data drops what it loaded)
    if (stopped || swapped === false) return false;
    ready = true;
    delay = first;
    lastProblem = '';
    return true;
  };

  /** `fresh`: an outside trigger (a changed manifest, SIGHUP), which starts the backoff afresh */
  const run = (fresh: boolean): Promise<boolean> => {
    if (stopped) return Promise.resolve(false);
    if (running) {
      queued ??= running.then(() => {
        queued = undefined;
        return stopped ? false : run(true);
      });
      return queued;
    }
    cancelRetry?.();
    cancelRetry = undefined;
    if (fresh) delay = first;
    running = attempt().finally(() => {
      running = undefined;
    });
    return running;
  };

  return {
    reload: () => run(true),
    get ready() {
      return ready;
    },
    stop() {
      stopped = true;
      cancelRetry?.();
      cancelRetry = undefined;
    },
    replaced() {
      cancelRetry?.();
      cancelRetry = undefined;
      ready = true;
      delay = first;
      lastProblem = '';
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
