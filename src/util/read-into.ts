// A file read straight into the memory it is wanted in (a view of a larger buffer): no buffer of
// its own to allocate, fault in and copy from. Opened as every file aula reads back is
// (open-regular.ts): no link followed, no FIFO waited on.
import { closeSync } from 'node:fs';
import { openRegular } from './open-regular.ts';
import { readAllAt } from './positional-io.ts';

/** Reads the regular file at `path` into `into` when it holds exactly as many bytes; false (nothing meant) for anything else, none, or a failed read. */
export function readFileInto(path: string, into: Uint8Array): boolean {
  const fd = openRegular(path, (info) => info.size === into.byteLength);
  if (fd === null) return false;
  try {
    readAllAt(fd, into, 0, into.byteLength, 0);
    return true;
  } catch {
    return false;
  } finally {
    closeSync(fd);
  }
}
