// A cheap check of the per-field offsets (data/events/<part>.offsets.bin) against the event rows. Checksums
// prove the files are the ones the build wrote; this proves the offsets describe the rows, so a
// hand-made dist with matching checksums but wrong offsets cannot make the server slice invalid
// JSON. Per field it reads four bytes: `{"` or `,"` where the key starts and `":` where it ends.
import { EVENT_FIELDS } from '../../model/event-fields.ts';

const FIELD_COUNT = EVENT_FIELDS.length;
const STRIDE = FIELD_COUNT + 1;
/** length of `"key"` per field */
const QUOTED_KEY = EVENT_FIELDS.map((f) => Buffer.byteLength(f) + 2);
const OPEN = 0x7b;
const CLOSE = 0x7d;
const COMMA = 0x2c;
const QUOTE = 0x22;
const COLON = 0x3a;
const NEWLINE = 0x0a;

/**
 * What is wrong with the offsets of `lines`, or null when every field starts and ends where its row
 * says. `firstRow`: the number of the first row in `starts` (messages name rows from the file's start).
 */
export function rowOffsetsProblem(lines: Uint8Array, starts: Uint32Array | Uint16Array, firstRow = 0): string | null {
  return rowOffsetsFault(lines, starts, firstRow)?.problem ?? null;
}

/** rowOffsetsProblem, with the row it is found at (the offsets' first row when they are not whole rows). */
export function rowOffsetsFault(lines: Uint8Array, starts: Uint32Array | Uint16Array, firstRow = 0): { row: number; problem: string } | null {
  const fault = (row: number, problem: string) => ({ row, problem });
  if (starts.length % STRIDE !== 0) return fault(firstRow, 'the offsets are not whole rows');
  const rows = starts.length / STRIDE;
  let at = 0;
  for (let index = 0; index < rows; index++) {
    const base = index * STRIDE;
    const row = firstRow + index;
    const length = starts[base + FIELD_COUNT];
    const end = at + length;
    if (length < 2 || end > lines.length || lines[at] !== OPEN || lines[end - 1] !== CLOSE || (end < lines.length && lines[end] !== NEWLINE)) {
      return fault(row, `event ${row} does not fit its offsets`);
    }
    let previous = 0;
    for (let field = 0; field < FIELD_COUNT; field++) {
      const start = starts[base + field];
      const keyEnd = start + QUOTED_KEY[field];
      if (
        start <= previous || keyEnd >= length ||
        lines[at + start - 1] !== (field === 0 ? OPEN : COMMA) || lines[at + start] !== QUOTE ||
        lines[at + keyEnd - 1] !== QUOTE || lines[at + keyEnd] !== COLON
      ) {
        return fault(row, `field ${EVENT_FIELDS[field]} of event ${row} is not where its offset says`);
      }
      previous = start;
    }
    // the last value ends where the row's closing brace is
    if (starts[base + FIELD_COUNT - 1] >= length - 1) return fault(row, `event ${row} does not fit its offsets`);
    at = end + 1;
  }
  return null;
}

/** Whether every offset fits in 16 bits (see compactOffsets). */
export function fitIn16Bits(starts: Uint32Array): boolean {
  for (let i = 0; i < starts.length; i++) if (starts[i] > 0xffff) return false;
  return true;
}

/**
 * The offsets in 16 bits when every one fits (offsets are within a row, so they do whenever
 * every row is shorter than 64 KiB): half the memory. Else the
 * offsets as they are. The values are the same either way, and checked against the rows after.
 */
export function compactOffsets(starts: Uint32Array): Uint32Array | Uint16Array {
  if (!fitIn16Bits(starts)) return starts;
  // the constructor converts in one native pass (from() iterates)
  return new Uint16Array(starts);
}

/**
 * rowOffsetsProblem over rows that arrive in pieces (read in chunks on the load check's thread,
 * across part files): each call checks the rows whose bytes and newline have all arrived, keeping
 * at most one row's bytes back, so the rows are never held whole.
 */
export class RowOffsetsCheck {
  private carry: Uint8Array = new Uint8Array(0);
  private row = 0;
  private problem: string | null = null;
  /** the row the problem is found at */
  failedRow = 0;
  private readonly rows: number;

  constructor(
    private readonly starts: Uint32Array | Uint16Array,
    /** the rows' total length in bytes: a row said to be longer cannot fit */
    private readonly total: number,
  ) {
    this.rows = starts.length % STRIDE === 0 ? starts.length / STRIDE : -1;
    if (this.rows < 0) this.problem = 'the offsets are not whole rows';
  }

  /** The next bytes of the rows (not kept: the caller may reuse the buffer). */
  feed(bytes: Uint8Array): void {
    // bytes after the last row: the rows' length is checked against the offsets elsewhere (EventRows)
    if (this.problem !== null || this.row >= this.rows) return;
    let data = bytes;
    if (this.carry.length > 0) {
      // the row begun in the bytes before: complete it (and its newline) from the head of these
      const need = this.rowLength(this.row);
      if (need < 0) return;
      const missing = need + 1 - this.carry.length;
      if (missing > bytes.length) {
        this.carry = Buffer.concat([this.carry, bytes]);
        return;
      }
      this.checkRows(Buffer.concat([this.carry, bytes.subarray(0, missing)]));
      this.carry = new Uint8Array(0);
      data = bytes.subarray(missing);
    }
    const at = this.checkRows(data);
    // a copy: the caller may reuse what it fed (Buffer's slice would be a view on it)
    if (this.problem === null) this.carry = Uint8Array.prototype.slice.call(data, at);
  }

  /** The length of row `row`, or -1 (and the problem noted) when it cannot fit the rows. */
  private rowLength(row: number): number {
    const length = this.starts[row * STRIDE + FIELD_COUNT];
    if (length <= this.total) return length;
    this.problem = `event ${row} does not fit its offsets`;
    this.failedRow = row;
    return -1;
  }

  /** Checks the whole rows (each with its newline) at the start of `data`; how many bytes they took. */
  private checkRows(data: Uint8Array): number {
    let at = 0;
    let row = this.row;
    while (row < this.rows && this.problem === null) {
      const length = this.rowLength(row);
      if (length < 0 || at + length + 1 > data.length) break;
      at += length + 1;
      row++;
    }
    if (row > this.row && this.problem === null) {
      this.note(rowOffsetsFault(data.subarray(0, at), this.starts.subarray(this.row * STRIDE, row * STRIDE), this.row));
      this.row = row;
    }
    return at;
  }

  /** After the last bytes: what is wrong, or null. */
  finish(): string | null {
    if (this.problem !== null) return this.problem;
    if (this.row < this.rows) this.note(rowOffsetsFault(this.carry, this.starts.subarray(this.row * STRIDE), this.row));
    return this.problem;
  }

  private note(fault: { row: number; problem: string } | null): void {
    if (fault) [this.failedRow, this.problem] = [fault.row, fault.problem];
  }
}
