// A content folder's listing taken again without listing it: a folder gains or loses an entry
// only as its mtime moves (git's untracked cache takes a folder's listing so), and a folder made
// unreadable moves its ctime. So where every folder listed has the stat recorded after the
// listing, safely before the recording build's time (the racy case, as a file's stat is judged:
// pipeline/state/stat-fields.ts), its entries are the ones listed then.
import { statSync } from 'node:fs';
import { join } from 'node:path';
import type { ContentFiles } from './files.ts';

/** The folders a listing read ('' the content folder) and their stats: size, mtime (ns), ctime (ns), inode, device each. */
export type FolderStats = { names: string[]; stats: BigInt64Array };

const FIELDS = 5;

/** A folder's stat (no folder: -1 each). */
function putFolderStat(stats: BigInt64Array, i: number, path: string): void {
  let s;
  try {
    s = statSync(path, { bigint: true, throwIfNoEntry: false });
  } catch {
    s = undefined;
  }
  const values = s?.isDirectory() ? [s.size, s.mtimeNs, s.ctimeNs, s.ino, s.dev] : [-1n, -1n, -1n, -1n, -1n];
  stats.set(values, i * FIELDS);
}

/**
 * The stats of the folders `files` was listed from, taken after the listing (a folder changed
 * meanwhile has a time past the build's safe one); none where the listing holds anything but
 * content files (a link followed, a problem, a raw name, a file not read): only a listing tells those.
 */
export function folderStats(content: string, files: ContentFiles): FolderStats | null {
  if (files.folders === undefined || files.linked || files.problems.length > 0 || files.raw.size > 0 || files.notRead.length > 0) return null;
  const stats = new BigInt64Array(files.folders.length * FIELDS);
  files.folders.forEach((name, i) => putFolderStat(stats, i, join(content, name)));
  return { names: files.folders, stats };
}

/** Whether every folder of `recorded` stands as recorded, its times before `safe` by `margin` (ns). */
function foldersUnchanged(content: string, recorded: FolderStats, safe: bigint, margin: bigint): boolean {
  const now = new BigInt64Array(FIELDS);
  const before = safe - margin;
  return recorded.names.every((name, i) => {
    putFolderStat(now, 0, join(content, name));
    const then = recorded.stats.subarray(i * FIELDS, (i + 1) * FIELDS);
    return then[0] >= 0n && then[1] < before && then[2] < before && then.every((v, k) => v === now[k]);
  });
}

/** Whether `v` (read back from a cache file) is a FolderStats. */
export const isFolderStats = (v: FolderStats): boolean => Array.isArray(v.names) && v.names.every((n) => typeof n === 'string') && v.stats instanceof BigInt64Array && v.stats.length === v.names.length * FIELDS;

/**
 * The listing a build recorded where no folder listed changed since; null: list again. `files`:
 * the event files, then the others as `kind NUL file` (as the event state keeps them).
 */
export function recordedListing(content: string, recorded: { safe: bigint; files: string[]; eventCount: number; folders?: FolderStats | null } | null, margin: bigint): ContentFiles | null {
  const folders = recorded?.folders;
  if (!folders || !foldersUnchanged(content, folders, recorded.safe, margin)) return null;
  const files: ContentFiles = { site: [], pages: [], categories: [], media: [], events: recorded.files.slice(0, recorded.eventCount), directory: [], problems: [], raw: new Map(), linked: false, notRead: [], folders: folders.names };
  for (const id of recorded.files.slice(recorded.eventCount)) {
    const cut = id.indexOf('\0');
    files[id.slice(0, cut) as 'site' | 'pages' | 'categories' | 'media' | 'directory'].push(id.slice(cut + 1));
  }
  return files;
}
