// Pre-serialized events. Each event is serialized once (at build time) into one line of UTF-8
// JSON; the byte offset of each key is recorded, so answers are joined from byte slices —
// whole events, sparse fields, an expanded value spliced in — without decoding or
// re-serializing anything per request.
import { EVENT_FIELDS, type EventField } from '../../model/event-fields.ts';
import { escapeSeparators, needsEscaping, toJson } from '../../util/json.ts';
import { fieldOffsets } from './field-offsets.ts';
import { memoryRows, readPieces, type RowSource } from './row-source.ts';

export const FIELD_COUNT = EVENT_FIELDS.length;
const STRIDE = FIELD_COUNT + 1;
const FIELD_INDEX = new Map<string, number>(EVENT_FIELDS.map((f, i) => [f, i]));
/** length of `"key":` per field (keys are ASCII) */
const KEY_PREFIX = EVENT_FIELDS.map((f) => f.length + 3);
const COMMA = Buffer.from(',');
const OPEN = Buffer.from('{');
const CLOSE = Buffer.from('}');

/**
 * Byte range [from, to) of field `field`'s JSON value within a row, from the row's offsets at
 * `starts[base..]` (serializeEvent's): after its `"key":`, up to the comma or `}` that ends it.
 */
export function valueSpanIn(starts: ArrayLike<number>, base: number, field: number): [number, number] {
  return [starts[base + field] + KEY_PREFIX[field], starts[base + field + 1] - 1];
}

/**
 * Whether the i-th of listed rows (null: the rows themselves) is the row after the one listed
 * before it: the two lie one newline apart in the file, one run of its bytes.
 */
export function nextInFile(rows: ArrayLike<number> | null, i: number): boolean {
  return rows === null || rows[i] === rows[i - 1] + 1;
}

export function fieldIndex(field: string): number | undefined {
  return FIELD_INDEX.get(field);
}

/** Each field's `"key":` as bytes (the scan of a row checks them, field-offsets.ts). */
const KEYS = EVENT_FIELDS.map((f) => Buffer.from(`"${f}":`));
/** A row's UTF-8 while its offsets are found: grows to the largest row, kept for the next. */
let scratch = Buffer.allocUnsafeSlow(64 << 10);

/**
 * Serializes a rendered event (keys in EVENT_FIELDS order, as renderEvent makes it) as one line
 * of UTF-8 JSON. `starts[i]` is the byte offset of field i's `"key":` within the line,
 * `starts[FIELD_COUNT]` the line's byte length; `bytes` is the line's UTF-8, a view of a buffer
 * the next call reuses (copy it to keep it).
 */
export function serializeEventBytes(obj: Readonly<Record<EventField, unknown>>): { json: string; bytes: Buffer; starts: number[] } {
  const stringified = JSON.stringify(obj);
  // U+2028/U+2029 are rare: test the whole event once, and only then escape
  const json = needsEscaping(stringified) ? escapeSeparators(stringified) : stringified;
  // (UTF-8 takes at most 3 bytes per UTF-16 unit)
  if (scratch.length < json.length * 3) scratch = Buffer.allocUnsafeSlow(json.length * 3);
  const length = scratch.write(json, 0);
  const starts: number[] = [];
  if (fieldOffsets(scratch, 0, length, KEYS, starts)) return { json, bytes: scratch.subarray(0, length), starts };
  // not one field after the other as EVENT_FIELDS says (an object not made by renderEvent)
  const row = serializeFieldByField(obj);
  return { ...row, bytes: Buffer.from(row.json) };
}

/** serializeEventBytes' line as a string, and its offsets. */
export function serializeEvent(obj: Readonly<Record<EventField, unknown>>): { json: string; starts: number[] } {
  const { json, starts } = serializeEventBytes(obj);
  return { json, starts };
}

/** The same line made one field at a time, whatever the object's own keys and their order. */
function serializeFieldByField(obj: Readonly<Record<EventField, unknown>>): { json: string; starts: number[] } {
  const parts = EVENT_FIELDS.map((f) => `"${f}":${toJson(obj[f])}`);
  const starts: number[] = [];
  let at = 1;
  for (const part of parts) {
    starts.push(at);
    at += Buffer.byteLength(part) + 1;
  }
  starts.push(at);
  return { json: `{${parts.join(',')}}`, starts };
}

/** Rows closer than this in the file are read with the bytes between them, in one read. */
const RUN_GAP = 16 * 1024;
/** The ranges a page's rows are read as (RowSource.readPieces): grows to the largest page, reused. */
let pieces = new Float64Array(3 * 64);

export class EventRows {
  /** byte offset of each row's line in the event rows (the parts' bytes end to end) */
  protected readonly lineStarts: Float64Array;
  /**
   * each row's byte length, apart from `starts`: a page's rows are read by where they start and
   * how long they are, and a row's length in `starts` lies in that row's own wide stretch of a
   * large array (a cache miss, often a TLB miss, per row of a scattered page); here the lengths
   * of all rows lie together, four bytes a row
   */
  protected readonly lengths: Uint32Array;
  private readonly source: RowSource;

  /**
   * `lines`: the UTF-8 of the event rows (the parts end to end), one event per line in list order (or where to read it);
   * `starts`: rows × (FIELD_COUNT + 1) byte offsets from serializeEvent. Throws when the two do
   * not fit together (a truncated or mismatched file). A source that is not in memory is not
   * read here: its bytes must have been checked already (rowOffsetsProblem). `lineStarts`: each
   * row's line start, made and checked by the caller (rows whose offsets arrive per part,
   * store/read/parted-rows.ts), filled in as they arrive; that caller notes their lengths too, as
   * they arrive (noteLengths), in `lengths` when it gives them (zeroed, one a row).
   */
  constructor(
    lines: Buffer | RowSource,
    readonly starts: Uint32Array | Uint16Array,
    lineStarts?: Float64Array,
    lengths?: Uint32Array,
  ) {
    if (starts.length % STRIDE !== 0) throw new Error('event offsets are not whole rows');
    const bytes = Buffer.isBuffer(lines) ? lines : null;
    this.source = bytes ? memoryRows(bytes) : (lines as RowSource);
    const count = starts.length / STRIDE;
    if (lineStarts) {
      this.lengths = lengths ?? new Uint32Array(count);
      this.lineStarts = lineStarts;
      return;
    }
    this.lengths = new Uint32Array(count);
    const total = this.source.byteLength;
    this.lineStarts = new Float64Array(count);
    let at = 0;
    for (let row = 0; row < count; row++) {
      const length = starts[row * STRIDE + FIELD_COUNT];
      const end = at + length;
      if (end > total || (bytes && (bytes[at] !== 0x7b || bytes[end - 1] !== 0x7d || (end < total && bytes[end] !== 0x0a)))) {
        throw new Error(`event ${row} does not fit its offsets`);
      }
      this.lineStarts[row] = at;
      this.lengths[row] = length;
      at = end + 1;
    }
    if (Math.max(at - 1, 0) !== total) throw new Error('events and offsets differ in length');
  }

  static from(serialized: readonly { json: string; starts: number[] }[]): EventRows {
    const starts = new Uint32Array(serialized.length * STRIDE);
    serialized.forEach((s, row) => starts.set(s.starts, row * STRIDE));
    return new EventRows(Buffer.from(serialized.map((s) => s.json).join('\n')), starts);
  }

  get length(): number {
    return this.lineStarts.length;
  }

  /** the rows as written, the parts end to end (read whole when it is not in memory) */
  get lineBytes(): Buffer {
    return this.source.read(0, this.source.byteLength);
  }

  /**
   * Says that rows[from..to) (row numbers themselves when `rows` is null) are about to be read: a
   * source loading per need (parted-rows.ts) asks for all their parts at once. Nothing to do here.
   */
  willRead(_rows: ArrayLike<number> | null, _from: number, _to: number): void {}

  /** Notes the lengths of rows [from, to) from `starts`, once their offsets are in (rows given their line starts). */
  protected noteLengths(from: number, to: number): void {
    for (let row = from; row < to; row++) this.lengths[row] = this.starts[row * STRIDE + FIELD_COUNT];
  }

  /** The length in bytes of a row's serialized event. */
  byteLength(row: number): number {
    return this.lengths[row];
  }

  /** The whole serialized event as UTF-8 (a view when the rows are in memory). */
  bytes(row: number): Buffer {
    return this.source.read(this.lineStarts[row], this.lengths[row]);
  }

  /**
   * Calls `visit` with each of `rows[from..to)` (ascending row numbers) and its bytes. From a
   * file, rows near each other are read together: a page of consecutive rows is one read.
   */
  eachRow(rows: ArrayLike<number> | null, from: number, to: number, visit: (row: number, bytes: Buffer) => void): void {
    const rowAt = (i: number) => (rows ? rows[i] : i);
    if (this.source.inMemory) {
      for (let i = from; i < to; i++) visit(rowAt(i), this.bytes(rowAt(i)));
      return;
    }
    let i = from;
    while (i < to) {
      // extend the run while the next row starts close to where the last one ended
      let j = i + 1;
      let end = this.lineEnd(rowAt(i));
      while (j < to && this.lineStarts[rowAt(j)] >= end && this.lineStarts[rowAt(j)] - end <= RUN_GAP) end = this.lineEnd(rowAt(j++));
      const runStart = this.lineStarts[rowAt(i)];
      const run = this.source.read(runStart, end - runStart);
      for (; i < j; i++) {
        const row = rowAt(i);
        const at = this.lineStarts[row] - runStart;
        visit(row, run.subarray(at, at + this.lengths[row]));
      }
    }
  }

  /** Releases the file the rows are read from, if any (a replaced dataset); later reads throw. */
  close(): void {
    this.source.close?.();
  }

  /** Whether reads are views of memory (free) rather than reads of the file. */
  get inMemory(): boolean {
    return this.source.inMemory;
  }

  /**
   * `head`, the whole rows `rows[from..to)` (any order; null: the rows themselves) separated by
   * `separator`, then `tail`, as one buffer. From the file, the rows are read straight into their
   * places in the file's order (readInPlaces), rows near each other with one read: the rows'
   * bytes are copied once, from the page cache into the answer.
   */
  joinRows(rows: ArrayLike<number> | null, from: number, to: number, head: Uint8Array, separator: number, tail: Uint8Array): Buffer {
    const n = Math.max(0, to - from);
    /** where each row (in the answer's order) goes in the answer */
    const places = new Float64Array(n);
    let total = head.byteLength;
    for (let i = 0; i < n; i++) {
      if (i > 0) total++;
      places[i] = total;
      total += this.lengths[rows ? rows[from + i] : from + i];
    }
    total += tail.byteLength;
    const out = this.source.allocate?.(total) ?? Buffer.allocUnsafe(total);
    out.set(head, 0);
    this.readInPlaces(rows, from, n, places, out);
    // the separator goes where the newline was, or after each row read on its own
    for (let i = 0; i + 1 < n; i++) out[places[i + 1] - 1] = separator;
    out.set(tail, total - tail.byteLength);
    return out;
  }

  /**
   * The rows `rows[from..to)` (ascending; null: the rows themselves) read into `target` at `at`
   * back to back: each run of rows that follow each other in the file with the newlines between
   * them kept, one run right after the other. Returns the bytes read (runsLength's).
   */
  readRuns(rows: ArrayLike<number> | null, from: number, to: number, target: Uint8Array, at: number): number {
    const n = Math.max(0, to - from);
    const places = new Float64Array(n);
    let place = at;
    for (let i = 0; i < n; i++) {
      if (i > 0 && nextInFile(rows, from + i)) place++;
      places[i] = place;
      place += this.lengths[rows ? rows[from + i] : from + i];
    }
    this.readInPlaces(rows, from, n, places, target);
    return place - at;
  }

  /** What readRuns reads: the rows' bytes and the newlines within their runs. */
  runsLength(rows: ArrayLike<number> | null, from: number, to: number): number {
    let length = 0;
    for (let i = from; i < to; i++) {
      const row = rows ? rows[i] : i;
      length += this.lengths[row] + (i > from && nextInFile(rows, i) ? 1 : 0);
    }
    return length;
  }

  /**
   * Reads the rows `rows[from..from + n)` (null: the rows themselves) into `target`, the i-th at
   * `places[i]`, in the file's order, as one set of ranges (readPieces): a row that follows the
   * one before it both in the file and in `target` extends that one's range by the newline
   * between them (a default page is one range).
   */
  private readInPlaces(rows: ArrayLike<number> | null, from: number, n: number, places: Float64Array, target: Uint8Array): void {
    const rowAt = (i: number) => (rows ? rows[from + i] : from + i);
    let order: Float64Array | null = null;
    for (let i = 1; i < n; i++) {
      if (rowAt(i) >= rowAt(i - 1)) continue;
      // row × n + place: sorted as numbers (no comparator), the places come in the rows' order
      order = new Float64Array(n);
      for (let j = 0; j < n; j++) order[j] = rowAt(j) * n + j;
      order.sort();
      for (let k = 0; k < n; k++) order[k] %= n;
      break;
    }
    if (pieces.length < 3 * n) pieces = new Float64Array(3 * Math.max(n, pieces.length));
    let count = 0;
    for (let k = 0; k < n; k++) {
      const i = order ? order[k] : k;
      const row = rowAt(i);
      const at = this.lineStarts[row];
      const length = this.lengths[row];
      const last = 3 * (count - 1);
      if (count > 0 && pieces[last + 1] + pieces[last + 2] + 1 === at && pieces[last] + pieces[last + 2] + 1 === places[i]) {
        pieces[last + 2] += length + 1;
        continue;
      }
      pieces[3 * count] = places[i];
      pieces[3 * count + 1] = at;
      pieces[3 * count + 2] = length;
      count++;
    }
    readPieces(this.source, target, pieces, count);
  }

  private lineEnd(row: number): number {
    return this.lineStarts[row] + this.lengths[row];
  }

  /** The whole serialized event, decoded. */
  json(row: number): string {
    return this.bytes(row).toString('utf8');
  }

  /** `"key":value` of one field of a row's bytes, without separators. */
  private segment(row: number, whole: Buffer, field: number): Buffer {
    const base = row * STRIDE;
    return whole.subarray(this.starts[base + field], this.starts[base + field + 1] - 1);
  }

  /** The JSON value of one field. */
  value(row: number, field: number): string {
    return this.segment(row, this.bytes(row), field).subarray(KEY_PREFIX[field]).toString('utf8');
  }

  /**
   * Appends to `out` the event with only the chosen fields (indexes ascending), some of them
   * replaced: `replace` maps a field index to the JSON value to write instead. `whole`: the
   * row's bytes.
   */
  projectInto(row: number, whole: Buffer, fields: readonly number[], replace: ReadonlyMap<number, (valueJson: string) => string> | undefined, out: Uint8Array[]): void {
    out.push(OPEN);
    fields.forEach((f, i) => {
      if (i > 0) out.push(COMMA);
      const swap = replace?.get(f);
      const segment = this.segment(row, whole, f);
      out.push(swap ? Buffer.from(`"${EVENT_FIELDS[f]}":${swap(segment.subarray(KEY_PREFIX[f]).toString('utf8'))}`) : segment);
    });
    out.push(CLOSE);
  }

  /** The event with only the chosen fields, some replaced (see projectInto), as one buffer. */
  project(row: number, fields: readonly number[], replace?: ReadonlyMap<number, (valueJson: string) => string>): Buffer {
    const parts: Uint8Array[] = [];
    this.projectInto(row, this.bytes(row), fields, replace, parts);
    return Buffer.concat(parts);
  }

  /** Appends to `out` the whole event (`whole`: its bytes) with one field's value replaced. */
  replaceValueInto(row: number, whole: Buffer, field: number, replace: (valueJson: string) => string, out: Uint8Array[]): void {
    const [from, to] = this.valueSpan(row, field);
    out.push(whole.subarray(0, from), Buffer.from(replace(whole.subarray(from, to).toString('utf8'))), whole.subarray(to));
  }

  /** Byte range [from, to) of one field's JSON value within the row's bytes. */
  valueSpan(row: number, field: number): [number, number] {
    return valueSpanIn(this.starts, row * STRIDE, field);
  }

  /** Where a row's line starts in the rows' bytes (lineBytes). */
  lineStart(row: number): number {
    return this.lineStarts[row];
  }

  /** The whole event with one field's value replaced, as one buffer. */
  replaceValue(row: number, field: number, replace: (valueJson: string) => string): Buffer {
    const parts: Uint8Array[] = [];
    this.replaceValueInto(row, this.bytes(row), field, replace, parts);
    return Buffer.concat(parts);
  }
}
