// The event rows (their parts' concatenation, dist-paths.ts) built row by row into one buffer. Each row goes into its place as soon as it is
// made (rendered, or read from the parse threads' file): no row is held as a string until all are
// made, which would double the rows' memory (two-byte strings where the text is not Latin-1)
// beside the buffer they would then be copied into. A row a parse thread left in a file has its place
// kept, and is read into it by finish() with its neighbours in that file. The buffer and the
// offsets are shared memory: a thread that reads the rows (search-thread.ts) is handed them, not a
// copy.
import { readFully } from '../../util/positional-io.ts';
import { EventRows, FIELD_COUNT } from '../format/event-rows.ts';

/** A row's bytes in a file: the build's parse threads leave the rows they render in scratch files. */
export interface RowInFile {
  fd: number;
  position: number;
}

const STRIDE = FIELD_COUNT + 1;
/** a first guess of a row's bytes; the buffer grows by half when the rows are larger */
const GUESS = 3 << 10;
/** bytes of a file read at once by finish(), at most */
const CHUNK = 4 << 20;

/** Bytes in shared memory (zeroed as the kernel maps them: pages never written cost no memory). */
const sharedBytes = (n: number) => Buffer.from(new SharedArrayBuffer(n));

export class RowBytes {
  /** rows × (FIELD_COUNT + 1) field offsets, as serializeEvent gives them */
  readonly starts: Uint32Array;
  /** `starts` as bytes (to copy stored offsets into) */
  readonly startsBytes: Buffer;
  /** where each row's JSON starts in the buffer */
  readonly at: number[] = [];
  // A generous guess costs address space, not memory: pages never written are never resident.
  private bytes: Buffer;
  private end = 0;
  /** rows placed whose bytes are still in their files (addBytes), read by finish() */
  private unread: { fd: number; position: number; length: number; row: number }[] = [];

  constructor(readonly count: number) {
    this.starts = new Uint32Array(new SharedArrayBuffer(count * STRIDE * 4));
    this.startsBytes = Buffer.from(this.starts.buffer, this.starts.byteOffset, this.starts.byteLength);
    this.bytes = sharedBytes(Math.max(count, 1) * GUESS);
  }

  /** Room for the next row of `length` bytes (and its line feed); returns where it starts. */
  private place(length: number): number {
    const row = this.at.length;
    if (row >= this.count) throw new Error('more rows than counted');
    if (row > 0) {
      this.room(1);
      this.bytes[this.end++] = 0x0a;
    }
    this.room(length);
    this.at.push(this.end);
    return this.end;
  }

  private room(n: number): void {
    if (this.end + n <= this.bytes.length) return;
    const grown = sharedBytes(Math.max(this.end + n, Math.ceil(this.bytes.length * 1.5)));
    this.bytes.copy(grown, 0, 0, this.end);
    this.bytes = grown;
  }

  /** The next row, rendered: its JSON and its offsets (serializeEvent). */
  addJson(json: string, offsets: ArrayLike<number>): void {
    const row = this.at.length;
    const length = offsets[FIELD_COUNT];
    const at = this.place(length);
    this.starts.set(offsets, row * STRIDE);
    if (this.bytes.write(json, at) !== length) throw new Error(`row ${row} does not fit its offsets`);
    this.end += length;
  }

  /** The next row, made elsewhere as UTF-8: its bytes (or where they are) and offsets (serializeEvent's). */
  addBytes(json: Uint8Array | RowInFile, offsets: ArrayLike<number>): void {
    const row = this.at.length;
    const length = offsets[FIELD_COUNT];
    if (json instanceof Uint8Array && json.byteLength !== length) throw new Error(`row ${row} does not fit its offsets`);
    const at = this.place(length);
    this.starts.set(offsets, row * STRIDE);
    if (json instanceof Uint8Array) this.bytes.set(json, at);
    // its place is kept, and the row read into it by finish() with the rows around it
    else this.unread.push({ fd: json.fd, position: json.position, length, row });
    this.end += length;
  }

  /**
   * Reads the rows left in files into their places: each file in order of position, a chunk of
   * rows at a time. The rows of a file are end to end in the order a thread made them, and the
   * list order is another: read one by one, 100k rows were 100k reads (0.3-0.5 s on one thread,
   * against ~0.08 s in 4 MB chunks).
   */
  private readUnread(): void {
    const unread = this.unread.sort((a, b) => a.fd - b.fd || a.position - b.position);
    this.unread = [];
    let chunk: Buffer | null = null;
    for (let i = 0; i < unread.length; ) {
      const first = unread[i];
      // the rows that follow on in the same file and fit one chunk with it
      let j = i + 1;
      while (j < unread.length && unread[j].fd === first.fd && unread[j].position + unread[j].length - first.position <= CHUNK) j++;
      const span = unread[j - 1].position + unread[j - 1].length - first.position;
      if (span > CHUNK || j === i + 1) {
        // a row alone (larger than a chunk, or far from the next): read straight into its place
        if (readFully(first.fd, this.bytes, this.at[first.row], first.length, first.position) < first.length) throw new Error(`row ${first.row}'s file ended before the row did`);
        i++;
        continue;
      }
      chunk ??= Buffer.allocUnsafe(CHUNK);
      const got = readFully(first.fd, chunk, 0, span, first.position);
      for (; i < j; i++) {
        const r = unread[i];
        const from = r.position - first.position;
        if (from + r.length > got) throw new Error(`row ${r.row}'s file ended before the row did`);
        chunk.copy(this.bytes, this.at[r.row], from, from + r.length);
      }
    }
  }

  /** A row's JSON as placed (once finish() has read the rows left in files). */
  row(row: number): Buffer {
    return this.bytes.subarray(this.at[row], this.at[row] + this.starts[row * STRIDE + FIELD_COUNT]);
  }

  /** The rows, once every row counted is in. */
  finish(): EventRows {
    if (this.at.length !== this.count) throw new Error(`${this.at.length} rows of ${this.count}`);
    this.readUnread();
    return new EventRows(this.bytes.subarray(0, this.end), this.starts);
  }
}
