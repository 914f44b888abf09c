// `aula build` stopped by SIGINT or SIGTERM: Node would end at once, leaving the lock and a
// half-written staging folder in the user's project. Both go first, with one line and the shell's
// exit code. A dist parked mid-swap is put back by the next build.
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
