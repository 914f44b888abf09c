// Reads a binary data file's sections in place (src/store/format/sections.ts): each typed array a
// view of the file's bytes, nothing parsed or copied (unless the bytes themselves sit at an
// offset a typed array cannot start at, which a file read whole never does).
import { FormatError, HEADER_BYTES, MAGIC_BYTES, SECTION_ALIGN, SECTION_ENTRY_BYTES, sectionsStart, type Format } from '../format/sections.ts';

const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

type TypedArrayOf<T> = { new (buffer: ArrayBufferLike, byteOffset: number, length: number): T; readonly BYTES_PER_ELEMENT: number };

/**
 * Makes sure the byte ranges [start, end) of a file read in parts (the edge's, fetched a section
 * at a time and checked block by block) are at hand and checked; throws (FileNeeded, per-need.ts)
 * naming those that are not yet. Every range of it that Sections reads is passed here first.
 */
export type PartsGuard = (ranges: readonly (readonly [start: number, end: number])[]) => void;

const guards = new WeakMap<Uint8Array, PartsGuard>();

/** `bytes` as a file read in parts: Sections of it read no range that `guard` has not passed. */
export function readInParts(bytes: Uint8Array, guard: PartsGuard): Uint8Array {
  guards.set(bytes, guard);
  return bytes;
}

/** The sections of one file, as typed arrays over its bytes. */
export class Sections {
  private constructor(
    private readonly bytes: Uint8Array,
    private readonly offsets: Uint32Array,
    private readonly lengths: Uint32Array,
    readonly format: Format,
    private readonly guard: PartsGuard | null,
  ) {}

  /** Checks the header (magic, version, section table) of `bytes` against `format`; throws FormatError. */
  static of(bytes: Uint8Array, format: Format): Sections {
    if (!LITTLE_ENDIAN) throw new FormatError('this machine is big-endian; aula reads its data files on little-endian machines only');
    if (bytes.byteLength < HEADER_BYTES) throw new FormatError(`not ${format.what} file (${bytes.byteLength} bytes, no header)`);
    const guard = guards.get(bytes) ?? null;
    // (the section table of the format's count of sections: read with the header, in one round)
    guard?.([[0, Math.min(bytes.byteLength, sectionsStart(format.sections))]]);
    let magic = '';
    for (let i = 0; i < MAGIC_BYTES; i++) magic += String.fromCharCode(bytes[i]);
    if (magic !== format.magic) throw new FormatError(`not ${format.what} file (it starts with ${JSON.stringify(magic)}, not ${JSON.stringify(format.magic)})`);
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const version = view.getUint32(MAGIC_BYTES, true);
    if (version !== format.version) {
      throw new FormatError(`${format.what} file of format version ${version}, made by another version of aula (this one reads version ${format.version})`);
    }
    const count = view.getUint32(MAGIC_BYTES + 4, true);
    if (count !== format.sections) throw new FormatError(`${format.what} file with ${count} sections, not ${format.sections}`);
    if (bytes.byteLength < sectionsStart(count)) throw new FormatError(`${format.what} file cut short in its section table`);
    // a file read whole starts at offset 0 of its own buffer; anything else is copied once (all of it checked first)
    if (guard && bytes.byteOffset % SECTION_ALIGN !== 0) guard([[0, bytes.byteLength]]);
    const aligned = bytes.byteOffset % SECTION_ALIGN === 0 ? bytes : bytes.slice();
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
    return new Sections(aligned, offsets, lengths, format, aligned === bytes ? guard : null);
  }

  /**
   * Sections `list` made sure of together (a file read in parts fetches them in one round, not one
   * round per section as they are read); a no-op for a file read whole.
   */
  need(list: readonly number[]): void {
    this.guard?.(list.map((i) => [this.offsets[i], this.offsets[i] + this.lengths[i]] as const));
  }

  /** Whether the file is read in parts (readInParts): a reader leaves what an answer may not need for later. */
  get inParts(): boolean {
    return this.guard !== null;
  }

  /** Bytes of section `i`. */
  byteLength(i: number): number {
    return this.lengths[i];
  }

  private view<T>(i: number, type: TypedArrayOf<T>, what: string, expected?: number): T {
    const size = type.BYTES_PER_ELEMENT;
    const length = this.lengths[i];
    if (length % size !== 0) throw new FormatError(`${this.format.what} file whose ${what} is not a whole number of values`);
    const n = length / size;
    if (expected !== undefined && n !== expected) throw new FormatError(`${this.format.what} file whose ${what} holds ${n} values, not ${expected}`);
    this.guard?.([[this.offsets[i], this.offsets[i] + length]]);
    return new type(this.bytes.buffer, this.bytes.byteOffset + this.offsets[i], n);
  }

  /**
   * Section `i`'s bytes, to be read a range at a time: `need(start, end)` before reading
   * bytes[start, end) (a file read in parts fetches that range then); a file read whole needs none.
   */
  u8InParts(i: number, what: string): { bytes: Uint8Array; need: ((start: number, end: number) => void) | null } {
    const { guard } = this;
    if (guard === null) return { bytes: this.u8(i, what), need: null };
    const offset = this.offsets[i];
    const bytes = new Uint8Array(this.bytes.buffer, this.bytes.byteOffset + offset, this.lengths[i]);
    return { bytes, need: (start, end) => guard([[offset + start, offset + end]]) };
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
