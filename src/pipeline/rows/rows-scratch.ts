// The file the parse threads write their rows' JSON into, end to end (row-entries.ts): a scratch file
// (scratch-file.ts), unlinked as soon as it is opened. Each thread claims room for a batch from a
// shared counter, so none waits for another; a thread whose write fails sends its rows instead.
import { ScratchFile } from '../../util/scratch-file.ts';

export class RowsScratch {
  /** where the entries end, shared with the threads (Atomics) */
  readonly end = new BigInt64Array(new SharedArrayBuffer(8));
  private closed = false;

  private constructor(private readonly scratch: ScratchFile) {}

  get fd(): number {
    return this.scratch.fd;
  }

  /** Null when none can be made (the threads then send their rows). */
  static create(): RowsScratch | null {
    const scratch = ScratchFile.create('rows');
    return scratch && new RowsScratch(scratch);
  }

  /** Once no thread writes to it: closes it. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.scratch.close();
  }
}
