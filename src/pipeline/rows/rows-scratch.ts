// The file the parse threads write their rows into, laid out as a rows file (render-cache.ts).
// Each thread claims room for a batch from a shared counter, so none waits for another; a failed
// write marks the file incomplete, never kept. With a cache it is a temporary beside the rows
// file, renamed into place when the rows file is written whole (cachedRows); without one, a
// scratch file. It is removed at close unless kept; stale-temps.ts removes a stopped build's.
import { closeSync, renameSync } from 'node:fs';
import { openTemporary, unlinkQuietly } from '../cache/cache-file.ts';
import { dirname } from 'node:path';
import { writeAllAt } from '../../util/positional-io.ts';
import { rowsFileHeader, type RowsInProgress } from './render-cache.ts';
import { ScratchFile } from '../write/scratch-file.ts';
import { makeFolders } from '../../util/make-folders.ts';

export class RowsScratch {
  /** where the entries end, shared with the threads (Atomics) */
  readonly end = new BigInt64Array(new SharedArrayBuffer(8));
  /** false once a thread could not write a batch's rows (they came in its answer instead) */
  complete = true;
  private closed = false;

  private constructor(
    readonly fd: number,
    /** its name while it may become the rows file; null once renamed, or for a scratch file */
    private path: string | null,
  ) {
    const header = rowsFileHeader();
    writeAllAt(fd, header, 0);
    this.end[0] = BigInt(header.length);
  }

  /** Beside `rowsPath` (null: a scratch file); null when none can be made (the threads then send their rows). */
  static create(rowsPath: string | null): RowsScratch | null {
    if (rowsPath === null) {
      const scratch = ScratchFile.create('rows');
      return scratch && RowsScratch.over(scratch.fd, null);
    }
    try {
      makeFolders(dirname(rowsPath));
      const { fd, path } = openTemporary(rowsPath, 'wx+');
      return RowsScratch.over(fd, path);
    } catch {
      return RowsScratch.create(null);
    }
  }

  private static over(fd: number, path: string | null): RowsScratch | null {
    try {
      return new RowsScratch(fd, path);
    } catch {
      closeSync(fd);
      if (path !== null) unlinkQuietly(path);
      return null;
    }
  }

  /** For the render cache to keep: when named and complete. */
  inProgress(): RowsInProgress | null {
    if (this.path === null || !this.complete || this.closed) return null;
    return { fd: this.fd, end: Number(this.end[0]), keepAs: (target) => this.keepAs(target) };
  }

  private keepAs(target: string): boolean {
    if (this.path === null) return false;
    try {
      renameSync(this.path, target);
    } catch {
      return false;
    }
    this.path = null;
    return true;
  }

  /** Once no thread writes to it: closes it, removed unless kept. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    closeSync(this.fd);
    if (this.path !== null) unlinkQuietly(this.path);
  }
}
