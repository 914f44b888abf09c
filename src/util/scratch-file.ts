// A scratch file: bytes threads make and the build reads back later, held by the page cache rather
// than a heap. Unlinked at once, only its descriptor names it, so the system frees it however the
// process ends.
import { randomBytes } from 'node:crypto';
import { closeSync, openSync, unlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export class ScratchFile {
  private closed = false;

  private constructor(readonly fd: number) {}

  /** Null when none can be made or unlinked while open (Windows): the caller then keeps the bytes in memory. */
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
      try {
        unlinkSync(path);
      } catch {
        // not ours to remove after all: the system's temporary folder keeps it
      }
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
