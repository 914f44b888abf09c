// The event rows read from their part files by offset, for `aula serve`. Held in the JS heap
// they were ~230 MB of private memory per process at 100k events, and again in every worker;
// read by offset, the OS page cache holds them once for all workers and processes, and a page
// of the default list is one contiguous range, so one pread (two where it crosses from one part
// into the next). Kept apart from row-source.ts so that the edge worker's bundle, which has no
// file system, does not import node:fs.
import { closeSync, constants, fstatSync, openSync, read as readCallback, readSync, readvSync } from 'node:fs';
import { eachPiece, partAt, partStarts, type RowSource } from '../format/row-source.ts';
import { takeBuffer } from './page-buffers.ts';

/**
 * The head's blocks: each read whole from the file the first time a read reaches it, then copied
 * from memory (a block costs a few row reads once, and nothing at start).
 */
const HEAD_BLOCK = 64 * 1024;
/**
 * What a server holds of the rows' head (holdHead): at 100k events the first 16 MiB hold nearly
 * every row of a substring search's first pages, within the memory the serving process may grow by.
 */
export const SERVED_HEAD_BYTES = 16 * 1024 * 1024;
/** readAhead's reads: each a short piece of work on this thread (its chunk's handler) between turns of the event loop */
const READ_AHEAD_CHUNK = 1024 * 1024;
/**
 * readPieces reads ranges at most this far apart within a part with one system call, the bytes
 * between them into a scratch block that nobody reads: a read of the file costs about what
 * copying 50 KiB more in it does (the system call and the page cache's walk), so a filtered
 * page's rows, a few apart, cost one read instead of one each.
 */
const PIECE_GAP = 32 * 1024;
/** buffers in one preadv at most (Linux's IOV_MAX: libuv reads no more in one call) */
const MOST_BUFFERS = 1024;
/** where the bytes between gathered ranges go (never read) */
let gapSink: Buffer | undefined;
const readAsync = (fd: number, buffer: Uint8Array, offset: number, length: number, position: number) =>
  new Promise<number>((done, fail) => readCallback(fd, buffer, offset, length, position, (e, n) => (e ? fail(e) : done(n))));

/**
 * Opened without access-time updates where the system allows it (Linux, for a file this process
 * owns or may change the times of): each read of a scattered page's row otherwise checks whether
 * the file's access time is due, a kernel call per row for a time nobody reads of dist/'s rows.
 */
/** The part opened for reading: without access-time updates where it may be (else EPERM: opened plainly). */
function openPart(path: string): number {
  // (read here, not at the module's top: a use there keeps node:fs in the edge bundle, which has none)
  const noAtime = constants.O_NOATIME ?? 0;
  if (noAtime !== 0) {
    try {
      return openSync(path, constants.O_RDONLY | noAtime);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EPERM') throw e;
    }
  }
  return openSync(path, 'r');
}

/** Closes the descriptors of file sources nobody can read from any more (a dataset replaced and dropped). */
let closer: FinalizationRegistry<number[]> | undefined;
const closeFds = (fds: number[]) => {
  for (const fd of fds) {
    try {
      closeSync(fd);
    } catch {
      // already closed: nothing held
    }
  }
};

/** A part that cannot be opened: which one, and the open's error (ENOENT, EACCES, …). */
export class PartOpenError extends Error {
  constructor(
    readonly part: number,
    override readonly cause: unknown,
  ) {
    super((cause as Error).message);
  }
}

/**
 * Rows read by offset from open files, the parts of the rows in order. The descriptors stay on
 * the files that were opened (and verified): a build swaps a new dist/ in by renaming, so the old
 * files keep answering, unchanged, until their dataset is dropped.
 */
export class FileRows implements RowSource {
  readonly inMemory = false;
  readonly byteLength: number;
  /** where each part starts in the rows, then their total */
  private readonly starts: Float64Array;
  private fds: number[];
  /** the first bytes of the rows, held in memory once read (holdHead); empty: none held */
  private head: Buffer = Buffer.alloc(0);
  /** which of the head's blocks are read already */
  private headRead = new Uint8Array(0);
  /** the whole rows read ahead (readAhead), which the next readAll returns */
  private ahead: Buffer | undefined;

  /** Opens the parts for reading; throws PartOpenError naming the part that could not be. */
  constructor(paths: string | readonly string[]) {
    const fds: number[] = [];
    const sizes: number[] = [];
    try {
      for (const path of typeof paths === 'string' ? [paths] : paths) {
        try {
          const fd = openPart(path);
          fds.push(fd);
          sizes.push(fstatSync(fd).size);
        } catch (e) {
          throw new PartOpenError(sizes.length, e);
        }
      }
    } catch (e) {
      closeFds(fds);
      throw e;
    }
    this.fds = fds;
    this.starts = partStarts(sizes);
    this.byteLength = this.starts[sizes.length];
    (closer ??= new FinalizationRegistry(closeFds)).register(this, fds, this);
  }

  /** Device and inode of each open part: which files these are (a rename swapping a new file in changes the inode). */
  identities(): { dev: number; ino: number }[] {
    return this.fds.map((fd) => {
      const { dev, ino } = fstatSync(fd);
      return { dev, ino };
    });
  }

  /**
   * Holds the first `bytes` of the rows in memory, each block read the first time a read reaches
   * it. The rows are in the list's own order, newest first, so the first pages of every list in
   * that order, filtered or not (a substring search's, a flag's), read their rows from there: a
   * copy from memory where a read of the file costs a system call and the page cache's walk per
   * row. The rest of the rows stay in the page cache only.
   */
  holdHead(bytes: number): void {
    const length = Math.min(Math.max(0, Math.floor(bytes)), this.byteLength);
    this.head = Buffer.allocUnsafeSlow(length);
    this.headRead = new Uint8Array(Math.ceil(length / HEAD_BLOCK));
  }

  /** Answer bodies come from the page pool: the server gives them back after writing them. */
  allocate(length: number): Buffer {
    return takeBuffer(length);
  }

  /**
   * On a pooled buffer too (a caller may keep it: a block nobody releases is ordinary garbage).
   * Rows read for an answer then cost no fresh allocation: a detail's row is its body, released
   * once written, and a spliced page's runs are released as soon as they are joined (api/body.ts).
   */
  read(at: number, length: number): Buffer {
    const out = takeBuffer(length);
    this.readInto(out, 0, at, length);
    return out;
  }

  readInto(target: Uint8Array, offset: number, at: number, length: number): void {
    if (this.fds.length === 0) throw new Error('the event rows were closed');
    if (at < 0 || length < 0 || at + length > this.byteLength) throw new RangeError(`bytes ${at}+${length} outside the event rows (${this.byteLength} bytes)`);
    if (offset < 0 || offset + length > target.byteLength) throw new RangeError('target too small');
    if (at < this.head.length) {
      // the part in the head from memory, the rest (if any) from the file
      const held = Math.min(length, this.head.length - at);
      this.readHead(target, offset, at, held);
      if (held === length) return;
      offset += held;
      at += held;
      length -= held;
    }
    // A scattered page is a read per row, nearly each inside one part: read straight from it,
    // without eachPiece's callback (across parts, piece by piece).
    const part = partAt(this.starts, at);
    if (at + length <= this.starts[part + 1]) {
      this.readPart(part, target, offset, at - this.starts[part], length);
      return;
    }
    eachPiece(this.starts, at, length, (part, from, n, before) => this.readPart(part, target, offset + before, from, n));
  }

  /**
   * The ranges (RowSource.readPieces) with one read per group of them near each other within a
   * part, the bytes between them read and dropped; ranges in the head are copied from memory.
   */
  readPieces(target: Uint8Array, pieces: Float64Array, count: number): void {
    let k = 0;
    while (k < count) {
      const at = pieces[3 * k + 1];
      const length = pieces[3 * k + 2];
      const part = at < this.head.length ? -1 : partAt(this.starts, at);
      const partEnd = part < 0 ? 0 : this.starts[part + 1];
      let end = at + length;
      let m = k + 1;
      if (part >= 0 && end <= partEnd) {
        // (each range after the first may add a gap's buffer: two buffers a range)
        while (m < count && 2 * (m - k) < MOST_BUFFERS) {
          const next = pieces[3 * m + 1];
          const nextEnd = next + pieces[3 * m + 2];
          if (next < end || next - end > PIECE_GAP || nextEnd > partEnd) break;
          end = nextEnd;
          m++;
        }
      }
      if (m === k + 1) this.readInto(target, pieces[3 * k], at, length);
      else this.readGathered(part, target, pieces, k, m);
      k = m;
    }
  }

  /** Ranges k..m of `pieces`, all within part `part`, with one preadv. */
  private readGathered(part: number, target: Uint8Array, pieces: Float64Array, k: number, m: number): void {
    if (this.fds.length === 0) throw new Error('the event rows were closed');
    const sink = (gapSink ??= Buffer.allocUnsafeSlow(PIECE_GAP));
    const buffers: Uint8Array[] = [];
    let last = pieces[3 * k + 1];
    let total = 0;
    for (let i = k; i < m; i++) {
      const place = pieces[3 * i];
      const at = pieces[3 * i + 1];
      const length = pieces[3 * i + 2];
      if (place < 0 || place + length > target.byteLength) throw new RangeError('target too small');
      if (at > last) buffers.push(sink.subarray(0, at - last));
      buffers.push(new Uint8Array(target.buffer, target.byteOffset + place, length));
      total += at - last + length;
      last = at + length;
    }
    const got = readvSync(this.fds[part], buffers, pieces[3 * k + 1] - this.starts[part]);
    if (got === total) return;
    // a short read (a part changed under us, or a system that reads less at once): range by range
    for (let i = k; i < m; i++) this.readInto(target, pieces[3 * i], pieces[3 * i + 1], pieces[3 * i + 2]);
  }

  /** Bytes [at, at + length) of the head into `target` at `offset`, its blocks read first where they are not yet. */
  private readHead(target: Uint8Array, offset: number, at: number, length: number): void {
    for (let block = Math.floor(at / HEAD_BLOCK), last = Math.floor((at + length - 1) / HEAD_BLOCK); block <= last; block++) {
      if (this.headRead[block] === 1) continue;
      const from = block * HEAD_BLOCK;
      const n = Math.min(HEAD_BLOCK, this.head.length - from);
      eachPiece(this.starts, from, n, (part, within, size, before) => this.readPart(part, this.head, from + before, within, size));
      this.headRead[block] = 1;
    }
    this.head.copy(target, offset, at, at + length);
  }

  /** `n` bytes from `from` within part `part` into `target` at `offset`. */
  private readPart(part: number, target: Uint8Array, offset: number, from: number, n: number): void {
    let done = 0;
    while (done < n) {
      const got = readSync(this.fds[part], target, offset + done, n - done, from + done);
      // a part was truncated under us: never hand out uninitialised memory
      if (got === 0) throw new Error(`part ${part} of the event rows ended early (changed in place after it was loaded?)`);
      done += got;
    }
  }

  /** The whole rows, read once (for their checksums and offset checks at load): the bytes readAhead read, else read now. */
  readAll(): Buffer {
    const ahead = this.ahead;
    this.ahead = undefined;
    return ahead ?? this.read(0, this.byteLength);
  }

  /**
   * Reads the whole rows through the descriptors kept, a chunk at a time off this thread (the event
   * loop runs between chunks), each chunk handed to `chunk` as it arrives (a reload hashes them
   * there); the next readAll returns these bytes, once. Rejects where a part ends early.
   */
  async readAhead(chunk: (bytes: Buffer) => void = () => {}): Promise<Buffer> {
    const fds = this.fds;
    if (fds.length === 0) throw new Error('the event rows were closed');
    const all = Buffer.allocUnsafe(this.byteLength);
    for (let part = 0; part < fds.length; part++) {
      for (let at = this.starts[part]; at < this.starts[part + 1]; ) {
        const n = Math.min(READ_AHEAD_CHUNK, this.starts[part + 1] - at);
        const got = await readAsync(fds[part], all, at, n, at - this.starts[part]);
        if (this.fds !== fds) throw new Error('the event rows were closed');
        if (got === 0) throw new Error(`part ${part} of the event rows ended early (changed in place after it was opened?)`);
        chunk(all.subarray(at, at + got));
        at += got;
      }
    }
    this.ahead = all;
    return all;
  }

  /** Part `i`'s bytes read into `buffer` (at least as long as the longest part): a view of them there. */
  partInto(buffer: Uint8Array, i: number): Uint8Array {
    const length = this.starts[i + 1] - this.starts[i];
    this.readPart(i, buffer, 0, 0, length);
    return buffer.subarray(0, length);
  }

  /** Whether readAhead's bytes wait for the next readAll. */
  hasAhead(): boolean {
    return this.ahead !== undefined;
  }

  /** The longest part's length in bytes. */
  longestPart(): number {
    let most = 0;
    for (let i = 0; i + 1 < this.starts.length; i++) most = Math.max(most, this.starts[i + 1] - this.starts[i]);
    return most;
  }

  /** Part `i`'s bytes within `all` (readAll's). */
  part(all: Uint8Array, i: number): Uint8Array {
    return all.subarray(this.starts[i], this.starts[i + 1]);
  }

  /** Closes the descriptors now; later reads throw rather than reading whatever reuses their numbers. */
  close(): void {
    if (this.fds.length === 0) return;
    closer?.unregister(this);
    const fds = this.fds;
    this.fds = [];
    this.ahead = undefined;
    this.holdHead(0);
    closeFds(fds);
  }
}
