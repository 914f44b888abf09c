// Builds the trigram index of a text column's folded values (src/store/format/trigram-file.ts).
//
// Sizes drive the design: 100k teasers of up to 300 characters hold ~18M (trigram, value) pairs,
// 70 MB as plain 32-bit postings. So each list is delta-encoded varints (rare trigrams: a byte or
// two per value) or, once that would be half as big as a bit set over all values, that bit set;
// and the lists are within a byte budget spent on the rarest trigrams first (the most selective
// per byte). Two passes over the text: one counts each trigram's values and list bytes, the other
// writes the lists; both are flat loops over typed arrays indexed by the 21-bit trigram, so the
// whole is a few passes over the text however many trigrams there are.
import { BITMAP, bitmapWords, BOUNDARY, OTHER, TRIGRAM_SPACE, VARINT, type TrigramData } from '../format/trigram-file.ts';

/**
 * A varint list gets a bit set instead as soon as it would be half the bit set's size: bit sets
 * are what make frequent trigrams cheap to apply (O(1) per candidate instead of a merge).
 */
const BITMAP_SHARE = 2;

export function buildTrigrams(folded: readonly string[], budgetBytes: number): TrigramData {
  const n = folded.length;
  const words = bitmapWords(n);
  const codeOf = alphabet(folded);
  const count = new Int32Array(TRIGRAM_SPACE);
  const bytes = new Int32Array(TRIGRAM_SPACE);
  // stamp[t] = 1 + last value id seen with trigram t: de-duplicates within a value and gives the
  // delta to encode
  const stamp = new Int32Array(TRIGRAM_SPACE);
  let total = 0;
  for (let v = 0; v < n; v++) {
    const s = folded[v];
    if (s.length === 0) continue;
    const mark = v + 1;
    let a = BOUNDARY;
    let b = codeOf[s.charCodeAt(0)];
    for (let i = 1; i <= s.length; i++) {
      const c = i < s.length ? codeOf[s.charCodeAt(i)] : BOUNDARY;
      const t = (a << 14) | (b << 7) | c;
      const seen = stamp[t];
      if (seen !== mark) {
        stamp[t] = mark;
        count[t]++;
        bytes[t] += varintSize(v - (seen - 1));
        total++;
      }
      a = b;
      b = c;
    }
  }
  let keyCount = 0;
  for (let t = 0; t < TRIGRAM_SPACE; t++) if (count[t] !== 0) keyCount++;
  const keys = new Uint32Array(keyCount);
  const counts = new Uint32Array(keyCount);
  const kinds = new Uint8Array(keyCount);
  const starts = new Uint32Array(keyCount);
  for (let t = 0, k = 0; t < TRIGRAM_SPACE; t++) {
    if (count[t] === 0) continue;
    keys[k] = t;
    counts[k] = count[t];
    k++;
  }
  // rarest first (ties: the smaller trigram), each in its smaller form, until the budget is spent
  const byRarity = Array.from(keys.keys()).sort((x, y) => counts[x] - counts[y] || x - y);
  const bitmapBytes = words * 4;
  let spent = 0;
  let varintAt = 0;
  let bitmapCount = 0;
  let covered = 0;
  for (const k of byRarity) {
    const b = bytes[keys[k]];
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
  const varints = new Uint8Array(varintAt);
  const bitmaps = new Int32Array(bitmapCount * words);
  // `count` becomes the write cursor of each varint trigram, -1 for bit sets, -2 for the rest;
  // `bytes` the first word of each bit set
  for (let k = 0; k < keyCount; k++) {
    count[keys[k]] = kinds[k] === VARINT ? starts[k] : kinds[k] === BITMAP ? -1 : -2;
    bytes[keys[k]] = kinds[k] === BITMAP ? starts[k] * words : 0;
  }
  stamp.fill(0);
  for (let v = 0; v < n; v++) {
    const s = folded[v];
    if (s.length === 0) continue;
    const mark = v + 1;
    let a = BOUNDARY;
    let b = codeOf[s.charCodeAt(0)];
    for (let i = 1; i <= s.length; i++) {
      const c = i < s.length ? codeOf[s.charCodeAt(i)] : BOUNDARY;
      const t = (a << 14) | (b << 7) | c;
      const seen = stamp[t];
      if (seen !== mark) {
        stamp[t] = mark;
        const at0 = count[t];
        if (at0 >= 0) {
          let gap = v - (seen - 1);
          let at = at0;
          while (gap >= 0x80) {
            varints[at++] = (gap & 0x7f) | 0x80;
            gap >>>= 7;
          }
          varints[at++] = gap;
          count[t] = at;
        } else if (at0 === -1) {
          bitmaps[bytes[t] + (v >>> 5)] |= 1 << (v & 31);
        }
      }
      a = b;
      b = c;
    }
  }
  return { valueCount: n, codeOf, keys, counts, kinds, starts, varints, bitmaps, coverage: total === 0 ? 1 : covered / total };
}

function varintSize(x: number): number {
  return x < 0x80 ? 1 : x < 0x4000 ? 2 : x < 0x200000 ? 3 : x < 0x10000000 ? 4 : 5;
}

/** Codes 1..126 for the most frequent code units (ties: the lower code unit), OTHER for the rest. */
function alphabet(folded: readonly string[]): Uint8Array {
  const freq = new Float64Array(0x10000);
  for (const s of folded) for (let i = 0; i < s.length; i++) freq[s.charCodeAt(i)]++;
  const used: number[] = [];
  for (let c = 0; c < 0x10000; c++) if (freq[c] > 0) used.push(c);
  used.sort((a, b) => freq[b] - freq[a] || a - b);
  const codeOf = new Uint8Array(0x10000).fill(OTHER);
  for (let i = 0; i < used.length && i < OTHER - 1; i++) codeOf[used[i]] = i + 1;
  return codeOf;
}
