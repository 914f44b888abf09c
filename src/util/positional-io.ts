// Reads and writes at a position of a file descriptor, all of it: readSync and writeSync may move
// fewer bytes than asked (a signal, a pipe, a network file system), and a short read of a file
// someone truncated must not hand out the rest of a buffer unfilled.
import { close, read, readSync, writevSync, writeSync } from 'node:fs';

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

/** Writes all of `parts`, end to end, where `fd` stands (writev may write fewer bytes than asked). */
export function writeAllv(fd: number, parts: Uint8Array[]): void {
  let first = 0;
  for (;;) {
    // empty parts need no write (and writing only them would return 0 forever)
    while (first < parts.length && parts[first].byteLength === 0) first++;
    if (first >= parts.length) return;
    let written = writevSync(fd, first === 0 ? parts : parts.slice(first));
    // a short write: skip what went out and continue with the rest
    while (written > 0 && first < parts.length) {
      if (written >= parts[first].byteLength) {
        written -= parts[first].byteLength;
        first++;
      } else {
        parts[first] = parts[first].subarray(written);
        written = 0;
      }
    }
  }
}

/** Reads all of `into` at `position` of `fd` on libuv's thread pool, then closes `fd`: true once read, false where the file ended first or failed. */
export function readAllLater(fd: number, into: Uint8Array, position: number): Promise<boolean> {
  return new Promise((done) => {
    const step = (at: number) => {
      read(fd, into, at, into.byteLength - at, position + at, (e, got) => {
        if (e === null && got > 0 && at + got < into.byteLength) return void step(at + got);
        close(fd, () => {});
        done(e === null && at + got === into.byteLength);
      });
    };
    step(0);
  });
}
