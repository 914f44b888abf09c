// Writes a binary data file: its format's header, then its sections (src/store/format/sections.ts).
import { alignUp, HEADER_BYTES, MAGIC_BYTES, SECTION_ENTRY_BYTES, sectionsStart, type Format } from '../format/sections.ts';

/**
 * A section as written: any typed array (its bytes as they are in memory, little-endian), or the
 * pieces of one in order (a large section made piece by piece is then copied once, into the file).
 */
export type Section = ArrayBufferView | readonly ArrayBufferView[];

const piecesOf = (s: Section): readonly ArrayBufferView[] => (Array.isArray(s) ? s : [s as ArrayBufferView]);
const lengthOf = (s: Section): number => piecesOf(s).reduce((n, p) => n + p.byteLength, 0);

function checkFormat(format: Format, sections: number): void {
  if (sections !== format.sections) throw new Error(`${format.what}: ${sections} sections for ${format.sections}`);
  if (format.magic.length !== MAGIC_BYTES || !/^[\x20-\x7e]+$/.test(format.magic)) throw new Error(`bad magic ${format.magic}`);
}

/** Where each of `count` sections of these byte lengths starts (each padded to 8 bytes), and where the last ends. */
function layout(lengths: readonly number[], count: number): { offsets: number[]; end: number } {
  let end = sectionsStart(count);
  const offsets = lengths.map((length) => {
    const from = end;
    end = alignUp(end + length);
    return from;
  });
  return { offsets, end };
}

function checkSize(format: Format, size: number): void {
  if (size > 0xffff_ffff) throw new Error(`${format.what}: ${size} bytes, more than a u32 offset reaches`);
}

/** The header and the section table, written into the start of `out`. */
function writeHeader(out: Uint8Array, format: Format, offsets: readonly number[], lengths: readonly number[]): void {
  for (let i = 0; i < MAGIC_BYTES; i++) out[i] = format.magic.charCodeAt(i);
  const view = new DataView(out.buffer, out.byteOffset, out.byteLength);
  view.setUint32(MAGIC_BYTES, format.version, true);
  view.setUint32(MAGIC_BYTES + 4, lengths.length, true);
  lengths.forEach((length, i) => {
    view.setUint32(HEADER_BYTES + i * SECTION_ENTRY_BYTES, offsets[i], true);
    view.setUint32(HEADER_BYTES + i * SECTION_ENTRY_BYTES + 4, length, true);
  });
}

/** The file's bytes: the header, the section table, the sections each padded to 8 bytes. */
export function packSections(format: Format, sections: readonly Section[]): Uint8Array {
  checkFormat(format, sections.length);
  const lengths = sections.map(lengthOf);
  const { offsets, end } = layout(lengths, sections.length);
  checkSize(format, end);
  const out = new Uint8Array(end);
  writeHeader(out, format, offsets, lengths);
  sections.forEach((s, i) => {
    let to = offsets[i];
    for (const p of piecesOf(s)) {
      out.set(new Uint8Array(p.buffer, p.byteOffset, p.byteLength), to);
      to += p.byteLength;
    }
  });
  return out;
}

/**
 * A file whose last section is written piece by piece straight into its place (packSections
 * copies a section made of pieces once more, and the pieces stay behind as garbage): the other
 * sections' sizes are known up front, their contents given at the end (finish). The buffer is
 * allocated for a guess of the whole and grows by half when the guess is short; pages past what
 * is written are never touched, so a generous guess costs address space, not memory.
 */
export class TailPacker {
  private out: Buffer;
  private readonly offsets: number[];
  /** where the last section starts */
  private readonly tailStart: number;
  private end: number;

  constructor(
    private readonly format: Format,
    /** the byte length of each section but the last */
    private readonly headLengths: readonly number[],
    guess: number,
  ) {
    checkFormat(format, headLengths.length + 1);
    const { offsets, end } = layout(headLengths, format.sections);
    this.offsets = offsets;
    this.tailStart = this.end = end;
    this.out = Buffer.allocUnsafe(Math.max(guess, end));
  }

  /** The tail's bytes so far. */
  get tailLength(): number {
    return this.end - this.tailStart;
  }

  private room(n: number): void {
    if (this.end + n <= this.out.length) return;
    const grown = Buffer.allocUnsafe(Math.max(this.end + n, Math.ceil(this.out.length * 1.5)));
    this.out.copy(grown, 0, 0, this.end);
    this.out = grown;
  }

  /** Appends `text` as UTF-8 to the last section; returns its byte length. */
  text(text: string): number {
    // (UTF-8 takes at most 3 bytes per UTF-16 unit)
    this.room(text.length * 3);
    const n = this.out.write(text, this.end);
    this.end += n;
    return n;
  }

  /** Appends bytes to the last section. */
  bytes(bytes: Uint8Array): void {
    this.room(bytes.byteLength);
    this.out.set(bytes, this.end);
    this.end += bytes.byteLength;
  }

  /** The file's bytes, with `heads` (of the lengths given) as its first sections; a view of the buffer. */
  finish(heads: readonly ArrayBufferView[]): Uint8Array {
    const { format } = this;
    if (heads.length !== this.headLengths.length || heads.some((h, i) => h.byteLength !== this.headLengths[i])) throw new Error(`${format.what}: sections of other lengths than announced`);
    const size = alignUp(this.end);
    checkSize(format, size);
    this.room(size - this.end);
    const out = this.out;
    // the header, the heads and every padding as packSections writes them: zeros between
    out.fill(0, 0, this.tailStart);
    out.fill(0, this.end, size);
    writeHeader(out, format, [...this.offsets, this.tailStart], [...this.headLengths, this.end - this.tailStart]);
    heads.forEach((h, i) => out.set(new Uint8Array(h.buffer, h.byteOffset, h.byteLength), this.offsets[i]));
    return out.subarray(0, size);
  }
}

const NAN_HIGH = 0x7ff8_0000;

/**
 * The values with every NaN written as the one canonical quiet NaN: a NaN's payload bits depend on
 * how it was made, and the same column must give the same bytes however it was made (a patch
 * build's file is byte-identical to a clean build's).
 */
export function canonicalFloats(values: ArrayLike<number>): Float64Array {
  const out = Float64Array.from(values);
  const words = new Uint32Array(out.buffer);
  for (let i = 0; i < out.length; i++) {
    if (out[i] !== out[i]) {
      words[2 * i] = 0;
      words[2 * i + 1] = NAN_HIGH;
    }
  }
  return out;
}

/** A small record of numbers (counts, flags) as a section. */
export function meta(...values: number[]): Float64Array {
  return canonicalFloats(values);
}

/** UTF-8 of a JSON value, for the rare section that holds one (exceptions to a string table). */
export function jsonSection(value: unknown): Uint8Array {
  return new TextEncoder().encode(JSON.stringify(value));
}
