// Files aula reads back (the cache's; an out folder's manifest, file list and lock) may be
// anything at their paths: a link, a hard link shared with a file elsewhere, a FIFO (a read
// blocks), /dev/zero (a read fills memory). So they are opened without following links and used
// only when regular, not sparse and not too large (from fstat alone). Anything else counts as
// absent: a slower build, never a wrong one. Files are written anew, never in place, through an
// exclusively created temporary at an unguessable name.
import { randomBytes } from 'node:crypto';
import { closeSync, fstatSync, lstatSync, openSync, readFileSync, renameSync, unlinkSync } from 'node:fs';
import { dirname } from 'node:path';
import { deserialize } from 'node:v8';
import { makeFolders } from '../../util/make-folders.ts';
import { openRegular } from '../../util/open-regular.ts';
import { writeAllv } from '../../util/positional-io.ts';
import { checksum, CHECKSUM_BYTES } from '../../util/checksum.ts';

/** A descriptor of the regular file at `path`, for reading (a sparse one only with `sparseToo`); null for anything else or none. */
export function openCacheFile(path: string, sparseToo = false): number | null {
  // sparse: past 1 MiB, fewer than a quarter of its bytes stored (a hole is free to make and
  // costs a read; a compressing file system, ZFS, saves far less than that on these files)
  return openRegular(path, (info) => sparseToo || info.size <= 1 << 20 || info.blocks * 512 >= info.size / 4);
}

/** The most any cache file may hold: what one Buffer can (node's own limit). */
export const CACHE_FILE_MOST = 2 ** 31 - 1;

/** The bytes of the regular file at `path` when it holds at most `max` (a sparse one only with `sparseToo`); null for anything else or none. */
export function readCacheFile(path: string, max: number, sparseToo = false): Buffer | null {
  const fd = openCacheFile(path, sparseToo);
  if (fd === null) return null;
  try {
    return fstatSync(fd).size > max ? null : readFileSync(fd);
  } catch {
    return null;
  } finally {
    closeSync(fd);
  }
}

/**
 * A regular file's identity (dev, ino, size, mtime, ctime), or null (absent, a link, a folder). Any
 * change to a file moves its ctime, which no user call sets back.
 */
export function identityOf(path: string): string | null {
  try {
    // no throw for a missing file: most pages have no twins, and a throw costs more than the lstat
    const s = lstatSync(path, { bigint: true, throwIfNoEntry: false });
    return s?.isFile() ? `${s.dev}:${s.ino}:${s.size}:${s.mtimeNs}:${s.ctimeNs}` : null;
  } catch {
    return null;
  }
}

export function unlinkQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // gone already, or not ours to remove
  }
}

/**
 * A new temporary beside `path`: `<path>.<pid>-<12 hex>.tmp` (the pid tells tidyCacheFolder whether
 * its writer runs). Created exclusively at an unguessable name, it is never a planted link.
 */
export function openTemporary(path: string): { path: string; fd: number } {
  const temporary = `${path}.${process.pid}-${randomBytes(6).toString('hex')}.tmp`;
  return { path: temporary, fd: openSync(temporary, 'wx') };
}

/**
 * Writes `head`, the checksum of `sealed` (all the parts unless told) in hex and a newline, then `parts`: into a
 * temporary renamed over `path`, so a reader finds the old file or the new. False on any failure.
 */
export function writeSealed(path: string, head: string, parts: readonly Uint8Array[], sealed = parts): boolean {
  let temporary: { path: string; fd: number } | null = null;
  try {
    makeFolders(dirname(path));
    temporary = openTemporary(path);
    try {
      writeAllv(temporary.fd, [Buffer.from(`${head}${checksum(...sealed).toString('hex')}\n`), ...parts]);
    } finally {
      closeSync(temporary.fd);
    }
    renameSync(temporary.path, path);
    return true;
  } catch {
    if (temporary !== null) unlinkQuietly(temporary.path);
    return false;
  }
}

/** Where writeSealed's parts begin in a file written under `head`. */
export const sealedStart = (head: string): number => Buffer.byteLength(head) + 2 * CHECKSUM_BYTES + 1;

/** Whether `read`, a file's first sealedStart(head) bytes, are `head` and the checksum of `parts`, as writeSealed wrote them. */
export function sealedBy(head: string, read: Buffer, parts: readonly Uint8Array[]): boolean {
  const start = Buffer.from(head);
  return read.length === sealedStart(head) && read.subarray(0, start.length).equals(start) && read.at(-1) === 0x0a && checksum(...parts).toString('hex') === read.toString('latin1', start.length, read.length - 1);
}

/** What writeSealed wrote at `path` under `head`, decoded (v8.deserialize, or `fromJson`), when intact, at most `most` bytes and decodable (JSON no longer than a string may be); else null. */
export function readSealedValue(path: string, head: string, most: number, fromJson = false): unknown {
  const file = readCacheFile(path, most);
  const payload = file?.subarray(sealedStart(head));
  if (file == null || file.length < sealedStart(head) || !sealedBy(head, file.subarray(0, sealedStart(head)), [payload!])) return null;
  try {
    return fromJson ? JSON.parse(payload!.toString('utf8')) : deserialize(payload!);
  } catch {
    return null;
  }
}
