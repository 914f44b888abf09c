// The stat index of the build cache: for each content file read by the last build, its stat
// (size, mtime and ctime in ns, inode, device) when it was read and the key of its parse. A file
// whose stat is still the same is taken from the cache without being read or hashed.
//
// Like git's index, it guards the "racy" case: a file changed twice within one tick of the file
// system's clock can keep its size and mtime. So every stat is compared with `safe`, a file-system
// time taken (from a probe file in the cache folder) before any content file was stat'ed for the
// build that wrote the index: a file whose mtime or ctime is not safely older than that is read and
// hashed anyway. The ctime also catches an mtime set back with utimes.
//
// The file is `AULASTAT1\n` and a JSON line, sealed by its checksum (cache-file.ts writeSealed):
// damaged, foreign (other aula, dist format or V8), or written for another content folder, it is
// ignored whole, which costs a build its speed (every file read and hashed, as without it), never
// its result.
import { closeSync, fstatSync, unlinkSync, writeFileSync, type BigIntStats } from 'node:fs';
import { join } from 'node:path';
import { CACHE_TEXT_MOST, openTemporary, readSealed, writeSealed } from './cache-file.ts';

const MAGIC = 'AULASTAT1\n';
/**
 * Times within this margin of `safe` count as racy: the content may sit on another file system
 * than the cache folder, whose clock may differ a little; a racy file costs only a read and hash.
 */
export const MARGIN_NS = 2_000_000_000n;

/** The stat of a file when it was read (statText), and its parse's key (hex). */
export interface StatRecord {
  stat: string;
  key: string;
}

export interface StatIndex {
  /** file-system time before the stats of the build that wrote it were taken (ns) */
  safe: bigint;
  /** by `kind NUL file` */
  records: Map<string, StatRecord>;
}

/** What is compared of a stat, as one string (one comparison per file). */
export const statText = (s: BigIntStats): string => `${s.size}:${s.mtimeNs}:${s.ctimeNs}:${s.ino}:${s.dev}`;

/** Whether `stat` is the recorded one and old enough (before `safe`) to be trusted. */
export function stillFresh(record: StatRecord, stat: BigIntStats, safe: bigint, margin = MARGIN_NS): boolean {
  const before = safe - margin;
  return stat.mtimeNs < before && stat.ctimeNs < before && statText(stat) === record.stat;
}

/**
 * The file system's current time as seen in `folder` (ns): the mtime of a probe file written
 * there. Null when the folder cannot be written (then no index is kept).
 */
export function fileSystemNow(folder: string): bigint | null {
  try {
    // created at a name of its own (cache-file.ts): whatever else is in the folder is left alone
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

const NUMBER = /^[0-9]+$/;

/** The index at `path` if it is intact, of this `identity` and `content` folder; else null. */
export function readStatIndex(path: string, identity: string, content: string): StatIndex | null {
  const json = readSealed(path, MAGIC, CACHE_TEXT_MOST)?.toString('utf8');
  if (json === undefined) return null;
  let body: unknown;
  try {
    body = JSON.parse(json);
  } catch {
    return null;
  }
  const b = body as { identity?: unknown; content?: unknown; safe?: unknown; records?: unknown };
  if (b.identity !== identity || b.content !== content || typeof b.safe !== 'string' || !NUMBER.test(b.safe) || !Array.isArray(b.records)) return null;
  // flat: id, stat, key, id, stat, key, …
  const flat = b.records as unknown[];
  if (flat.length % 3 !== 0) return null;
  const records = new Map<string, StatRecord>();
  for (let i = 0; i < flat.length; i += 3) {
    const [id, stat, key] = [flat[i], flat[i + 1], flat[i + 2]];
    // a checksum that matches over a record of the wrong shape: written by something else (a
    // wrong key is harmless: entries are found by key and checked against their own checksum)
    if (typeof id !== 'string' || typeof stat !== 'string' || typeof key !== 'string' || key.length !== 64) return null;
    records.set(id, { stat, key });
  }
  return { safe: BigInt(b.safe), records };
}

/** Writes the index beside and then over `path` (a crash leaves the old one or the new). */
export function writeStatIndex(path: string, identity: string, content: string, index: StatIndex): void {
  const records: string[] = [];
  for (const [id, r] of index.records) records.push(id, r.stat, r.key);
  writeSealed(path, MAGIC, [Buffer.from(JSON.stringify({ identity, content, safe: String(index.safe), records }))]);
}
