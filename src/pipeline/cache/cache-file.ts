// Files aula reads back (the cache's; an out folder's manifest, file list and lock) may be
// anything at their paths: a link, a hard link shared with a file elsewhere, a FIFO (a read
// blocks), /dev/zero (a read fills memory). So they are opened without following links, used only
// when regular, not sparse and not too large (from fstat alone), and appended to only when no
// other name shares them. Anything else counts as absent: a slower build, never a wrong one. Files
// are written anew through an exclusively created temporary at an unguessable name.
import { randomBytes } from 'node:crypto';
import { closeSync, constants, fstatSync, openSync, readFileSync, renameSync, unlinkSync } from 'node:fs';
import { constants as bufferConstants } from 'node:buffer';
import { dirname } from 'node:path';
import { deserialize } from 'node:v8';

const { MAX_STRING_LENGTH } = bufferConstants;
import { makeFolders } from '../../util/make-folders.ts';
import { readFully, writeAllv } from '../../util/positional-io.ts';
import { checksum, CHECKSUM_BYTES } from '../../util/checksum.ts';

/**
 * Sparse: fewer than a quarter of its bytes stored (a hole is free to make and costs a read). A
 * compressing file system (ZFS) saves far less than that on these files.
 */
const SPARSE_FROM = 1 << 20;

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

/** readCacheFile as text. */
export function readSmallFile(path: string, max: number): string | null {
  return readCacheFile(path, max)?.toString('utf8') ?? null;
}

export function unlinkQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // gone already, or not ours to remove
  }
}

/**
 * A new temporary beside `path`: `<path>.<pid>-<12 hex>.tmp` (the pid tells stale-temps.ts whether
 * its writer runs). Created exclusively at an unguessable name, it is never a planted link.
 */
export function openTemporary(path: string, flags: 'wx' | 'wx+' = 'wx'): { path: string; fd: number } {
  const temporary = `${path}.${process.pid}-${randomBytes(6).toString('hex')}.tmp`;
  return { path: temporary, fd: openSync(temporary, flags) };
}

/**
 * Writes `path` anew: `write` fills a temporary (or `begun`, one openTemporary made) renamed over
 * it, so a reader finds the old file or the new. False on any failure, `path` then as it was.
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

/** Reads `fd` a chunk at a time: bytes(at, n) is a view good until the next call, or null past the end. */
function chunkReader(fd: number, size: number, chunkBytes: number): (at: number, n: number) => Buffer | null {
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

// The files of keyed entries (the parse pack, the rows file): a head, then per entry
//   key (32) | checksum of the payload (4, util/checksum.ts) | payload length (u32 LE) | payload
export const ENTRY_KEY_BYTES = 32;
export const ENTRY_HEAD = ENTRY_KEY_BYTES + CHECKSUM_BYTES + 4;

/** Writes an entry's head into `out` at `at`; its payload follows it. */
export function putKeyedHead(out: Buffer, at: number, key: Uint8Array, sum: Uint8Array, length: number): void {
  out.set(key, at);
  out.set(sum, at + ENTRY_KEY_BYTES);
  out.writeUInt32LE(length, at + ENTRY_KEY_BYTES + CHECKSUM_BYTES);
}

/**
 * Walks the entries of `fd` (of `size` bytes, begun with `head`), a chunk at a time: `each(entry,
 * at, bytes)` with the entry's head (a view good until `bytes` reads), where its payload is, and
 * the reader. Returns
 * where the entries end (`size` when the last is whole, else where the first cut one begins), or
 * null when the file does not begin with `head`.
 */
export function walkEntries(fd: number, size: number, head: Buffer, chunkBytes: number, each: (entry: Buffer, at: number, bytes: (at: number, n: number) => Buffer | null) => void): number | null {
  const bytes = chunkReader(fd, size, chunkBytes);
  if (!bytes(0, head.length)?.equals(head)) return null;
  let at = head.length;
  for (let entry = bytes(at, ENTRY_HEAD); entry !== null; entry = bytes(at, ENTRY_HEAD)) {
    const end = at + ENTRY_HEAD + entry.readUInt32LE(ENTRY_KEY_BYTES + CHECKSUM_BYTES);
    if (end > size) break; // cut short: what came before stands
    each(entry, at + ENTRY_HEAD, bytes);
    at = end;
  }
  return at;
}

/** Writes `head`, the parts' checksum in hex and a newline, then `parts` (replaceCacheFile), for readSealed. */
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

/** What writeSealed wrote at `path` under `head`, decoded (v8.deserialize, or `fromJson`), when intact, at most `most` bytes and decodable; else null. */
export function readSealedValue(path: string, head: string, most: number, fromJson = false): unknown {
  const payload = readSealed(path, head, most);
  try {
    return payload === null ? null : fromJson ? JSON.parse(payload.toString('utf8')) : deserialize(payload);
  } catch {
    return null;
  }
}
