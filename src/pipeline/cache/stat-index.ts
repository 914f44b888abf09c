// The stat index: per content file the last build read, its stat and its parse's key, so a file
// whose stat is unchanged is taken from the cache unread. As git's index, it guards the racy case
// (a file changed twice within one clock tick keeps size and mtime): a stat is trusted only when
// its mtime and ctime are safely older than `safe`, the file-system time taken before the build
// that wrote the index stat'ed anything. The ctime catches an mtime set back by utimes. Sealed
// (writeSealed, the identity and content folder in its head); damaged, foreign or of another
// content folder, it is ignored whole.
import { closeSync, fstatSync, unlinkSync, writeFileSync, type BigIntStats } from 'node:fs';
import { join } from 'node:path';
import { CACHE_TEXT_MOST, openTemporary, readSealedValue, writeSealed } from './cache-file.ts';

const head = (identity: string, content: string) => `AULASTAT2\n${JSON.stringify([identity, content])}\n`;
/** Times this close to `safe` count as racy: the content's file system's clock may differ a little from the cache folder's. */
export const MARGIN_NS = 2_000_000_000n;

/** statText when read, and the parse's key (hex). */
export interface StatRecord {
  stat: string;
  key: string;
}

/** `records` by `kind NUL file`. */
export interface StatIndex {
  safe: bigint;
  records: Map<string, StatRecord>;
}

/** What is compared of a stat, as one string (one comparison per file). */
export const statText = (s: BigIntStats): string => `${s.size}:${s.mtimeNs}:${s.ctimeNs}:${s.ino}:${s.dev}`;

/** Whether `stat` is the recorded one and old enough (before `safe`) to be trusted. */
export function stillFresh(record: StatRecord, stat: BigIntStats, safe: bigint, margin = MARGIN_NS): boolean {
  const before = safe - margin;
  return stat.mtimeNs < before && stat.ctimeNs < before && statText(stat) === record.stat;
}

/** The file system's time in `folder` (ns): a probe file's mtime. Null when the folder cannot be written. */
export function fileSystemNow(folder: string): bigint | null {
  try {
    const { path: probe, fd } = openTemporary(join(folder, 'stat-probe'));
    try {
      writeFileSync(fd, 'x');
      return fstatSync(fd, { bigint: true }).mtimeNs;
    } finally {
      closeSync(fd);
      unlinkSync(probe);
    }
  } catch {
    return null;
  }
}

/** The index at `path` if it is intact, of this `identity` and `content` folder; else null. */
export function readStatIndex(path: string, identity: string, content: string): StatIndex | null {
  const b = readSealedValue(path, head(identity, content), CACHE_TEXT_MOST, true) as { safe?: unknown; records?: unknown } | null;
  // flat: id, stat, key, id, stat, key, … (JSON: read faster than a v8 Map of as many objects)
  const flat = b?.records;
  if (typeof b?.safe !== 'string' || !/^[0-9]+$/.test(b.safe) || !Array.isArray(flat) || flat.length % 3 !== 0) return null;
  const records = new Map<string, StatRecord>();
  for (let i = 0; i < flat.length; i += 3) {
    const [id, stat, key] = [flat[i], flat[i + 1], flat[i + 2]];
    // a wrong shape under a good checksum: written by something else
    if (typeof id !== 'string' || typeof stat !== 'string' || typeof key !== 'string' || key.length !== 64) return null;
    records.set(id, { stat, key });
  }
  return { safe: BigInt(b.safe), records };
}

export function writeStatIndex(path: string, identity: string, content: string, index: StatIndex): void {
  const records: string[] = [];
  for (const [id, r] of index.records) records.push(id, r.stat, r.key);
  writeSealed(path, head(identity, content), [Buffer.from(JSON.stringify({ safe: String(index.safe), records }))]);
}
