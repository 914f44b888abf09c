// A scratch file: bytes a build's threads make and the build reads back later, kept in the page
// cache instead of a heap until then (the directory worker's files, directory-job.ts; the rows the
// parse threads render, parse-pool.ts). Made in the system's temp folder (O_EXCL, a random name)
// and unlinked at once: only its descriptor names it (threads share the process's descriptors),
// and the system frees it when that is closed or the process ends, killed mid-build included.
import { randomBytes } from 'node:crypto';
import { closeSync, openSync, unlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { unlinkQuietly } from '../cache/cache-file.ts';

export class ScratchFile {
  private closed = false;

  private constructor(readonly fd: number) {}

  /**
   * A new scratch file, its name starting `aula-<purpose>-`; null when none can be made, or it
   * cannot be unlinked while open (Windows): the caller then keeps the bytes in memory.
   */
  static create(purpose: string): ScratchFile | null {
    const path = join(tmpdir(), `aula-${purpose}-${process.pid}-${randomBytes(8).toString('hex')}`);
    let fd: number;
    try {
      fd = openSync(path, 'wx+', 0o600);
    } catch {
      return null;
    }
    try {
      unlinkSync(path);
    } catch {
      closeSync(fd);
      // made by this process, left empty: where this fails too, nothing more can be done here
      unlinkQuietly(path);
      return null;
    }
    return new ScratchFile(fd);
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    closeSync(this.fd);
  }
}
