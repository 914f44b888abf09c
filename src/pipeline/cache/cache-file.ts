// Files aula reads back — the build cache's, and the small bookkeeping files of an out folder (a
// manifest, the list of made files, a lock) — are aula's, yet anything may stand at their paths:
// a symbolic link, a hard link shared with a file elsewhere, a FIFO (a read blocks for good),
// /dev/zero (a read fills memory). So such a file is opened without following a link and used
// only when it is a regular file; one is appended to only when nothing else shares it (an append
// through a link writes outside the cache). Otherwise it is as if it were not there: the cache
// is never needed, and the build just works without it (or writes it anew, replacing whatever
// stood there by a rename). What is written anew goes through a temporary created exclusively at
// a name nobody can guess (replaceCacheFile).
//
// Every file is also size-checked before it is read, from its fstat alone: one larger than its
// reader can use, or sparse (a hole costs nothing to make, yet as much to read as data), is
// treated as absent. That costs one slower build, never a wrong one, and it is decided in O(1).
import { randomBytes } from 'node:crypto';
import { closeSync, constants, fstatSync, openSync, readFileSync, renameSync, unlinkSync } from 'node:fs';
import { constants as bufferConstants } from 'node:buffer';
import { dirname } from 'node:path';

const { MAX_STRING_LENGTH } = bufferConstants;
import { makeFolders } from '../../util/make-folders.ts';
import { readFully, writeAllv } from '../../util/positional-io.ts';
import { checksum, CHECKSUM_BYTES } from '../../util/checksum.ts';

/**
 * Past this size a file is sparse when fewer than a quarter of its bytes are stored: a hole reads
 * as zeros at the speed of memory, so a huge one made by a truncate held a build for seconds.
 * (A file system that compresses, as ZFS, may store a cache file in fewer blocks than its size;
 * a quarter is well past what it saves on these files, and a miss costs only speed.)
 */
const SPARSE_FROM = 1 << 20;

/** Whether a regular file's stat says it is sparse (most of its size holes). */
function isSparse(info: { size: number; blocks: number }): boolean {
  return info.size > SPARSE_FROM && info.blocks * 512 < info.size / 4;
}

const READ = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;
const APPEND = constants.O_WRONLY | constants.O_APPEND | constants.O_NOFOLLOW | constants.O_NONBLOCK;

function opened(path: string, flags: number, alone: boolean): number | null {
  let fd: number;
  try {
    fd = openSync(path, flags);
  } catch {
    return null;
  }
  try {
    const info = fstatSync(fd);
    if (info.isFile() && !isSparse(info) && (!alone || info.nlink === 1)) return fd;
  } catch {
    // unusable as well
  }
  closeSync(fd);
  return null;
}

/** A descriptor of the regular file at `path`, for reading; null for anything else or none. */
export function openCacheFile(path: string): number | null {
  return opened(path, READ, false);
}

/** A descriptor to append to the regular file at `path` that no other name shares; else null. */
export function openCacheFileToAppend(path: string): number | null {
  return opened(path, APPEND, true);
}

/** The most any cache file may hold: what one Buffer can (node's own limit). */
export const CACHE_FILE_MOST = 2 ** 31 - 1;
/** The most a cache file read as text may hold: what one string can. */
export const CACHE_TEXT_MOST = MAX_STRING_LENGTH;

/** The bytes of the regular file at `path` when it holds at most `max`; null for anything else or none. */
export function readCacheFile(path: string, max: number): Buffer | null {
  const fd = openCacheFile(path);
  if (fd === null) return null;
  try {
    return fstatSync(fd).size > max ? null : readFileSync(fd);
  } catch {
    return null;
  } finally {
    closeSync(fd);
  }
}

/** A small bookkeeping file (a manifest, a lock) as text, read as readCacheFile reads; null past `max` bytes. */
export function readSmallFile(path: string, max: number): string | null {
  return readCacheFile(path, max)?.toString('utf8') ?? null;
}

/** Removes the file at `path` if it can: one gone already, or not removable, is no error here. */
export function unlinkQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // gone already, or not ours to remove
  }
}

/**
 * A new temporary file beside `path`, to be renamed over it: `<path>.<pid>-<12 hex digits>.tmp`
 * (the pid tells stale-temps.ts whether its writer still runs). Created exclusively at a name
 * nobody can guess, it is never a link or file someone planted there (which a write would follow
 * to a file outside the cache).
 */
export function openTemporary(path: string): { path: string; fd: number } {
  const temporary = `${path}.${process.pid}-${randomBytes(6).toString('hex')}.tmp`;
  return { path: temporary, fd: openSync(temporary, 'wx') };
}

/**
 * Writes the file at `path` anew: `write` fills a temporary of its own (openTemporary, or
 * `begun`: one opened so already and partly written), which then replaces it by a rename, so a
 * reader finds the old file or the new, never part of one. False when anything failed (a full or
 * read-only disk): the temporary is then gone, and `path` as it was.
 */
export function replaceCacheFile(path: string, write: (fd: number) => void, begun?: { path: string; fd: number }): boolean {
  let temporary: string | null = begun?.path ?? null;
  try {
    let opened = begun;
    if (opened === undefined) {
      makeFolders(dirname(path));
      opened = openTemporary(path);
      temporary = opened.path;
    }
    try {
      write(opened.fd);
    } finally {
      closeSync(opened.fd);
    }
    renameSync(opened.path, path);
    return true;
  } catch {
    if (temporary !== null) unlinkQuietly(temporary);
    return false;
  }
}

/**
 * The file `fd` of `size` bytes, read a chunk at a time as it is asked for (a cache file is as
 * large as the content, which a build must not hold): bytes(at, n) is a view of the n bytes at
 * `at`, good until the next call, or null past the end.
 */
export function chunkReader(fd: number, size: number, chunkBytes: number): (at: number, n: number) => Buffer | null {
  let chunk = Buffer.allocUnsafe(Math.max(1, Math.min(size, chunkBytes)));
  let from = 0;
  let to = 0;
  return (at, n) => {
    if (at + n > size) return null;
    if (at < from || at + n > to) {
      if (chunk.length < n) chunk = Buffer.allocUnsafe(n);
      from = at;
      to = at + readFully(fd, chunk, 0, Math.min(chunk.length, size - at), at);
      if (at + n > to) return null;
    }
    return chunk.subarray(at - from, at - from + n);
  };
}

/**
 * Writes `parts` end to end at `path` (anew: replaceCacheFile) after `head` (what the file is, and
 * which aula wrote it) and the parts' checksum (util/checksum.ts) in hex on a line: readSealed
 * tells a damaged file from an intact one by it. False when it could not be written.
 */
export function writeSealed(path: string, head: string, parts: readonly Uint8Array[]): boolean {
  return replaceCacheFile(path, (fd) => writeAllv(fd, [Buffer.from(`${head}${checksum(...parts).toString('hex')}\n`), ...parts]));
}

/** What writeSealed wrote at `path` after `head`, when the file is intact and at most `most` bytes; else null. */
export function readSealed(path: string, head: string, most: number): Buffer | null {
  const file = readCacheFile(path, most);
  const start = Buffer.from(head);
  const end = start.length + 2 * CHECKSUM_BYTES;
  if (file === null || file.length <= end || !file.subarray(0, start.length).equals(start) || file[end] !== 0x0a) return null;
  const payload = file.subarray(end + 1);
  return checksum(payload).toString('hex') === file.toString('latin1', start.length, end) ? payload : null;
}
