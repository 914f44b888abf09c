// The trigram index of a text column's folded values: seven sections of its file
// (text-column-file.ts). What it holds and why (src/query/events/indexes/trigram.ts reads it):
//
// - Characters map to a 7-bit alphabet: the 126 most frequent code units of the column get their
//   own code, all others share OTHER, and BOUNDARY marks a value's start and end. A trigram is
//   the 21-bit number (a << 14) | (b << 7) | c.
// - Per trigram that occurs: how many values have it, and its list of those value ids, either as
//   delta-encoded varints or, once that would be half a bit set over all values, as that bit set.
// - The lists are within a byte budget spent on the rarest trigrams first; a trigram left out
//   (UNINDEXED) is still known to occur.
//
//   0  codeOf   u8 × 65536: a code unit's code
//   1  keys     u32 × trigrams: every trigram that occurs, ascending
//   2  counts   u32 × trigrams: how many values have it
//   3  kinds    u8 × trigrams: UNINDEXED, VARINT or BITMAP
//   4  starts   u32 × trigrams: a VARINT list's byte offset in `varints`, a BITMAP's number
//   5  varints  u8: the varint lists (each value id's gap to the previous, the first from −1)
//   6  bitmaps  i32 × (bitmaps × words): the bit sets, ⌈values / 32⌉ words each
// The share of all (trigram, value) pairs the lists hold is in the column's header.

export const TRIGRAM_SECTIONS = 7;

export const BOUNDARY = 0;
export const OTHER = 127;
/** 2^21 trigrams */
export const TRIGRAM_SPACE = 1 << 21;

export const UNINDEXED = 0;
export const VARINT = 1;
export const BITMAP = 2;

export interface TrigramData {
  readonly valueCount: number;
  readonly codeOf: Uint8Array;
  readonly keys: Uint32Array;
  readonly counts: Uint32Array;
  readonly kinds: Uint8Array;
  readonly starts: Uint32Array;
  readonly varints: Uint8Array;
  readonly bitmaps: Int32Array;
  /** share of all (trigram, value) pairs represented; 1 = nothing left out */
  readonly coverage: number;
}


// The varint lists' codec, one place for the builder, the splice and the lookups: a list holds its
// value ids ascending, each as its gap to the previous id (the first from −1, so every gap is at
// least 1, and below 2^31), seven bits a byte, low bits first, the high bit set on every byte but
// a gap's last.

/** Bytes of `gap` as a varint (without a branch: the builder sums it over every pair of the text). */
export const varintBytes = (gap: number): number => 1 + +(gap >= 0x80) + +(gap >= 0x4000) + +(gap >= 0x200000) + +(gap >= 0x10000000);

/** Writes `gap` as a varint into `bytes` at `at`; where the next one goes. */
export function writeVarint(bytes: Uint8Array, at: number, gap: number): number {
  while (gap >= 0x80) {
    bytes[at++] = (gap & 0x7f) | 0x80;
    gap >>>= 7;
  }
  bytes[at++] = gap;
  return at;
}

/** Bytes of the ascending value ids `list` as a varint list. */
export function varintListBytes(list: ArrayLike<number>): number {
  let bytes = 0;
  let last = -1;
  for (let i = 0; i < list.length; i++) {
    bytes += varintBytes(list[i] - last);
    last = list[i];
  }
  return bytes;
}

/** Writes the ascending value ids `list` as a varint list into `bytes` at `at`; where it ends. */
export function writeVarintList(bytes: Uint8Array, at: number, list: ArrayLike<number>): number {
  let last = -1;
  for (let i = 0; i < list.length; i++) {
    at = writeVarint(bytes, at, list[i] - last);
    last = list[i];
  }
  return at;
}

// The two readers below are the decoding loop twice, on purpose: V8 runs a loop in place as fast as
// a copy of it in the caller, and slower through a step per id (a reader object, or a gap and its
// width) or a run decoded for a separate merge, which the lookups' merges would pay.

/**
 * Reads the `count` value ids of the varint list at `at` of `bytes` into `out` (from its start).
 * Past the bytes it reads 0s, as a typed array reads undefined.
 */
export function readVarints(bytes: Uint8Array, at: number, count: number, out: Uint32Array): void {
  let id = -1;
  for (let i = 0; i < count; i++) {
    let b = bytes[at++];
    let gap = b & 0x7f;
    for (let shift = 7; b & 0x80; shift += 7) {
      b = bytes[at++];
      gap |= (b & 0x7f) << shift;
    }
    out[i] = id += gap;
  }
}

/**
 * Writes the ids of the ascending `acc` that the varint list of `count` ids at `at` of `bytes`
 * holds into `out` (from its start); how many. Reads the list only as far as acc's last id.
 */
export function intersectVarints(bytes: Uint8Array, at: number, count: number, acc: Uint32Array, out: Uint32Array): number {
  let id = -1;
  let j = 0;
  let o = 0;
  for (let i = 0; i < count && j < acc.length; i++) {
    let b = bytes[at++];
    let gap = b & 0x7f;
    for (let shift = 7; b & 0x80; shift += 7) {
      b = bytes[at++];
      gap |= (b & 0x7f) << shift;
    }
    id += gap;
    while (j < acc.length && acc[j] < id) j++;
    if (j < acc.length && acc[j] === id) out[o++] = acc[j++];
  }
  return o;
}
