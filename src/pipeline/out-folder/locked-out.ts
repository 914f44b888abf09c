// --out made safe before a build touches it: checked, locked, a half-done swap put right, dead
// builds' staging removed (recoverDist); `run` is called under the lock. A build stopped by SIGINT
// or SIGTERM (Node would end at once) removes its lock and half-written staging folder first.
import { dirname, resolve } from 'node:path';
import { makeFolders } from '../../util/make-folders.ts';
import type { BuildOptions } from '../run.ts';
import { lockOut, releaseHeldLocks } from './lock.ts';
import { checkOutFolder } from './out-folder.ts';
import { hasSwapped, recoverDist, removeLiveStaging } from './swap.ts';

export async function withLockedOut<T>(options: BuildOptions, run: (out: string) => Promise<T>): Promise<T> {
  const out = resolve(options.out);
  checkOutFolder(out, options.content, options.cache);
  makeFolders(dirname(out));
  const unlock = await lockOut(out, options);
  try {
    // again under the lock: another build may have changed --out meanwhile
    checkOutFolder(out, options.content);
    await recoverDist(out, options.onWarning);
    return await run(out);
  } finally {
    unlock();
  }
}

const CODES = { SIGINT: 130, SIGTERM: 143 } as const;

/** For a build run from the command line: what it made so far is removed when a signal stops it, said in one line with the shell's exit code (a dist parked mid-swap is put back by the next build). */
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
