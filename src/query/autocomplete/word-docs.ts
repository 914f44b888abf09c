// The documents one query word matches, materialized: ascending document numbers with the word's
// best code (tier × 2 + class, see rank.ts) for each.
//
// Type-ahead repeats words ("david", "david l", "david le" …) and a directory's broad words
// ("dr", "prof", "raum") come back in query after query. Scanning a broad word's postings costs
// ~3–10 ns each, and at 200k objects such a word has 10–35k of them. Materialized once, the word
// answers a one-word query as a slice (its documents in rank order, an O(n) counting sort by code
// made on first use) and joins a longer query as a sorted list the other words' lists are
// intersected with (galloping, so a short list against a long one costs the short one's length
// times a few probes). The searcher keeps these per word plan, within a byte budget.
import { DIRECTORY_MODELS } from '../../model/types.ts';
import type { IndexData } from '../../store/format/autocomplete-index.ts';
import { addFuzzy, type WordPlan } from './plan.ts';

const NONE = 255;
/** codes are tier × 2 + class with tier ≤ 3: 0..7 */
const CODES = 8;
/** up to this many documents are ordered by insertion sort instead of a pass over the marks */
const SMALL = 64;
const MODELS = DIRECTORY_MODELS.length;
const ALL_MODELS = (1 << MODELS) - 1;
/** words of at most this many documents page by reading their entries, however sparse the page's code */
const SPARSE_FROM = 1024;

export class WordDocs {
  /** rank order of a one-word query (code, then document), made on first use */
  private byKey: Int32Array | null = null;
  /** documents per (code, model), made on first use */
  private perCode: Int32Array | null = null;
  /**
   * One bit per document of the index, for words holding at least 1/32 of all documents (the
   * bitmap is then at most as large as the list): a candidate is tested with one load instead
   * of a galloping search, and only the survivors are looked up in the list.
   */
  readonly bits: Int32Array | null;

  constructor(
    /** doc × 8 + code (the word's best code for the document), documents ascending */
    readonly entries: Int32Array,
    size: number,
  ) {
    if (entries.length > 0 && entries.length * 32 >= size) {
      const bits = new Int32Array((size + 31) >>> 5);
      for (let i = 0; i < entries.length; i++) {
        const d = entries[i] >> 3;
        bits[d >>> 5] |= 1 << (d & 31);
      }
      this.bits = bits;
    } else {
      this.bits = null;
    }
  }

  get length(): number {
    return this.entries.length;
  }

  /** bytes held, for the searcher's budget */
  get bytes(): number {
    return (this.entries.length + (this.byKey === null ? 0 : this.byKey.length) + (this.bits === null ? 0 : this.bits.length)) * 4 + 96;
  }

  /** The documents by (code, document): a one-word query's result order. Stable counting sort. */
  ranked(): Int32Array {
    if (this.byKey !== null) return this.byKey;
    const { entries } = this;
    const start = new Int32Array(CODES + 1);
    for (let i = 0; i < entries.length; i++) start[(entries[i] & 7) + 1]++;
    for (let c = 0; c < CODES; c++) start[c + 1] += start[c];
    const out = new Int32Array(entries.length);
    for (let i = 0; i < entries.length; i++) out[start[entries[i] & 7]++] = entries[i] >> 3;
    this.byKey = out;
    return out;
  }

  /** Documents per (code, model): perCode[code × MODELS + model]. */
  private counts(model: Uint8Array): Int32Array {
    if (this.perCode === null) {
      const per = new Int32Array(CODES * MODELS);
      for (let i = 0; i < this.entries.length; i++) {
        const e = this.entries[i];
        per[(e & 7) * MODELS + model[e >> 3]]++;
      }
      this.perCode = per;
    }
    return this.perCode;
  }

  /** How many of the documents belong to the models in the mask. */
  countIn(model: Uint8Array, mask: number): number {
    const per = this.counts(model);
    let n = 0;
    for (let i = 0; i < per.length; i++) if ((mask & (1 << i % MODELS)) !== 0) n += per[i];
    return n;
  }

  /**
   * Rows offset .. offset+limit−1 of a one-word query's order (code, then document) among the
   * documents of the masked models. Whole codes before the page are skipped by their counts;
   * within a code the entries are read in document order, which is that code's part of the order.
   * When the page's code holds under 1/8 of the entries that read would mostly skip, so the
   * whole order is made once (ranked()) and sliced instead.
   */
  page(model: Uint8Array, mask: number, offset: number, limit: number): ArrayLike<number> {
    const { entries } = this;
    const per = this.counts(model);
    const all = (mask & ALL_MODELS) === ALL_MODELS;
    if (all && this.byKey !== null) return this.byKey.subarray(offset, Math.min(entries.length, offset + limit));
    const out: number[] = [];
    let skip = offset;
    for (let c = 0; c < CODES && out.length < limit; c++) {
      let inCode = 0;
      for (let m = 0; m < MODELS; m++) if ((mask & (1 << m)) !== 0) inCode += per[c * MODELS + m];
      if (skip >= inCode) {
        skip -= inCode;
        continue;
      }
      if (inCode * 8 < entries.length && entries.length > SPARSE_FROM) return this.rankedPage(model, mask, offset, limit);
      for (let i = 0; i < entries.length && out.length < limit; i++) {
        const e = entries[i];
        if ((e & 7) !== c || ((1 << model[e >> 3]) & mask) === 0) continue;
        if (skip > 0) skip--;
        else out.push(e >> 3);
      }
    }
    return out;
  }

  private rankedPage(model: Uint8Array, mask: number, offset: number, limit: number): ArrayLike<number> {
    const ranked = this.ranked();
    if ((mask & ALL_MODELS) === ALL_MODELS) return ranked.subarray(offset, Math.min(ranked.length, offset + limit));
    const out: number[] = [];
    let row = 0;
    for (let i = 0; i < ranked.length && out.length < limit; i++) {
      const d = ranked[i];
      if (((1 << model[d]) & mask) === 0) continue;
      if (row++ >= offset) out.push(d);
    }
    return out;
  }
}

/** Builds WordDocs from a plan's posting runs; owns per-index scratch arrays, so one per searcher. */
export class WordDocsBuilder {
  private readonly best: Uint8Array;
  /** one bit per document touched by the current build */
  private readonly mark: Int32Array;
  private readonly touched: Int32Array;

  constructor(private readonly index: IndexData) {
    this.best = new Uint8Array(index.size).fill(NONE);
    this.mark = new Int32Array((index.size + 31) >>> 5);
    this.touched = new Int32Array(SMALL);
  }

  /** The plan's documents with their best codes, typo matches included. */
  build(plan: WordPlan): WordDocs {
    addFuzzy(this.index, plan);
    const { postings } = this.index;
    const seg = plan.segments;
    if (seg.length === 0) return new WordDocs(new Int32Array(0), this.index.size);
    if (seg.length === 3) {
      // one run of postings: one term's documents, or a range's under one tier — but a range
      // spans several terms, so only a single term's run is known to be ascending and unique
      const [from, to, base] = seg;
      if (this.singleTerm(from, to)) {
        const n = to - from;
        const entries = new Int32Array(n);
        // posting = doc × 2 + class, entry = doc × 8 + base + class
        for (let i = 0; i < n; i++) {
          const e = postings[from + i];
          entries[i] = ((e >> 1) << 3) | (base + (e & 1));
        }
        return new WordDocs(entries, this.index.size);
      }
    }
    const { best, mark, touched } = this;
    let n = 0;
    for (let s = 0; s < seg.length; s += 3) {
      const end = seg[s + 1];
      const base = seg[s + 2];
      for (let p = seg[s]; p < end; p++) {
        const e = postings[p];
        const doc = e >> 1;
        const code = base + (e & 1);
        const cur = best[doc];
        if (code < cur) {
          if (cur === NONE) {
            if (n < SMALL) touched[n] = doc;
            n++;
            mark[doc >>> 5] |= 1 << (doc & 31);
          }
          best[doc] = code;
        }
      }
    }
    const entries = new Int32Array(n);
    if (n <= SMALL) {
      // few documents: sort them rather than pass over every mark word
      for (let i = 0; i < n; i++) {
        const d = touched[i];
        let j = i;
        while (j > 0 && entries[j - 1] > d) {
          entries[j] = entries[j - 1];
          j--;
        }
        entries[j] = d;
      }
      for (let i = 0; i < n; i++) {
        const d = entries[i];
        entries[i] = (d << 3) | best[d];
        best[d] = NONE;
        mark[d >>> 5] = 0;
      }
      return new WordDocs(entries, this.index.size);
    }
    let k = 0;
    for (let w = 0; w < mark.length; w++) {
      let bits = mark[w];
      if (bits === 0) continue;
      mark[w] = 0;
      const base = w << 5;
      while (bits !== 0) {
        const low = bits & -bits;
        const d = base + 31 - Math.clz32(low);
        bits ^= low;
        entries[k] = (d << 3) | best[d];
        best[d] = NONE;
        k++;
      }
    }
    return new WordDocs(entries, this.index.size);
  }

  /** Whether postings [from, to) are one term's (which are ascending and unique). */
  private singleTerm(from: number, to: number): boolean {
    const { postStart } = this.index;
    // postStart is ascending: find the term whose run starts at `from`
    let lo = 0;
    let hi = postStart.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (postStart[mid] < from) lo = mid + 1;
      else hi = mid;
    }
    // empty terms share a start: the run is one term's when the next distinct start is `to`
    while (lo + 1 < postStart.length && postStart[lo + 1] === from) lo++;
    return postStart[lo] === from && lo + 1 < postStart.length && postStart[lo + 1] === to;
  }
}
