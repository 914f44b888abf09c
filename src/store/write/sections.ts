// Writes a binary data file: its format's header, then its sections (src/store/format/sections.ts).
import { alignUp, HEADER_BYTES, MAGIC_BYTES, SECTION_ENTRY_BYTES, sectionsStart, type Format } from '../format/sections.ts';

/**
 * A section as written: any typed array (its bytes as they are in memory, little-endian), or the
 * pieces of one in order (a large section made piece by piece is then copied once, into the file).
 */
export type Section = ArrayBufferView | readonly ArrayBufferView[];

const piecesOf = (s: Section): readonly ArrayBufferView[] => (Array.isArray(s) ? s : [s as ArrayBufferView]);
const lengthOf = (s: Section): number => piecesOf(s).reduce((n, p) => n + p.byteLength, 0);

/** The file's bytes: the header, the section table, the sections each padded to 8 bytes. */
export function packSections(format: Format, sections: readonly Section[]): Uint8Array {
  if (sections.length !== format.sections) throw new Error(`${format.what}: ${sections.length} sections for ${format.sections}`);
  if (format.magic.length !== MAGIC_BYTES || !/^[\x20-\x7e]+$/.test(format.magic)) throw new Error(`bad magic ${format.magic}`);
  let at = sectionsStart(sections.length);
  const offsets = sections.map((s) => {
    const from = at;
    at = alignUp(at + lengthOf(s));
    return from;
  });
  if (at > 0xffff_ffff) throw new Error(`${format.what}: ${at} bytes, more than a u32 offset reaches`);
  const out = new Uint8Array(at);
  for (let i = 0; i < MAGIC_BYTES; i++) out[i] = format.magic.charCodeAt(i);
  const view = new DataView(out.buffer);
  view.setUint32(MAGIC_BYTES, format.version, true);
  view.setUint32(MAGIC_BYTES + 4, sections.length, true);
  sections.forEach((s, i) => {
    view.setUint32(HEADER_BYTES + i * SECTION_ENTRY_BYTES, offsets[i], true);
    view.setUint32(HEADER_BYTES + i * SECTION_ENTRY_BYTES + 4, lengthOf(s), true);
    let to = offsets[i];
    for (const p of piecesOf(s)) {
      out.set(new Uint8Array(p.buffer, p.byteOffset, p.byteLength), to);
      to += p.byteLength;
    }
  });
  return out;
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
