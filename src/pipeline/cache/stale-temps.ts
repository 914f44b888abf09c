// Temporaries a stopped build left in the cache folder (a keyed store's next file is as large as the
// content), removed as each caching build starts. Only names the build cache makes
// (openTemporary's `<cache file>.<pid>[-<12 hex>].tmp`, the clock probe) whose pid runs no more.
import { readdirSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { isRunning } from '../../util/process-alive.ts';
import { CACHE_ENDINGS, CACHE_KINDS } from './build-cache.ts';

const ID = '[0-9a-f]{16}';
const TEMPORARY = new RegExp(
  `^(?:(?:${CACHE_KINDS.join('|')})-${ID}(?:-${ID})?\\.(?:${CACHE_ENDINGS.join('|')})|stat-probe)\\.([0-9]+)(?:-[0-9a-f]{12})?\\.tmp$`,
);

/** Returns the names removed. */
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
