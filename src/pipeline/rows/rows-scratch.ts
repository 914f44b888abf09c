// The one file a build's parse threads write the rows they render into (parse-batch.ts RowsFile),
// laid out as a rows file of the render cache (render-cache.ts): its header, then an entry per
// row. Each thread claims room for a batch's entries from a shared counter and writes them there,
// so the threads never wait for each other. (A write that fails leaves its room unwritten: the
// file is then no rows file, and is not kept as one.)
//
// A build that keeps a cache makes it beside the rows file, under a temporary name: when the
// rows file is written whole (a cold build), the build adds the rows it lacks and renames it into
// place (render-cache.ts cachedRows), instead of writing the rows the threads wrote once more
// (every row, on a host where new file pages are dear). A build without a cache makes it as a scratch file (scratch-file.ts). Either way it is
// removed when the build lets go of its rows, unless it became the rows file; one left by a
// process that was stopped is removed by the next build (stale-temps.ts).
import { randomBytes } from 'node:crypto';
import { closeSync, openSync, renameSync } from 'node:fs';
import { unlinkQuietly } from '../cache/cache-file.ts';
import { dirname } from 'node:path';
import { writeAllAt } from '../../util/positional-io.ts';
import { rowsFileHeader, type RowsInProgress } from './render-cache.ts';
import { ScratchFile } from '../write/scratch-file.ts';
import { makeFolders } from '../../util/make-folders.ts';

export class RowsScratch {
  /** where the entries end, shared with the threads (Atomics): the next batch's go there */
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

  /**
   * A file beside the rows file `rowsPath` (null: a scratch file); null when none can be made,
   * and the threads then send their rows.
   */
  static create(rowsPath: string | null): RowsScratch | null {
    if (rowsPath === null) {
      const scratch = ScratchFile.create('rows');
      return scratch && RowsScratch.over(scratch.fd, null);
    }
    const path = `${rowsPath}.${process.pid}-${randomBytes(6).toString('hex')}.tmp`;
    let fd: number;
    try {
      makeFolders(dirname(rowsPath));
      fd = openSync(path, 'wx+', 0o644);
    } catch {
      return RowsScratch.create(null);
    }
    return RowsScratch.over(fd, path);
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

  /** The file as the render cache may keep it: when it has a name and every row the threads made is in it. */
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

  /** Closes it (once no thread writes to it any more), removing it unless it was kept. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    closeSync(this.fd);
    if (this.path !== null) unlinkQuietly(this.path);
  }
}
