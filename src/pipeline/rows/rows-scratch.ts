// The file the parse threads write their rows into, laid out as a rows file (render-cache.ts).
// Each thread claims room for a batch from a shared counter, so none waits for another; a failed
// write marks the file incomplete, never kept. With a cache it is the rows store's next file
// (keyed-store.ts beginNext), renamed into place when its rows are used (cachedRows); without one,
// a scratch file. It is removed at close unless kept; removeStaleTemps a stopped build's.
import { beginNext, type OwnNextFile } from '../cache/keyed-store.ts';
import { rowsFileHeader, type RowsInProgress } from './render-cache.ts';
import { ScratchFile } from '../../util/scratch-file.ts';

export class RowsScratch {
  /** where the entries end, shared with the threads (Atomics) */
  readonly end = new BigInt64Array(new SharedArrayBuffer(8));
  /** false once a thread could not write a batch's rows (they came in its answer instead) */
  complete = true;
  private closed = false;

  private constructor(
    readonly fd: number,
    /** the file that may become the rows file; null for a scratch file */
    private readonly file: OwnNextFile | null,
    private readonly scratch: ScratchFile | null,
  ) {
    this.end[0] = BigInt(rowsFileHeader().length);
  }

  /** Beside `rowsPath` (null: a scratch file); null when none can be made (the threads then send their rows). */
  static create(rowsPath: string | null): RowsScratch | null {
    if (rowsPath !== null) {
      try {
        const file = beginNext(rowsPath, rowsFileHeader());
        return new RowsScratch(file.fd, file, null);
      } catch {
        // a scratch file then
      }
    }
    const scratch = ScratchFile.create('rows');
    return scratch && new RowsScratch(scratch.fd, null, scratch);
  }

  /** For the render cache to keep: when named and complete. */
  inProgress(): RowsInProgress | null {
    const file = this.file;
    if (file === null || file.kept || !this.complete || this.closed) return null;
    return { fd: this.fd, end: Number(this.end[0]), keepAs: (target) => file.keepAs(target) };
  }

  /** Once no thread writes to it: closes it, removed unless kept. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.file?.drop();
    this.scratch?.close();
  }
}
