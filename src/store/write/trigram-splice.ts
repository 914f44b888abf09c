// A text column's trigram index (trigram-builder.ts) made from the previous column's, where values
// were renumbered (a row added or removed moves the first appearance of later values), a few
// added and a few gone: each indexed list's value ids renumbered, the added values' ids put in and
// the gone ones left out, every trigram's count moved by the values that have it. The lists left
// out of the previous index (the commonest trigrams, past its byte budget) are not known, so the
// splice gives up (null: the caller builds the index whole) where the new budget could reach one of
// them, or where the alphabet changed. What it gives is buildTrigrams's bytes, to the byte.
import { bitCount, bitmapWords, eachSetBit } from '../format/bitmap.ts';
import { BITMAP, BOUNDARY, UNINDEXED, VARINT, readVarints, varintListBytes, writeVarintList, type TrigramData } from '../format/trigram-file.ts';
import { sortedIndexOf } from '../../util/first-index.ts';
import { alphabet, BITMAP_SHARE, selectedLists } from './trigram-builder.ts';

/** The distinct trigrams of a folded value, under `codeOf`. */
function trigramsOf(s: string, codeOf: Uint8Array): Set<number> {
  const out = new Set<number>();
  if (s.length === 0) return out;
  let a = BOUNDARY;
  let b = codeOf[s.charCodeAt(0)];
  for (let i = 1; i <= s.length; i++) {
    const c = i < s.length ? codeOf[s.charCodeAt(i)] : BOUNDARY;
    out.add((a << 14) | (b << 7) | c);
    a = b;
    b = c;
  }
  return out;
}

/**
 * The trigram index of `folded` (the new values, by their new ids) from `old` (the previous
 * column's): `next[v]` is previous value v's new id (-1: gone), and `next[oldCount + k]` the new id
 * of added value k (-1: none has it); `oldFolded(v)` a previous value's folded text. Null where
 * the index must be built whole. `codeOf`: the values' alphabet (alphabet(folded)), where the
 * caller has it without reading every value.
 */
export function splicedTrigrams(old: TrigramData, folded: readonly string[], next: Int32Array, oldCount: number, oldFolded: (v: number) => string, budgetBytes: number, codeOf = alphabet(folded)): TrigramData | null {
  const n = folded.length;
  if (!Buffer.from(codeOf.buffer, codeOf.byteOffset, codeOf.byteLength).equals(Buffer.from(old.codeOf.buffer, old.codeOf.byteOffset, old.codeOf.byteLength))) return null;
  // each trigram's count moved by the values gone and added; the added values' new ids by trigram
  const delta = new Map<number, number>();
  const joins = new Map<number, number[]>();
  for (let v = 0; v < next.length; v++) {
    if (v < oldCount && next[v] >= 0) continue;
    if (v >= oldCount && next[v] < 0) continue;
    const gone = v < oldCount;
    for (const t of trigramsOf(gone ? oldFolded(v) : folded[next[v]], codeOf)) {
      delta.set(t, (delta.get(t) ?? 0) + (gone ? -1 : 1));
      if (!gone) {
        let list = joins.get(t);
        if (list === undefined) joins.set(t, (list = []));
        list.push(next[v]);
      }
    }
  }
  // the new keys: the previous ones still had, and those first had now, ascending; where each was
  const oldKeys = old.keys;
  const fresh = [...delta.keys()].filter((t) => sortedIndexOf(oldKeys, t) < 0).sort((x, y) => x - y);
  const keys: number[] = [];
  const counts: number[] = [];
  const was: number[] = [];
  for (let k = 0, f = 0; k < oldKeys.length || f < fresh.length; ) {
    const fromOld = f >= fresh.length || (k < oldKeys.length && oldKeys[k] < fresh[f]);
    const t = fromOld ? oldKeys[k] : fresh[f];
    const count = (fromOld ? old.counts[k] : 0) + (delta.get(t) ?? 0);
    if (count > 0) {
      keys.push(t);
      counts.push(count);
      was.push(fromOld ? k : -1);
    }
    if (fromOld) k++;
    else f++;
  }
  const keyCount = keys.length;
  const oldWords = bitmapWords(old.valueCount);
  const words = bitmapWords(n);
  const bitmapBytes = words * 4;
  /** a previous varint list's ids, decoded */
  let scratch = new Uint32Array(0);
  // the previous values that stay, in runs each renumbered by one shift (a row added or removed:
  // a run or two): a previous bit set is then shifted a word at a time, not read bit by bit
  const runs = shiftRuns(next, oldCount);
  /** a key's new list (ids, or a bit set): its previous list renumbered, with the added values' ids; null where the previous index left it out */
  const listOf = (k: number): Uint32Array | Int32Array | null => {
    const from = was[k];
    const added = joins.get(keys[k]) ?? [];
    if (from >= 0 && old.kinds[from] === UNINDEXED) return null;
    if (from >= 0 && old.kinds[from] === BITMAP && runs !== null) {
      const base = old.starts[from] * oldWords;
      const bits = shiftedBits(old.bitmaps.subarray(base, base + oldWords), runs, words);
      for (const id of added) bits[id >>> 5] |= 1 << (id & 31);
      if (bitCount(bits) !== counts[k]) throw new Error('the previous trigram index does not add up');
      return bits;
    }
    const out = new Uint32Array(counts[k]);
    let m = 0;
    // renumbering keeps the ids in order but where a value's first row moved: sorted only then
    let ordered = true;
    let top = -1;
    if (from >= 0) {
      const oldCount = old.counts[from];
      if (old.kinds[from] === VARINT) {
        if (scratch.length < oldCount) scratch = new Uint32Array(oldCount);
        readVarints(old.varints, old.starts[from], oldCount, scratch);
        for (let i = 0; i < oldCount; i++) {
          const id = next[scratch[i]];
          if (id < 0) continue;
          if (id < top) ordered = false;
          out[m++] = top = id;
        }
      } else {
        const base = old.starts[from] * oldWords;
        eachSetBit(old.bitmaps.subarray(base, base + oldWords), (v) => {
          const id = next[v];
          if (id < 0) return;
          if (id < top) ordered = false;
          out[m++] = top = id;
        });
      }
    }
    if (m + added.length !== out.length) throw new Error('the previous trigram index does not add up');
    if (added.length === 0) return ordered ? out : out.sort();
    for (const id of added) out[m++] = id;
    return out.sort();
  };
  const lists: (Uint32Array | Int32Array | null)[] = new Array(keyCount);
  const keyBytes = new Float64Array(keyCount);
  let total = 0;
  for (let k = 0; k < keyCount; k++) {
    let list = listOf(k);
    // a bit set's varint bytes are at least its count: past half a bit set at that, it stays one whatever they are
    if (list instanceof Int32Array && counts[k] * BITMAP_SHARE <= bitmapBytes) list = idsOf(list, counts[k]);
    lists[k] = list;
    keyBytes[k] = list === null ? NaN : list instanceof Int32Array ? counts[k] : varintListBytes(list);
    total += counts[k];
  }
  // (a list the previous index left out is not known: where the budget could take it, null)
  const selection = selectedLists(counts, keyBytes, bitmapBytes, budgetBytes);
  if (selection === null) return null;
  const { kinds, starts, varintAt, bitmapCount, covered } = selection;
  const varints = new Uint8Array(varintAt);
  const bitmaps = new Int32Array(bitmapCount * words);
  for (let k = 0; k < keyCount; k++) {
    const list = lists[k];
    if (kinds[k] === VARINT) writeVarintList(varints, starts[k], list!);
    else if (kinds[k] === BITMAP && list instanceof Int32Array) bitmaps.set(list, starts[k] * words);
    else if (kinds[k] === BITMAP) {
      const base = starts[k] * words;
      for (let i = 0; i < list!.length; i++) bitmaps[base + (list![i] >>> 5)] |= 1 << (list![i] & 31);
    }
  }
  return { valueCount: n, codeOf, keys: Uint32Array.from(keys), counts: Uint32Array.from(counts), kinds, starts, varints, bitmaps, coverage: total === 0 ? 1 : covered / total };
}

/** Runs of the previous values that stay, as [from, to, shift] triples: values [from, to) are [from + shift, to + shift) now; null where there are many. */
function shiftRuns(next: Int32Array, oldCount: number): number[] | null {
  const runs: number[] = [];
  for (let v = 0; v < oldCount; ) {
    if (next[v] < 0) {
      v++;
      continue;
    }
    const shift = next[v] - v;
    let end = v + 1;
    while (end < oldCount && next[end] === end + shift) end++;
    runs.push(v, end, shift);
    if (runs.length > 3 * 64) return null;
    v = end;
  }
  return runs;
}

/** The bit set of `words` words with `bits`'s bits moved run by run (shiftRuns); the bits of no run left out. */
function shiftedBits(bits: Int32Array, runs: readonly number[], words: number): Int32Array {
  const out = new Int32Array(words);
  /** bits [p, p + 32) of `bits`, as one word (none below 0 or past its end) */
  const wordAt = (p: number) => {
    const w = Math.floor(p / 32);
    const o = p - w * 32;
    const low = w >= 0 && w < bits.length ? bits[w] : 0;
    if (o === 0) return low;
    const high = w + 1 >= 0 && w + 1 < bits.length ? bits[w + 1] : 0;
    return (low >>> o) | (high << (32 - o));
  };
  for (let r = 0; r < runs.length; r += 3) {
    const shift = runs[r + 2];
    const first = runs[r] + shift;
    const end = runs[r + 1] + shift;
    for (let w = first >>> 5; w << 5 < end; w++) {
      const lo = Math.max(first, w << 5) - (w << 5);
      const hi = Math.min(end, (w << 5) + 32) - (w << 5);
      const mask = (hi === 32 ? -1 : (1 << hi) - 1) & ~((1 << lo) - 1);
      out[w] |= wordAt((w << 5) - shift) & mask;
    }
  }
  return out;
}

/** The `count` numbers of a bit set, ascending. */
function idsOf(bits: Int32Array, count: number): Uint32Array {
  const out = new Uint32Array(count);
  let m = 0;
  eachSetBit(bits, (v) => (out[m++] = v));
  return out;
}
