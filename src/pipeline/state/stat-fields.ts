// The content files' stats and parse keys, as the event state keeps them: what the load over the
// state (state-load.ts) judges each file by, taking one unchanged by its stat unread, and one whose
// text has the recorded key unparsed. As git's index, it guards the racy case
// (a file changed twice within one clock tick keeps size and mtime): a stat is trusted only when
// its mtime and ctime are safely older than `safe`, the file-system time taken before the build
// that recorded it stat'ed anything. The ctime catches an mtime set back by utimes.
import { closeSync, fstatSync, unlinkSync, writeFileSync, type BigIntStats } from 'node:fs';
import { putStat, STAT_FIELDS } from '../../util/file-stats.ts';
import { join } from 'node:path';
import { openTemporary } from '../cache/cache-file.ts';
import { makeFolders } from '../../util/make-folders.ts';
import type { FolderStats } from '../../content/listed-folders.ts';

export { fileStat, putStat, STAT_FIELDS } from '../../util/file-stats.ts';
export const KEY_BYTES = 32;
/** The content files other than event files as a state lists them: by `kind NUL file`, the kinds in this order, each kind's files in the listing's. */
export const OTHER_KINDS = ['site', 'pages', 'categories', 'media', 'directory'] as const;
/** The cache kind of event files, before their zone. */
export const EVENTS_KIND = 'events in ';
/** Times this close to `safe` count as racy: the content's file system's clock may differ a little from the cache folder's. */
export const MARGIN_NS = 2_000_000_000n;

/** Per content file its stat (STAT_FIELDS each; size -1: none) and parse key (KEY_BYTES each): the event files first, by path, then the others by `kind NUL file`. */
export interface FileStats {
  safe: bigint;
  files: string[];
  /** how many of `files`, first, are event files */
  eventCount: number;
  stats: BigInt64Array;
  keys: Buffer;
  /** the folders the files were listed from and their stats (content/listed-folders.ts); none: listed again */
  folders?: FolderStats | null;
}

/** No files, so no stats nor keys (none kept: no cache). */
export const NO_STATS: FileStats = { safe: 0n, files: [], eventCount: 0, stats: new BigInt64Array(0), keys: Buffer.alloc(0) };

/** Whether stat `j` of `current` is the recorded `i` of `stats`, and old enough (before `safe`, less `margin`) to be trusted. */
export function freshStatAt(stats: BigInt64Array, i: number, current: BigInt64Array, j: number, safe: bigint, margin: bigint): boolean {
  const at = i * STAT_FIELDS;
  const now = j * STAT_FIELDS;
  const before = safe - margin;
  return stats[at] >= 0n && current[now] >= 0n && current[now + 1] < before && current[now + 2] < before && current[now] === stats[at] &&
    current[now + 1] === stats[at + 1] && current[now + 2] === stats[at + 2] && current[now + 3] === stats[at + 3] && current[now + 4] === stats[at + 4];
}

/** A stat as text (size:mtimeNs:ctimeNs:ino:dev): how a parse thread hands it over; putStatText puts it back. */
export const statText = (s: BigIntStats): string => `${s.size}:${s.mtimeNs}:${s.ctimeNs}:${s.ino}:${s.dev}`;
const STAT_TEXT = /^([0-9]+):([0-9]+):([0-9]+):([0-9]+):([0-9]+)$/;

/** Puts statText's `text` into `stats` at `i`; none (false) when it is not one. */
export function putStatText(stats: BigInt64Array, i: number, text: string): boolean {
  const s = STAT_TEXT.exec(text);
  putStat(stats, i, s && { size: BigInt(s[1]), mtimeNs: BigInt(s[2]), ctimeNs: BigInt(s[3]), ino: BigInt(s[4]), dev: BigInt(s[5]) });
  return s !== null;
}

/** The file system's time in `folder` (ns), made where it is not: a probe file's mtime. Null when the folder cannot be written. */
export function fileSystemNow(folder: string): bigint | null {
  try {
    makeFolders(folder);
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
