// Typed arrays laid end to end in one part of a file, each at a multiple of 8 bytes from the
// part's start: a part read into a buffer of its own is taken apart as views of that buffer, with
// nothing copied or decoded.

type Section = Uint8Array | Uint32Array | Float64Array | BigInt64Array;
type SectionType<T extends Section> = { new (buffer: ArrayBufferLike, byteOffset: number, length: number): T; BYTES_PER_ELEMENT: number };

const padding = (bytes: number) => (8 - (bytes % 8)) % 8;

/** The pieces that write `sections` end to end, each padded to 8 bytes (views: nothing copied). */
export function sectionParts(sections: readonly Section[]): Uint8Array[] {
  const parts: Uint8Array[] = [];
  for (const s of sections) {
    parts.push(new Uint8Array(s.buffer, s.byteOffset, s.byteLength));
    if (padding(s.byteLength) > 0) parts.push(new Uint8Array(padding(s.byteLength)));
  }
  return parts;
}

/**
 * Takes the sections of `bytes` one after the other, as sectionParts wrote them, each a view of
 * `count` elements; throws where the bytes end first or do not start at a multiple of 8 of their
 * buffer, and at `end` where bytes are left.
 */
export function sectionReader(bytes: Uint8Array) {
  let at = 0;
  const misshapen = () => new Error('not typed sections as written');
  if (bytes.byteOffset % 8 !== 0) throw misshapen();
  return {
    take<T extends Section>(type: SectionType<T>, count: number): T {
      const length = count * type.BYTES_PER_ELEMENT;
      if (!Number.isSafeInteger(length) || length < 0 || at + length > bytes.byteLength) throw misshapen();
      const view = new type(bytes.buffer, bytes.byteOffset + at, count);
      at += length + padding(length);
      return view;
    },
    /** the bytes taken so far, padding too */
    taken: () => at,
    end(): void {
      if (at !== bytes.byteLength) throw misshapen();
    },
  };
}

/** A Buffer over the bytes of `view` (nothing copied). */
export const bytesOf = (view: Uint8Array) => Buffer.from(view.buffer as ArrayBuffer, view.byteOffset, view.byteLength);
