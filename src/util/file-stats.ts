// A regular file's stat as the build keeps it: five numbers (STAT_FIELDS) in a BigInt64Array, what
// the event state records of each content file (pipeline/state/stat-fields.ts judges them). Apart
// from it: the stat thread (stat-many.ts) loads only this.
import { statSync, type BigIntStats } from 'node:fs';

/** size, mtime (ns), ctime (ns), inode, device */
export const STAT_FIELDS = 5;

/** A regular file's stat, or null (none there, not a file, not to be stat'ed). */
export function fileStat(path: string | Buffer): BigIntStats | null {
  try {
    const s = statSync(path, { bigint: true, throwIfNoEntry: false });
    return s?.isFile() ? s : null;
  } catch {
    return null;
  }
}

/** Puts a stat into `stats` at `i` (null: none). */
export function putStat(stats: BigInt64Array, i: number, stat: { size: bigint; mtimeNs: bigint; ctimeNs: bigint; ino: bigint; dev: bigint } | null): void {
  const at = i * STAT_FIELDS;
  if (stat === null) stats.fill(-1n, at, at + STAT_FIELDS);
  else [stats[at], stats[at + 1], stats[at + 2], stats[at + 3], stats[at + 4]] = [stat.size, stat.mtimeNs, stat.ctimeNs, stat.ino, stat.dev];
}
