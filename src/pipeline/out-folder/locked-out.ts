// --out made safe before a build touches it: checked, locked, a half-done swap put right, dead
// builds' staging removed (recoverDist); `run` is called under the lock.
import { dirname, resolve } from 'node:path';
import { makeFolders } from '../../util/make-folders.ts';
import type { BuildOptions } from '../run.ts';
import { lockOut } from './lock.ts';
import { checkCacheFolder, checkOutFolder } from './out-folder.ts';
import { createStaging, recoverDist, removeStaging } from './swap.ts';

export async function withLockedOut<T>(options: BuildOptions, run: (out: string) => Promise<T>): Promise<T> {
  const out = resolve(options.out);
  checkOutFolder(out, options.content);
  if (options.cache !== undefined) checkCacheFolder(options.cache, options.content, out);
  makeFolders(dirname(out));
  const unlock = await lockOut(out, { onWait: options.onWait, waitMs: options.lockWaitMs });
  try {
    // again under the lock: another build may have changed --out meanwhile
    checkOutFolder(out, options.content);
    recoverDist(out, options.onWarning);
    return await run(out);
  } finally {
    unlock();
  }
}

/** Runs `make` on a new staging folder; a failure removes it once `settle` says nothing writes into it, and calls `abandon`. */
export async function inStaging<T>(out: string, abandon: () => void, make: (staging: string) => Promise<T>, settle: () => Promise<unknown>): Promise<T> {
  let staging: string;
  try {
    staging = createStaging(out);
  } catch (e) {
    abandon();
    throw e;
  }
  try {
    return await make(staging);
  } catch (e) {
    abandon();
    await settle().catch(() => undefined);
    removeStaging(staging);
    throw e;
  }
}
