// A file read straight into the memory it is wanted in (a view of a larger buffer): no buffer of
// its own to allocate, fault in and copy from. Opened as cache files are (pipeline/cache/cache-file.ts):
// no link followed, no FIFO waited on.
import { closeSync, constants, fstatSync, openSync } from 'node:fs';
import { readAllAt } from './positional-io.ts';

/** Reads the regular file at `path` into `into` when it holds exactly as many bytes; false (nothing meant) for anything else, none, or a failed read. */
export function readFileInto(path: string, into: Uint8Array): boolean {
  let fd: number | null = null;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
    const info = fstatSync(fd);
    if (!info.isFile() || info.size !== into.byteLength) return false;
    readAllAt(fd, into, 0, into.byteLength, 0);
    return true;
  } catch {
    return false;
  } finally {
    if (fd !== null) closeSync(fd);
  }
}
