// Intersecting candidates (ascending documents with their rank so far) with one word's
// materialized documents (word-docs.ts). Galloping: from the last match, probe 1, 2, 4 … entries ahead, then
// bisect; so a short candidate list against a long word costs a few probes per candidate, and
// two lists of like length about one merge step per entry. A word with a bitmap (word-docs.ts)
// first tests each candidate's bit, so only the survivors are searched for in its list.

/** What intersect needs of a word: see WordDocs. */
export interface WordList {
  /** doc × 8 + code, documents ascending */
  readonly entries: Int32Array;
  readonly bits: Int32Array | null;
}

/**
 * Writes the first `n` source candidates that are among the word's documents to out (which may
 * be the source itself: it never writes ahead of what it reads), their rank plus `contrib` of the
 * word's code. Returns how many it wrote.
 */
export function intersect(
  srcDocs: Int32Array,
  srcRank: Int32Array,
  n: number,
  word: WordList,
  contrib: Int32Array,
  outDocs: Int32Array,
  outRank: Int32Array,
): number {
  const entries = word.entries;
  const bits = word.bits;
  const m = entries.length;
  let j = 0;
  let kept = 0;
  for (let i = 0; i < n && j < m; i++) {
    const doc = srcDocs[i];
    if (bits !== null && (bits[doc >>> 5] & (1 << (doc & 31))) === 0) continue;
    j = seek(entries, j, doc << 3);
    if (j < m && entries[j] >> 3 === doc) {
      outDocs[kept] = doc;
      outRank[kept] = srcRank[i] + contrib[entries[j] & 7];
      kept++;
      j++;
    }
  }
  return kept;
}

/**
 * The candidates of the two first words: the documents of `first` (of the masked models; all with
 * `model` null) that are among `second`'s, ranked by `firstContrib` and `secondContrib` of their
 * codes. Reads `first` in place of copying it out first.
 */
export function intersectFirst(
  first: WordList,
  firstContrib: Int32Array,
  second: WordList,
  secondContrib: Int32Array,
  outDocs: Int32Array,
  outRank: Int32Array,
  model: Uint8Array | null,
  mask: number,
): number {
  const src = first.entries;
  const entries = second.entries;
  const bits = second.bits;
  const m = entries.length;
  let j = 0;
  let kept = 0;
  for (let i = 0; i < src.length && j < m; i++) {
    const doc = src[i] >> 3;
    if (bits !== null && (bits[doc >>> 5] & (1 << (doc & 31))) === 0) continue;
    if (model !== null && ((1 << model[doc]) & mask) === 0) continue;
    j = seek(entries, j, doc << 3);
    if (j < m && entries[j] >> 3 === doc) {
      outDocs[kept] = doc;
      outRank[kept] = firstContrib[src[i] & 7] + secondContrib[entries[j] & 7];
      kept++;
      j++;
    }
  }
  return kept;
}

/** The first index ≥ j whose entry is ≥ least (entries.length if none), galloping from j. */
function seek(entries: Int32Array, j: number, least: number): number {
  const m = entries.length;
  if (j >= m || entries[j] >= least) return j;
  // entries[j] < least: probe 1, 2, 4 … ahead, then bisect the last step
  let lo = j + 1;
  let step = 1;
  let hi = lo;
  while (hi < m && entries[hi] < least) {
    lo = hi + 1;
    step <<= 1;
    hi = lo + step;
  }
  if (hi > m) hi = m;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (entries[mid] < least) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The first word's documents of the masked models (all with `model` null) as candidates, ranked by `contrib` of their code. */
export function startCandidates(
  word: WordList,
  contrib: Int32Array,
  outDocs: Int32Array,
  outRank: Int32Array,
  model: Uint8Array | null,
  mask: number,
): number {
  const entries = word.entries;
  let n = 0;
  for (let i = 0; i < entries.length; i++) {
    const e = entries[i];
    const d = e >> 3;
    if (model !== null && ((1 << model[d]) & mask) === 0) continue;
    outDocs[n] = d;
    outRank[n] = contrib[e & 7];
    n++;
  }
  return n;
}
