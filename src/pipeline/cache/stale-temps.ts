// Temporary files a build left in the cache folder when it was stopped before it could rename or
// remove them (Ctrl-C, a cancelled CI job, a killed process): the parse pack's spill alone is as
// large as the content, and every such stop would leave one more. Each build that keeps a cache
// removes them as it starts.
//
// Only files this code can prove aula made: named as the build cache names its files (the pack
// and stat index, the rows file, a directory index's outputs, a dist's ledger and event state,
// the clock probe), then `.<pid>-<12 hex digits>` (cache-file.ts's openTemporary; an older aula's
// `.<pid>` alone), then `.tmp`, where no process with that id runs. A running build's files, and
// anything else in the folder, are left alone.
import { readdirSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { isRunning } from '../../util/process-alive.ts';
import { CACHE_ENDINGS, CACHE_KINDS } from './build-cache.ts';

const ID = '[0-9a-f]{16}';
const TEMPORARY = new RegExp(
  `^(?:(?:${CACHE_KINDS.join('|')})-${ID}(?:-${ID})?\\.(?:${CACHE_ENDINGS.join('|')})|stat-probe)\\.([0-9]+)(?:-[0-9a-f]{12})?\\.tmp$`,
);

/** Removes the stale temporary files of the cache folder `dir`; returns their names. */
export function removeStaleTemps(dir: string): string[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return []; // no folder yet, or not readable: nothing to do
  }
  const removed: string[] = [];
  for (const name of names) {
    const pid = Number(TEMPORARY.exec(name)?.[1] ?? Number.NaN);
    if (!Number.isSafeInteger(pid) || pid <= 0 || pid === process.pid || isRunning(pid)) continue;
    try {
      unlinkSync(join(dir, name));
      removed.push(name);
    } catch {
      // gone already, or not ours to remove after all (read-only folder)
    }
  }
  return removed;
}
