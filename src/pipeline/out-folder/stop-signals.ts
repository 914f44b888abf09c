// `aula build` stopped by Ctrl-C or a cancelled CI job (SIGINT, SIGTERM): Node's default ends the
// process at once, which would leave the lock beside --out (`.aula-lock-<out>`) and the half-written
// staging folder (`.aula-tmp-<out>-…`, up to hundreds of MB) in the user's project, showing in
// `git status` until the next build removes them. So both go before the process ends, with one
// line and the shell's exit code for the signal. The previous dist is untouched (or, stopped
// mid-swap, parked, and put back by the next build); the cache's temporaries are the next build's
// to clear (stale-temps.ts).
import { releaseHeldLocks } from './lock.ts';
import { hasSwapped, removeLiveStaging } from './swap.ts';

const CODES = { SIGINT: 130, SIGTERM: 143 } as const;

/** For a build run from the command line: what it made so far is removed when a signal stops it. */
export function cleanUpOnStop(say: (line: string) => void): void {
  for (const signal of Object.keys(CODES) as (keyof typeof CODES)[]) {
    process.once(signal, () => {
      removeLiveStaging();
      releaseHeldLocks();
      say(`aula: stopped by ${signal}${hasSwapped() ? '' : '; the previous dist stays as it was'}`);
      process.exit(CODES[signal]);
    });
  }
}
