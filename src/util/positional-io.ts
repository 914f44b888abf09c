// Reads and writes at a position of a file descriptor, all of it: readSync and writeSync may move
// fewer bytes than asked (a signal, a pipe, a network file system), and a short read of a file
// someone truncated must not hand out the rest of a buffer unfilled.
import { readSync, writeSync } from 'node:fs';

/** Reads `length` bytes at `position` into `into` from `at`; returns how many, fewer only where the file ends. */
export function readFully(fd: number, into: Uint8Array, at: number, length: number, position: number): number {
  let done = 0;
  while (done < length) {
    const got = readSync(fd, into, at + done, length - done, position + done);
    if (got === 0) break;
    done += got;
  }
  return done;
}

/** readFully, where a file that ends first is an error. */
export function readAllAt(fd: number, into: Uint8Array, at: number, length: number, position: number): void {
  const got = readFully(fd, into, at, length, position);
  if (got < length) throw new Error(`a file ended at ${position + got} of ${position + length} bytes`);
}

/** Writes all of `bytes` at `position` of `fd`. */
export function writeAllAt(fd: number, bytes: Uint8Array, position: number): void {
  let done = 0;
  while (done < bytes.byteLength) done += writeSync(fd, bytes, done, bytes.byteLength - done, position + done);
}
