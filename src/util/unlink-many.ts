// Removing many files at once. On a file system that discards freed blocks as it frees them (ext4
// mounted with `discard`), an unlink that frees a file's last link waits for the device, with no
// CPU of its own: one after another, the removal of a few thousand files is mostly waiting. Handed
// to libuv's threads several at a time, the waits overlap.
import { unlink } from 'node:fs/promises';

/** Unlinks left in flight at once: twice libuv's threads (bin/aula.cjs sizes the pool), so none of them idles between two. */
const IN_FLIGHT = 32;

/**
 * Unlinks queued at once while the main thread is busy with other work and hands out no next one:
 * enough to keep the pool's threads at it meanwhile, bounded so that a huge dist does not hold a
 * request per file.
 */
export const QUEUED_WHILE_BUSY = 4096;

/** Unlinks every one of `paths`, several at a time; once all have been tried, throws the failure of the first in `paths` that failed. */
export async function unlinkMany(paths: readonly string[], inFlight = IN_FLIGHT): Promise<void> {
  await eachInFlight(paths.map((path) => () => unlink(path)), inFlight);
}

/** Runs every one of `tasks` (file system calls), `inFlight` at a time; once all have been tried, throws the failure of the first in `tasks` that failed. */
export async function eachInFlight(tasks: readonly (() => Promise<unknown>)[], inFlight = IN_FLIGHT): Promise<void> {
  let next = 0;
  let failed = tasks.length;
  let failure: unknown;
  const worker = async () => {
    while (next < tasks.length) {
      const at = next++;
      try {
        await tasks[at]();
      } catch (e) {
        if (at < failed) [failed, failure] = [at, e];
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(inFlight, tasks.length) }, worker));
  if (failed < tasks.length) throw failure;
}
