// The container of every binary data file in dist/ (the columns and their indexes, the
// autocomplete's server index): a header naming the format, then sections of typed arrays, each
// starting at a multiple of 8 bytes so that a reader views it in place (a Float64Array over the
// file's own bytes), without parsing or copying.
//
//   bytes 0..7    magic: 8 ASCII characters naming the format ("aula-txt", …)
//   bytes 8..11   the format's version (u32)
//   bytes 12..15  k, the number of sections (u32)
//   then k × 8    each section's byte offset and byte length (u32, u32)
//   then the sections, in order, each padded with zero bytes to a multiple of 8
//
// Numbers are little-endian, as typed arrays hold them on every platform Node and workerd run on
// (a reader on another checks the byte order first). A format's module says what its sections hold;
// a file of another magic or version is refused by name (the loader says which file, and to
// rebuild), never read as if it were this one.

/** What identifies a format: its magic, its version, and how many sections its files have. */
export interface Format {
  /** 8 ASCII characters */
  readonly magic: string;
  readonly version: number;
  readonly sections: number;
  /** what the file is, as a message names it ("a text column") */
  readonly what: string;
}

export const MAGIC_BYTES = 8;
export const HEADER_BYTES = 16;
export const SECTION_ENTRY_BYTES = 8;
/** every section starts at a multiple of this, so any typed array views it in place */
export const SECTION_ALIGN = 8;

/** The bytes from the header to the first section: header and section table, padded. */
export function sectionsStart(count: number): number {
  return alignUp(HEADER_BYTES + count * SECTION_ENTRY_BYTES);
}

export function alignUp(n: number): number {
  return Math.ceil(n / SECTION_ALIGN) * SECTION_ALIGN;
}

/** What a reader throws for a file whose bytes do not fit what it expects, found after it loaded: the error naming the file. */
export type Fault = (problem: string) => Error;

/** A file that is not what its reader expects (another format or version, or cut short): the loader names the file. */
export class FormatError extends Error {
  override name = 'FormatError';
}
