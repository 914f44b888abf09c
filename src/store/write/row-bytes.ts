// The event rows (their parts' concatenation, dist-paths.ts) built row by row into one buffer. Each row goes into its place as soon as it is
// made (rendered, or copied from the render cache): no row is held as a string until all are
// made, which at 100k events was ~240 MB of strings (two-byte where the text is not Latin-1)
// beside the ~240 MB buffer they were then copied into.
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

export class RowBytes {
  /** rows × (FIELD_COUNT + 1) field offsets, as serializeEvent gives them */
  readonly starts: Uint32Array;
  /** `starts` as bytes (to copy stored offsets into) */
  readonly startsBytes: Buffer;
  /** where each row's JSON starts in the buffer */
  readonly at: number[] = [];
  // Allocated, not filled: pages never written are never resident, so a generous guess costs
  // address space, not memory.
  private bytes: Buffer;
  private end = 0;

  constructor(readonly count: number) {
    this.starts = new Uint32Array(count * STRIDE);
    this.startsBytes = Buffer.from(this.starts.buffer, this.starts.byteOffset, this.starts.byteLength);
    this.bytes = Buffer.allocUnsafe(Math.max(count, 1) * GUESS);
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
    const grown = Buffer.allocUnsafe(Math.max(this.end + n, Math.ceil(this.bytes.length * 1.5)));
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
    else {
      // read straight into its place; the offsets say how long it is
      if (readFully(json.fd, this.bytes, at, length, json.position) < length) throw new Error(`row ${row}'s file ended before the row did`);
    }
    this.end += length;
  }

  /** The next row, copied from `source` at `from`; its offsets are in `starts` already. */
  addStored(source: Uint8Array, from: number): void {
    const row = this.at.length;
    const length = this.starts[row * STRIDE + FIELD_COUNT];
    const at = this.place(length);
    this.bytes.set(source.subarray(from, from + length), at);
    this.end += length;
  }

  /** A row's JSON as placed. */
  row(row: number): Buffer {
    return this.bytes.subarray(this.at[row], this.at[row] + this.starts[row * STRIDE + FIELD_COUNT]);
  }

  /** The rows, once every row counted is in. */
  finish(): EventRows {
    if (this.at.length !== this.count) throw new Error(`${this.at.length} rows of ${this.count}`);
    return new EventRows(this.bytes.subarray(0, this.end), this.starts);
  }
}
