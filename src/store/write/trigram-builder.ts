// Builds the trigram index of a text column's folded values (src/store/format/trigram-file.ts).
//
// Sizes drive the design: 100k teasers of up to 300 characters hold ~18M (trigram, value) pairs,
// 70 MB as plain 32-bit postings. So each list is delta-encoded varints (rare trigrams: a byte or
// two per value) or, once that would be half as big as a bit set over all values, that bit set;
// and the lists are within a byte budget spent on the rarest trigrams first (the most selective
// per byte). Two passes over the text: one counts each trigram's values and list bytes, the other
// writes the lists; both are flat loops over typed arrays indexed by the 21-bit trigram, so the
// whole is a few passes over the text however many trigrams there are.
import { bitmapWords } from '../format/bitmap.ts';
import { BITMAP, BOUNDARY, OTHER, TRIGRAM_SPACE, VARINT, varintBytes, writeVarint, type TrigramData } from '../format/trigram-file.ts';

/**
 * A varint list gets a bit set instead as soon as it would be half the bit set's size: bit sets
 * are what make frequent trigrams cheap to apply (O(1) per candidate instead of a merge).
 */
export const BITMAP_SHARE = 2;

export function buildTrigrams(folded: readonly string[], budgetBytes: number): TrigramData {
  const n = folded.length;
  const words = bitmapWords(n);
  const codeOf = alphabet(folded);
  // Each trigram that occurs gets a dense slot when first seen, found through its first two codes
  // (pairOf: 2^14 entries) and a block of 128 slots per pair that occurs (slotOf): the tables a
  // column's text touches are a few hundred KB that stay in cache, where arrays indexed by the
  // trigram itself (2^21 entries, 8 MB each) missed it at every character. Every array is sized
  // for the most there can be, so none is regrown: a value of k characters has at most k + 1
  // trigrams, and there are at most 2^14 pairs of codes.
  let chars = 0;
  for (const s of folded) chars += s.length + 1;
  const most = Math.min(TRIGRAM_SPACE, chars);
  const pairOf = new Int32Array(1 << 14);
  let pairs = 0;
  const slotOf = new Int32Array(Math.min(1 << 14, chars) << 7);
  let slots = 0;
  const trigramOf = new Int32Array(most);
  const count = new Int32Array(most);
  const bytes = new Int32Array(most);
  // stamp[slot] = 1 + last value id seen with the trigram: de-duplicates within a value and gives
  // the delta to encode
  const stamp = new Int32Array(most);
  let total = 0;
  for (let v = 0; v < n; v++) {
    const s = folded[v];
    if (s.length === 0) continue;
    const mark = v + 1;
    let a = BOUNDARY;
    let b = codeOf[s.charCodeAt(0)];
    for (let i = 1; i <= s.length; i++) {
      const c = i < s.length ? codeOf[s.charCodeAt(i)] : BOUNDARY;
      let pair = pairOf[(a << 7) | b] - 1;
      if (pair < 0) {
        pair = pairs++;
        pairOf[(a << 7) | b] = pair + 1;
      }
      let k = slotOf[(pair << 7) | c] - 1;
      if (k < 0) {
        k = slots++;
        slotOf[(pair << 7) | c] = k + 1;
        trigramOf[k] = (a << 14) | (b << 7) | c;
      }
      // branch-free: whether a trigram repeats within a value is what a branch would mispredict
      const first = +(stamp[k] !== mark);
      const gap = v + 1 - stamp[k];
      stamp[k] = mark;
      count[k] += first;
      bytes[k] += first * varintBytes(gap);
      total += first;
      a = b;
      b = c;
    }
  }
  // every trigram that occurs, ascending
  const bySlot = Array.from(trigramOf.subarray(0, slots)).sort((x, y) => x - y);
  const keyCount = slots;
  const keys = Uint32Array.from(bySlot);
  const counts = new Uint32Array(keyCount);
  const keyBytes = new Int32Array(keyCount);
  const slotOfKey = (t: number) => slotOf[((pairOf[t >>> 7] - 1) << 7) | (t & 0x7f)] - 1;
  for (let k = 0; k < keyCount; k++) {
    const slot = slotOfKey(keys[k]);
    counts[k] = count[slot];
    keyBytes[k] = bytes[slot];
  }
  const { kinds, starts, varintAt, bitmapCount, covered } = selectedLists(counts, keyBytes, words * 4, budgetBytes)!;
  const varints = new Uint8Array(varintAt);
  const bitmaps = new Int32Array(bitmapCount * words);
  // per slot: the write cursor of a varint list, -1 for a bit set, -2 for the rest; `bytes` the
  // first word of each bit set
  for (let k = 0; k < keyCount; k++) {
    const slot = slotOfKey(keys[k]);
    count[slot] = kinds[k] === VARINT ? starts[k] : kinds[k] === BITMAP ? -1 : -2;
    bytes[slot] = kinds[k] === BITMAP ? starts[k] * words : 0;
  }
  stamp.fill(0, 0, slots);
  for (let v = 0; v < n; v++) {
    const s = folded[v];
    if (s.length === 0) continue;
    const mark = v + 1;
    let a = BOUNDARY;
    let b = codeOf[s.charCodeAt(0)];
    for (let i = 1; i <= s.length; i++) {
      const c = i < s.length ? codeOf[s.charCodeAt(i)] : BOUNDARY;
      const k = slotOf[((pairOf[(a << 7) | b] - 1) << 7) | c] - 1;
      const seen = stamp[k];
      if (seen !== mark) {
        stamp[k] = mark;
        const at = count[k];
        if (at >= 0) count[k] = writeVarint(varints, at, v - (seen - 1));
        else if (at === -1) bitmaps[bytes[k] + (v >>> 5)] |= 1 << (v & 31);
      }
      a = b;
      b = c;
    }
  }
  return { valueCount: n, codeOf, keys, counts, kinds, starts, varints, bitmaps, coverage: total === 0 ? 1 : covered / total };
}

/** Which lists an index holds, and where: each key's kind and start, the varints' bytes, the bit sets, the values covered. */
export interface Selection {
  kinds: Uint8Array;
  starts: Uint32Array;
  varintAt: number;
  bitmapCount: number;
  covered: number;
}

/**
 * The lists within the budget: rarest first (ties: the smaller trigram), each in its smaller
 * form, until one does not fit. A key's bytes NaN: its list is not known (a splice's), at least a
 * byte per value; null where the budget could take it.
 */
export function selectedLists(counts: ArrayLike<number>, keyBytes: ArrayLike<number>, bitmapBytes: number, budgetBytes: number): Selection | null {
  const keyCount = counts.length;
  const kinds = new Uint8Array(keyCount);
  const starts = new Uint32Array(keyCount);
  const byRarity = Array.from({ length: keyCount }, (_, k) => k).sort((x, y) => counts[x] - counts[y] || x - y);
  let spent = 0;
  let varintAt = 0;
  let bitmapCount = 0;
  let covered = 0;
  for (const k of byRarity) {
    const b = keyBytes[k];
    if (b !== b) {
      // past half a bit set at a byte per value, it is a bit set
      if (counts[k] * BITMAP_SHARE > bitmapBytes ? spent + bitmapBytes > budgetBytes : spent + counts[k] > budgetBytes) break;
      return null;
    }
    const asBitmap = b * BITMAP_SHARE > bitmapBytes;
    const cost = asBitmap ? bitmapBytes : b;
    if (spent + cost > budgetBytes) break;
    spent += cost;
    covered += counts[k];
    if (!asBitmap) {
      kinds[k] = VARINT;
      starts[k] = varintAt;
      varintAt += b;
    } else {
      kinds[k] = BITMAP;
      starts[k] = bitmapCount++;
    }
  }
  return { kinds, starts, varintAt, bitmapCount, covered };
}

/** Codes 1..126 for the most frequent code units (ties: the lower code unit), OTHER for the rest. */
export function alphabet(folded: readonly string[]): Uint8Array {
  const freq = new Float64Array(0x10000);
  for (const s of folded) countUnits(s, freq, 1);
  return alphabetOf(freq);
}

/** Adds `by` to the count of each of the code units of `s`. */
export function countUnits(s: string, freq: Float64Array, by: number): void {
  for (let i = 0; i < s.length; i++) freq[s.charCodeAt(i)] += by;
}

/** Counts the UTF-16 code units of well-formed UTF-8 `text` as countUnits counts its string's, without making the string. */
export function countUtf8Units(text: Uint8Array, freq: Float64Array): void {
  for (let i = 0; i < text.length; ) {
    const b = text[i];
    if (b < 0x80) {
      freq[b]++;
      i++;
    } else if (b < 0xe0) {
      freq[((b & 0x1f) << 6) | (text[i + 1] & 0x3f)]++;
      i += 2;
    } else if (b < 0xf0) {
      freq[((b & 0x0f) << 12) | ((text[i + 1] & 0x3f) << 6) | (text[i + 2] & 0x3f)]++;
      i += 3;
    } else {
      // a pair of surrogates
      const c = (((b & 0x07) << 18) | ((text[i + 1] & 0x3f) << 12) | ((text[i + 2] & 0x3f) << 6) | (text[i + 3] & 0x3f)) - 0x10000;
      freq[0xd800 + (c >> 10)]++;
      freq[0xdc00 + (c & 0x3ff)]++;
      i += 4;
    }
  }
}

/** The alphabet of code units counted so (alphabet's). */
export function alphabetOf(freq: Float64Array): Uint8Array {
  const used: number[] = [];
  for (let c = 0; c < 0x10000; c++) if (freq[c] > 0) used.push(c);
  used.sort((a, b) => freq[b] - freq[a] || a - b);
  const codeOf = new Uint8Array(0x10000).fill(OTHER);
  for (let i = 0; i < used.length && i < OTHER - 1; i++) codeOf[used[i]] = i + 1;
  return codeOf;
}
