// The output folder made safe to replace before a build touches it: checked to be aula's (or
// empty), locked against another build, a swap a killed build left half-done put right, and the
// staging folders of builds no longer running removed. `run` is called under the lock.
import { dirname, resolve } from 'node:path';
import { makeFolders } from '../../util/make-folders.ts';
import type { BuildOptions } from '../run.ts';
import { lockOut } from './lock.ts';
import { checkCacheFolder, checkOutFolder } from './out-folder.ts';
import { createStaging, recoverDist, removeStaging, removeStaleStaging } from './swap.ts';

export async function withLockedOut<T>(options: BuildOptions, run: (out: string) => Promise<T>): Promise<T> {
  const out = resolve(options.out);
  // Refused before anything is created: --out is replaced wholesale, so it must be ours to replace.
  checkOutFolder(out, options.content);
  if (options.cache !== undefined) checkCacheFolder(options.cache, options.content, out);
  makeFolders(dirname(out));
  const unlock = await lockOut(out, { onWait: options.onWait, waitMs: options.lockWaitMs });
  try {
    // Checked again under the lock: while this build waited, another may have changed --out.
    checkOutFolder(out, options.content);
    recoverDist(out, options.onWarning);
    removeStaleStaging(out);
    return await run(out);
  } finally {
    unlock();
  }
}

/**
 * Runs `make` on a new staging folder beside `out`; a failure removes the folder (once `settle`
 * says nothing is still being written into it) and lets go of what `abandon` holds.
 */
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
