// One build at a time per --out: two swapping into one folder would remove each other's trees. The
// lock is a file beside --out made with O_EXCL, holding its owner's pid. A second build waits (up
// to a bound) for the first, so back-to-back scripts work; a dead owner's lock is taken over.
import { lstatSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { causeOf } from '../../util/failure.ts';
import { printable } from '../../util/printable.ts';
import { isRunning } from '../../util/process-alive.ts';
import { readCacheFile, unlinkQuietly } from '../cache/cache-file.ts';
import type { BuildOptions } from '../run.ts';

export class LockError extends Error {
  override name = 'LockError';
}

export function lockPath(out: string): string {
  return join(dirname(out), `.aula-lock-${basename(out)}`);
}

const PID = /^[1-9][0-9]{0,9}$/;

/** The lock's text, trimmed (undefined: missing, or no file aula could have written), and the pid it names. */
function readLock(path: string): { text: string | undefined; owner: number | null } {
  const text = readCacheFile(path, 64)?.toString().trim();
  return { text, owner: text !== undefined && PID.test(text) ? Number(text) : null };
}

/**
 * Removes a lock `stale` says was left behind. Renamed aside first, so of two builds taking over
 * one stale lock only one succeeds, and neither removes a fresh lock.
 */
function takeOver(path: string, stale: (aside: string) => boolean): void {
  const aside = `${path}.stale-${process.pid}-${Date.now()}`;
  try {
    renameSync(path, aside);
  } catch (e) {
    // gone: someone else took it over (or it was released) first; any other failure would recur at once, and forever
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw new LockError(`cannot take over the build lock ${printable(path)}, left by a build no longer running (${causeOf(e)}); remove it, or give an --out in a folder aula may write to`);
  }
  if (stale(aside)) unlinkSync(aside);
  else renameSync(aside, path); // a fresh lock slipped in between: put it back untouched
}

/** Locks this process holds: one naming our pid but not in here was left by an earlier process with our pid. */
const held = new Set<string>();

function release(path: string): void {
  held.delete(path);
  if (readLock(path).owner === process.pid) unlinkQuietly(path);
}

/** Releases every lock this process holds (a build stopped by a signal). */
export function releaseHeldLocks(): void {
  for (const path of held) release(path);
}

/**
 * Takes the lock for `out`; resolves to its release. `emptyGraceMs`: how long a lock stays empty
 * before its writer is taken for dead (a live one fills it at once).
 */
export async function lockOut(out: string, options: Pick<BuildOptions, 'onWait' | 'lockWaitMs'> & { emptyGraceMs?: number } = {}): Promise<() => void> {
  const path = lockPath(out);
  const deadline = Date.now() + (options.lockWaitMs ?? 600_000);
  let told = false;
  let emptySince: number | null = null;
  for (;;) {
    try {
      writeFileSync(path, `${process.pid}\n`, { flag: 'wx', mode: 0o644 });
      held.add(path);
      return () => release(path);
    } catch (e) {
      // the lock is aula's own file beside the output folder: said as the output folder's problem
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw new LockError(`cannot write the build lock beside ${printable(out)} (${printable(path)}: ${causeOf(e)}); --out must be in a folder aula may write to`);
    }
    const { text, owner } = readLock(path);
    if (owner !== null && (owner === process.pid ? !held.has(path) : !isRunning(owner))) {
      takeOver(path, (aside) => readLock(aside).owner === owner);
      continue;
    }
    // An empty lock is being written; if it stays empty, its writer died. Only that is removed:
    // anything else under the lock's name is not known to be aula's.
    if (owner === null) {
      if (text === undefined && lstatSync(path, { throwIfNoEntry: false }) === undefined) continue; // released meanwhile
      if (text !== '') throw new LockError(`${printable(path)} is in the way of the build lock and is not one aula wrote; remove it if no build is running`);
      emptySince ??= Date.now();
      if (Date.now() - emptySince >= (options.emptyGraceMs ?? 2_000)) {
        takeOver(path, (aside) => readLock(aside).text === '');
        emptySince = null;
        continue;
      }
    } else {
      emptySince = null;
    }
    if (Date.now() > deadline) throw new LockError(`${printable(out)} is locked by another build (pid ${owner ?? 'unknown'}, lock file ${printable(path)}); try again when it has finished`);
    if (!told && owner !== null) {
      told = true;
      options.onWait?.(`waiting for the build by pid ${owner} into ${printable(out)} to finish`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}
