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

