// A file opened for reading that may be anything at its path: a link, a FIFO (a read blocks),
// /dev/zero (a read fills memory). So it is opened without following links and without waiting,
// and kept only when fstat says it is a regular file the caller accepts.
import { closeSync, constants, fstatSync, openSync, type Stats } from 'node:fs';

const READ = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;

/** A descriptor of the regular file at `path` that `accept` takes by its stat; null for anything else, none, or a failed open. */
export function openRegular(path: string, accept: (info: Stats) => boolean = () => true): number | null {
  let fd: number | null = null;
  try {
    fd = openSync(path, READ);
    const info = fstatSync(fd);
    if (info.isFile() && accept(info)) return fd;
  } catch {
    // absent or unusable
  }
  if (fd !== null) closeSync(fd);
  return null;
}
