// Reads a binary data file's sections in place (src/store/format/sections.ts): each typed array a
// view of the file's bytes, nothing parsed or copied (unless the bytes themselves sit at an
// offset a typed array cannot start at, which a file read whole never does).
import { FormatError, HEADER_BYTES, MAGIC_BYTES, SECTION_ALIGN, SECTION_ENTRY_BYTES, sectionsStart, type Format } from '../format/sections.ts';

const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

type TypedArrayOf<T> = { new (buffer: ArrayBufferLike, byteOffset: number, length: number): T; readonly BYTES_PER_ELEMENT: number };

/**
 * A file read in parts (the edge's, fetched a section at a time and checked block by block): its
 * bytes are at hand as the runs fetched, not as one buffer.
 */
export interface FileInParts {
  /** makes sure the byte ranges [start, end) are at hand and checked; throws (FileNeeded, per-need.ts) naming those that are not yet */
  need(ranges: readonly (readonly [start: number, end: number])[]): void;
  /** bytes [start, end), at hand and checked (need them first): a view where they were fetched in one run */
  at(start: number, end: number): Uint8Array;
}

const inParts = new WeakMap<Uint8Array, FileInParts>();

/**
 * `standIn` (as long as the file, its bytes never written) as a file read in parts: Sections of it
 * read every range through `parts`, and no byte of the stand-in itself.
 */
export function readInParts(standIn: Uint8Array, parts: FileInParts): Uint8Array {
  inParts.set(standIn, parts);
  return standIn;
}

/** The file a stand-in (readInParts) reads in parts, or null for bytes held whole. */
export const partsOfFile = (bytes: Uint8Array): FileInParts | null => inParts.get(bytes) ?? null;

/** The sections of one file, as typed arrays over its bytes. */
export class Sections {
  private constructor(
    private readonly bytes: Uint8Array,
    private readonly offsets: Uint32Array,
    private readonly lengths: Uint32Array,
    readonly format: Format,
    private readonly parts: FileInParts | null,
  ) {}

  /** Checks the header (magic, version, section table) of `bytes` against `format`; throws FormatError. */
  static of(bytes: Uint8Array, format: Format): Sections {
    if (!LITTLE_ENDIAN) throw new FormatError('this machine is big-endian; aula reads its data files on little-endian machines only');
    if (bytes.byteLength < HEADER_BYTES) throw new FormatError(`not ${format.what} file (${bytes.byteLength} bytes, no header)`);
    const parts = inParts.get(bytes) ?? null;
    // (the section table of the format's count of sections: read with the header, in one round)
    const headEnd = Math.min(bytes.byteLength, sectionsStart(format.sections));
    parts?.need([[0, headEnd]]);
    const head = parts === null ? bytes : parts.at(0, headEnd);
    let magic = '';
    for (let i = 0; i < MAGIC_BYTES; i++) magic += String.fromCharCode(head[i]);
    if (magic !== format.magic) throw new FormatError(`not ${format.what} file (it starts with ${JSON.stringify(magic)}, not ${JSON.stringify(format.magic)})`);
    const view = new DataView(head.buffer, head.byteOffset, head.byteLength);
    const version = view.getUint32(MAGIC_BYTES, true);
    if (version !== format.version) {
      throw new FormatError(`${format.what} file of format version ${version}, made by another version of aula (this one reads version ${format.version})`);
    }
    const count = view.getUint32(MAGIC_BYTES + 4, true);
    if (count !== format.sections) throw new FormatError(`${format.what} file with ${count} sections, not ${format.sections}`);
    if (bytes.byteLength < sectionsStart(count)) throw new FormatError(`${format.what} file cut short in its section table`);
    // (the count is the format's: the section table lies within the head read)
    // a file read whole starts at offset 0 of its own buffer; anything else is copied once (a file
    // read in parts is read from its runs, each starting at a block)
    const aligned = parts !== null || bytes.byteOffset % SECTION_ALIGN === 0 ? bytes : bytes.slice();
    const offsets = new Uint32Array(count);
    const lengths = new Uint32Array(count);
    for (let i = 0; i < count; i++) {
      const offset = view.getUint32(HEADER_BYTES + i * SECTION_ENTRY_BYTES, true);
      const length = view.getUint32(HEADER_BYTES + i * SECTION_ENTRY_BYTES + 4, true);
      if (offset % SECTION_ALIGN !== 0 || offset < sectionsStart(count) || offset + length > bytes.byteLength) {
        throw new FormatError(`${format.what} file whose section ${i} lies outside it (${bytes.byteLength} bytes: cut short?)`);
      }
      offsets[i] = offset;
      lengths[i] = length;
    }
    return new Sections(aligned, offsets, lengths, format, parts);
  }

  /**
   * Sections `list` made sure of together (a file read in parts fetches them in one round, not one
   * round per section as they are read); a no-op for a file read whole.
   */
  need(list: readonly number[]): void {
    this.parts?.need(list.map((i) => [this.offsets[i], this.offsets[i] + this.lengths[i]] as const));
  }

  /** Whether the file is read in parts (readInParts): a reader leaves what an answer may not need for later. */
  get inParts(): boolean {
    return this.parts !== null;
  }

  /** Bytes of section `i`. */
  byteLength(i: number): number {
    return this.lengths[i];
  }

  /** Where section `i` starts in the file (a reader in parts aligns its reads to the file's blocks). */
  offset(i: number): number {
    return this.offsets[i];
  }

  private view<T>(i: number, type: TypedArrayOf<T>, what: string, expected?: number): T {
    const size = type.BYTES_PER_ELEMENT;
    const length = this.lengths[i];
    if (length % size !== 0) throw new FormatError(`${this.format.what} file whose ${what} is not a whole number of values`);
    const n = length / size;
    if (expected !== undefined && n !== expected) throw new FormatError(`${this.format.what} file whose ${what} holds ${n} values, not ${expected}`);
    if (this.parts !== null) {
      const start = this.offsets[i];
      this.parts.need([[start, start + length]]);
      const run = this.parts.at(start, start + length);
      return new type(run.buffer, run.byteOffset, n);
    }
    return new type(this.bytes.buffer, this.bytes.byteOffset + this.offsets[i], n);
  }

  /**
   * Section `i`'s bytes, to be read a range at a time: `at(start, end)` gives bytes [start, end)
   * of it (a file read in parts fetches them then; `need` asks for several ranges at once).
   */
  u8InParts(i: number, what: string): { length: number; at(start: number, end: number): Uint8Array; need(ranges: readonly (readonly [number, number])[]): void } {
    const { parts } = this;
    const length = this.lengths[i];
    if (parts === null) {
      const bytes = this.u8(i, what);
      return { length, at: (start, end) => bytes.subarray(start, end), need: () => {} };
    }
    const offset = this.offsets[i];
    const within = (start: number, end: number) => [offset + Math.min(start, length), offset + Math.min(end, length)] as const;
    return {
      length,
      at: (start, end) => {
        const [from, to] = within(start, end);
        parts.need([[from, to]]);
        return parts.at(from, to);
      },
      need: (ranges) => parts.need(ranges.map(([start, end]) => within(start, end))),
    };
  }

  u8(i: number, what: string, expected?: number): Uint8Array {
    return this.view(i, Uint8Array, what, expected);
  }
  u16(i: number, what: string, expected?: number): Uint16Array {
    return this.view(i, Uint16Array, what, expected);
  }
  i32(i: number, what: string, expected?: number): Int32Array {
    return this.view(i, Int32Array, what, expected);
  }
  u32(i: number, what: string, expected?: number): Uint32Array {
    return this.view(i, Uint32Array, what, expected);
  }
  f64(i: number, what: string, expected?: number): Float64Array {
    return this.view(i, Float64Array, what, expected);
  }

  /** A section of small numbers (counts, flags), as a plain array. */
  meta(i: number, expected: number): number[] {
    return Array.from(this.f64(i, 'header record', expected));
  }

  /** A section that holds UTF-8 JSON. */
  json(i: number, what: string): unknown {
    const text = new TextDecoder().decode(this.u8(i, what));
    try {
      return JSON.parse(text);
    } catch {
      throw new FormatError(`${this.format.what} file whose ${what} is not valid JSON`);
    }
  }
}

/** Throws FormatError unless `ok`: a check of what a file says about itself. */
export function check(ok: boolean, format: Format, problem: string): asserts ok {
  if (!ok) throw new FormatError(`${format.what} file ${problem}`);
}

/**
 * Checks that `starts` is a valid offsets array into a list of `total` items: it starts at 0,
 * never decreases, and ends at `total`, so every range it gives lies inside the list.
 */
export function checkStarts(starts: Uint32Array | Int32Array, total: number, format: Format, what: string): void {
  // the loops here run cold in a fresh edge isolate, where each bytecode of an iteration counts: one compare a value
  const n = starts.length;
  let previous = 0;
  let i = 0;
  for (; i < n; i++) {
    const start = starts[i];
    if (start < previous) break;
    previous = start;
  }
  check(n > 0 && i === n && starts[0] === 0 && starts[n - 1] === total, format, `whose ${what} do not fit its lists`);
}

/**
 * Checks that every row's value is -1 (none) or below `bound`; `problem` says what it is if not.
 * A loop of its own, for signed values: the checks above see one type of array each, which
 * keeps them fast from their first call.
 */
export function checkWithin(values: Int32Array, bound: number, format: Format, problem: string): void {
  const n = values.length;
  let low = -1;
  let high = -1;
  for (let i = 0; i < n; i++) {
    const value = values[i];
    if (value > high) high = value;
    else if (value < low) low = value;
  }
  check(low >= -1 && high < bound, format, problem);
}

/** Checks that every value of `ids` is below `bound` (an index into a list of that length). */
export function checkBelow(ids: Uint32Array | Int32Array, bound: number, format: Format, what: string): void {
  const n = ids.length;
  let low = 0;
  let high = 0;
  for (let i = 0; i < n; i++) {
    const id = ids[i];
    if (id > high) high = id;
    else if (id < low) low = id;
  }
  check(n === 0 || (low >= 0 && high < bound), format, `whose ${what} point outside it`);
}
