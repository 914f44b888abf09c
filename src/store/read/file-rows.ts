// The rows of events.jsonl read from the file by offset, for `aula serve`. Held in the JS heap
// they were ~230 MB of private memory per process at 100k events, and again in every worker;
// read by offset, the OS page cache holds them once for all workers and processes, and a page
// of the default list is one contiguous range, so one pread. Kept apart from row-source.ts so
// that the edge worker's bundle, which has no file system, does not import node:fs.
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import type { RowSource } from '../format/row-source.ts';
import { takeBuffer } from './page-buffers.ts';

/** Closes the descriptors of file sources nobody can read from any more (a dataset replaced and dropped). */
let closer: FinalizationRegistry<number> | undefined;
const closeFd = (fd: number) => {
  try {
    closeSync(fd);
  } catch {
    // already closed: nothing held
  }
};

/**
 * Rows read from an open file by offset. The descriptor stays on the file that was opened (and
 * verified): a build swaps a new dist/ in by renaming, so the old file keeps answering, unchanged,
 * until its dataset is dropped.
 */
export class FileRows implements RowSource {
  readonly inMemory = false;
  readonly byteLength: number;
  private fd: number;

  /** Opens `path` for reading; throws the open's error (ENOENT, EACCES, …). */
  constructor(path: string) {
    this.fd = openSync(path, 'r');
    try {
      this.byteLength = fstatSync(this.fd).size;
    } catch (e) {
      closeSync(this.fd);
      throw e;
    }
    (closer ??= new FinalizationRegistry(closeFd)).register(this, this.fd, this);
  }

  /** Answer bodies come from the page pool: the server gives them back after writing them. */
  allocate(length: number): Buffer {
    return takeBuffer(length);
  }

  read(at: number, length: number): Buffer {
    const out = Buffer.allocUnsafe(length);
    this.readInto(out, 0, at, length);
    return out;
  }

  readInto(target: Uint8Array, offset: number, at: number, length: number): void {
    if (this.fd < 0) throw new Error('events.jsonl was closed');
    if (at < 0 || length < 0 || at + length > this.byteLength) throw new RangeError(`bytes ${at}+${length} outside events.jsonl (${this.byteLength} bytes)`);
    if (offset < 0 || offset + length > target.byteLength) throw new RangeError('target too small');
    let done = 0;
    while (done < length) {
      const n = readSync(this.fd, target, offset + done, length - done, at + done);
      // the file was truncated under us: never hand out uninitialised memory
      if (n === 0) throw new Error('events.jsonl ended early (changed in place after it was loaded?)');
      done += n;
    }
  }

  /** The whole file, read once (for its checksum and offset checks at load). */
  readAll(): Buffer {
    return this.read(0, this.byteLength);
  }

  /** Closes the descriptor now; later reads throw rather than reading whatever reuses its number. */
  close(): void {
    if (this.fd < 0) return;
    closer?.unregister(this);
    const fd = this.fd;
    this.fd = -1;
    closeSync(fd);
  }
}
