// A content folder's listing taken again without listing it: a folder gains or loses an entry
// only as its mtime moves (git's untracked cache takes a folder's listing so), and a folder made
// unreadable moves its ctime. So where a folder listed has the stat recorded after the listing,
// safely before the recording build's time (the racy case, as a file's stat is judged:
// pipeline/state/stat-fields.ts), its entries are the ones listed then; only the folders whose stat
// moved are read again (an added or removed file moves one folder's).
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { listContentFolder, type ContentFiles, type KnownFolder, type Kind } from './files.ts';

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

/** Which folders of `recorded` stand as recorded, their times before `safe` by `margin` (ns). */
function foldersUnchanged(content: string, recorded: FolderStats, safe: bigint, margin: bigint): boolean[] {
  const now = new BigInt64Array(FIELDS);
  const before = safe - margin;
  return recorded.names.map((name, i) => {
    putFolderStat(now, 0, join(content, name));
    const then = recorded.stats.subarray(i * FIELDS, (i + 1) * FIELDS);
    return then[0] >= 0n && then[1] < before && then[2] < before && then.every((v, k) => v === now[k]);
  });
}

/** Whether `v` (read back from a cache file) is a FolderStats. */
export const isFolderStats = (v: FolderStats): boolean => Array.isArray(v.names) && v.names.every((n) => typeof n === 'string') && v.stats instanceof BigInt64Array && v.stats.length === v.names.length * FIELDS;

/** What a build recorded of its listing: the event files, then the others as `kind NUL file` (as the event state keeps them), and the folders' stats. */
type Recorded = { safe: bigint; files: string[]; eventCount: number; folders?: FolderStats | null };

/** The recorded file `i`'s kind and path. */
function recordedFile(recorded: Recorded, i: number): [Kind, string] {
  const id = recorded.files[i];
  const cut = id.indexOf('\0');
  return i < recorded.eventCount ? ['events', id] : [id.slice(0, cut) as Kind, id.slice(cut + 1)];
}

/** The recorded listing as the listing gave it. */
function listingOf(recorded: Recorded, folders: FolderStats): ContentFiles {
  const files: ContentFiles = { site: [], pages: [], categories: [], media: [], events: recorded.files.slice(0, recorded.eventCount), directory: [], problems: [], raw: new Map(), linked: false, notRead: [], folders: folders.names };
  for (let i = recorded.eventCount; i < recorded.files.length; i++) {
    const [kind, file] = recordedFile(recorded, i);
    files[kind].push(file);
  }
  return files;
}

/** The folder a file or folder shown as `shown` is in ('' the content folder) */
const parentOf = (shown: string) => shown.slice(0, Math.max(0, shown.lastIndexOf('/')));

/** The recorded entries of each folder that stands as recorded (`unchanged`, by the recorded folders' order). */
function knownFolders(recorded: Recorded, folders: FolderStats, unchanged: readonly boolean[]): Map<string, KnownFolder> {
  const known = new Map<string, KnownFolder>();
  folders.names.forEach((name, i) => {
    if (unchanged[i]) known.set(name, { files: [], folders: [] });
  });
  // (a folder's files are recorded together: the folder is looked up as the parent changes)
  let [parent, entry] = ['', known.get('')];
  for (let i = 0; i < recorded.files.length; i++) {
    const [kind, file] = recordedFile(recorded, i);
    const length = Math.max(0, file.lastIndexOf('/'));
    if (length !== parent.length || !file.startsWith(parent)) {
      parent = file.slice(0, length);
      entry = known.get(parent);
    }
    entry?.files.push([kind, file]);
  }
  folders.names.forEach((name, i) => {
    if (name === '') return;
    const at = i * FIELDS;
    known.get(parentOf(name))?.folders.push({ name: name.slice(name.lastIndexOf('/') + 1), id: `${folders.stats[at + 4]}:${folders.stats[at + 3]}` });
  });
  return known;
}

/**
 * The content folder's listing over what a build recorded of it (`recorded`, none: listed whole):
 * taken as recorded where no folder changed, else listed with only the folders that changed read.
 */
export async function listingOver(content: string, recorded: Recorded | null, margin: bigint): ReturnType<typeof listContentFolder> {
  const folders = recorded?.folders;
  if (!folders) return listContentFolder(content);
  const unchanged = foldersUnchanged(content, folders, recorded.safe, margin);
  if (unchanged.every(Boolean)) return { files: listingOf(recorded, folders) };
  const known = knownFolders(recorded, folders, unchanged);
  return listContentFolder(content, (shown) => known.get(shown));
}
