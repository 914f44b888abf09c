// Lookups in the trigram index of a text column's folded values, as the build wrote it
// (src/store/format/trigram-file.ts says what it holds and why; store/write/trigram-builder.ts
// makes it). A query yields candidate values, a superset of the matches, which the caller
// verifies: a trigram the budget left out still tells that it occurs (a pattern needing a trigram
// that occurs nowhere is answered at once with nothing), it just cannot narrow the candidates; if
// none of a pattern's trigrams is held, the caller scans every value.
import { EMPTY, intersect, type RowSet } from './rowset.ts';
import type { Work } from '../../work-tally.ts';
import { WORK } from '../work-costs.ts';
import { bitmapWords } from '../../../store/format/bitmap.ts';
import { sortedIndexOf } from '../../../util/first-index.ts';
import { BITMAP, BOUNDARY, UNINDEXED, VARINT, intersectVarints, readVarints, type TrigramData } from '../../../store/format/trigram-file.ts';

/** What a pattern requires of a matching (folded) text. */
export type TrigramQuery =
  | { kind: 'all' }
  | { kind: 'run'; text: string; atStart: boolean; atEnd: boolean }
  | { kind: 'and'; parts: TrigramQuery[] }
  | { kind: 'or'; parts: TrigramQuery[] };

export const ALL: TrigramQuery = { kind: 'all' };

/** a varint list is merged into candidates only if at most this many times longer (see intersectAll) */
const MERGE_FACTOR = 8;

/** A trigram of a query, resolved against the index. */
interface Posting {
  kind: typeof VARINT | typeof BITMAP;
  slot: number;
  count: number;
}

export class TrigramIndex {
  /** 32-bit words per bit set */
  private readonly words: number;
  readonly valueCount: number;
  private readonly codeOf: Uint8Array;
  /** every trigram that occurs, ascending */
  private readonly keys: Uint32Array;
  /** per key: number of values containing it (kept for unindexed ones too) */
  private readonly counts: Uint32Array;
  /** per key: UNINDEXED, VARINT or BITMAP */
  private readonly kinds: Uint8Array;
  /** per key: byte offset into `varints`, or bit set number in `bitmaps` */
  private readonly starts: Uint32Array;
  private readonly varints: Uint8Array;
  private readonly bitmaps: Int32Array;
  /** share of all (trigram, value) pairs represented; 1 = nothing left out */
  readonly coverage: number;

  constructor(data: TrigramData) {
    this.valueCount = data.valueCount;
    this.codeOf = data.codeOf;
    this.keys = data.keys;
    this.counts = data.counts;
    this.kinds = data.kinds;
    this.starts = data.starts;
    this.varints = data.varints;
    this.bitmaps = data.bitmaps;
    this.coverage = data.coverage;
    this.words = bitmapWords(this.valueCount);
  }

  /** How the trigrams are held: as varint lists, as bit sets, or left out by the budget. */
  get stats(): { trigrams: number; varint: number; bitmap: number; unindexed: number } {
    const s = { trigrams: this.keys.length, varint: 0, bitmap: 0, unindexed: 0 };
    for (const k of this.kinds) {
      if (k === VARINT) s.varint++;
      else if (k === BITMAP) s.bitmap++;
      else s.unindexed++;
    }
    return s;
  }

  get byteSize(): number {
    return (
      this.codeOf.byteLength + this.keys.byteLength + this.counts.byteLength + this.kinds.byteLength +
      this.starts.byteLength + this.varints.byteLength + this.bitmaps.byteLength
    );
  }

  /**
   * Candidate value ids (ascending) that may satisfy the query, or null when the index cannot
   * narrow it down (the caller scans every value). Counts its work (trigrams looked up, postings
   * decoded and merged, bit set words) into `work`.
   */
  candidates(q: TrigramQuery, work: Work): RowSet | null {
    switch (q.kind) {
      case 'all':
        return null;
      case 'run':
      case 'and': {
        const postings: Posting[] = [];
        const sets: RowSet[] = [];
        if (!this.collectAnd(q, postings, sets, work)) return EMPTY;
        return this.intersectAll(postings, sets, work);
      }
      case 'or': {
        const parts: RowSet[] = [];
        for (const p of q.parts) {
          const c = this.candidates(p, work);
          if (c === null) return null;
          if (c.length > 0) parts.push(c);
        }
        if (parts.length <= 1) return parts[0] ?? EMPTY;
        const bits = new Int32Array(this.words);
        for (const p of parts) {
          work.add(p.length * WORK.posting);
          for (let i = 0; i < p.length; i++) bits[p[i] >>> 5] |= 1 << (p[i] & 31);
        }
        return extract(bits, this.valueCount, work);
      }
    }
  }

  /** Upper bound on the number of candidates, without intersecting. */
  estimate(q: TrigramQuery, work: Work): number {
    const e = this.estimateOf(q, work);
    return e === null ? this.valueCount : Math.min(e, this.valueCount);
  }

  /** null: not narrowed down */
  private estimateOf(q: TrigramQuery, work: Work): number | null {
    switch (q.kind) {
      case 'all':
        return null;
      case 'run': {
        let best: number | null = null;
        for (const t of this.trigramsOf(q, work)) {
          const k = this.slot(t);
          if (k < 0) return 0;
          if (this.kinds[k] !== UNINDEXED && (best === null || this.counts[k] < best)) best = this.counts[k];
        }
        return best;
      }
      case 'and': {
        let best: number | null = null;
        for (const p of q.parts) {
          const e = this.estimateOf(p, work);
          if (e !== null && (best === null || e < best)) best = e;
        }
        return best;
      }
      case 'or': {
        let sum = 0;
        for (const p of q.parts) {
          const e = this.estimateOf(p, work);
          if (e === null) return null;
          sum += e;
        }
        return sum;
      }
    }
  }

  /** Flattens nested ANDs; false when the query cannot match any value. */
  private collectAnd(q: TrigramQuery, postings: Posting[], sets: RowSet[], work: Work): boolean {
    if (q.kind === 'run') {
      for (const t of this.trigramsOf(q, work)) {
        const k = this.slot(t);
        if (k < 0) return false; // occurs nowhere
        const kind = this.kinds[k];
        if (kind !== UNINDEXED) postings.push({ kind: kind as Posting['kind'], slot: k, count: this.counts[k] });
      }
      return true;
    }
    if (q.kind === 'and') {
      for (const p of q.parts) if (!this.collectAnd(p, postings, sets, work)) return false;
      return true;
    }
    const c = this.candidates(q, work);
    if (c !== null) {
      if (c.length === 0) return false;
      sets.push(c);
    }
    return true;
  }

  /**
   * Starts from the smallest list and narrows it. Bit sets filter candidates at O(1) each, so all
   * of them are applied; a longer varint list is merged only while that is cheaper than
   * verifying the surplus candidates it could remove.
   */
  private intersectAll(postings: Posting[], sets: RowSet[], work: Work): RowSet | null {
    const lists = postings.filter((p) => p.kind === VARINT).sort((a, b) => a.count - b.count);
    const bitmaps = postings.filter((p) => p.kind === BITMAP);
    sets.sort((a, b) => a.length - b.length);
    let acc: RowSet | null = null;
    let nextList = 0;
    if (sets.length > 0 && (lists.length === 0 || sets[0].length <= lists[0].count)) acc = sets[0];
    else if (lists.length > 0) {
      const first = lists[nextList++];
      work.add(first.count * WORK.posting);
      acc = this.list(first.slot);
    }
    if (acc === null) {
      if (bitmaps.length === 0) return null;
      // only frequent trigrams: AND their bit sets word by word
      const words = this.words;
      work.add(bitmaps.length * words * WORK.word);
      const bits = this.bitmaps.slice(this.starts[bitmaps[0].slot] * words, (this.starts[bitmaps[0].slot] + 1) * words);
      for (let i = 1; i < bitmaps.length; i++) {
        const base = this.starts[bitmaps[i].slot] * words;
        for (let w = 0; w < words; w++) bits[w] &= this.bitmaps[base + w];
      }
      return extract(bits, this.valueCount, work);
    }
    for (const s of sets) {
      if (s === acc || acc.length === 0) continue;
      work.add((acc.length + s.length) * WORK.posting);
      acc = intersect(acc, s);
    }
    for (; nextList < lists.length && acc.length > 0; nextList++) {
      const l = lists[nextList];
      if (l.count > acc.length * MERGE_FACTOR) break;
      work.add((l.count + acc.length) * WORK.posting);
      acc = this.intersectVarint(acc, l.slot);
    }
    for (const b of bitmaps) {
      if (acc.length === 0) break;
      work.add(acc.length * WORK.posting);
      acc = this.filterBitmap(acc, b.slot);
    }
    return acc;
  }

  /** The value ids of VARINT list `k` (the caller counts the work). */
  private list(k: number): RowSet {
    const out = new Uint32Array(this.counts[k]);
    readVarints(this.varints, this.starts[k], out.length, out);
    return out;
  }

  /** The ids of `acc` that VARINT list `k` holds (the caller counts the work). */
  private intersectVarint(acc: RowSet, k: number): RowSet {
    const out = new Uint32Array(acc.length);
    return out.subarray(0, intersectVarints(this.varints, this.starts[k], this.counts[k], acc, out));
  }

  private filterBitmap(acc: RowSet, k: number): RowSet {
    const base = this.starts[k] * this.words;
    const bits = this.bitmaps;
    const out = new Uint32Array(acc.length);
    let o = 0;
    for (let i = 0; i < acc.length; i++) {
      const v = acc[i];
      out[o] = v;
      o += (bits[base + (v >>> 5)] >>> (v & 31)) & 1;
    }
    return out.subarray(0, o);
  }

  private trigramsOf(run: { text: string; atStart: boolean; atEnd: boolean }, work: Work): number[] {
    work.add((run.text.length + 2) * WORK.trigram);
    const codes: number[] = [];
    if (run.atStart) codes.push(BOUNDARY);
    for (let i = 0; i < run.text.length; i++) codes.push(this.codeOf[run.text.charCodeAt(i)]);
    if (run.atEnd) codes.push(BOUNDARY);
    const out = new Set<number>();
    for (let i = 2; i < codes.length; i++) out.add((codes[i - 2] << 14) | (codes[i - 1] << 7) | codes[i]);
    return [...out];
  }

  private slot(t: number): number {
    return sortedIndexOf(this.keys, t);
  }
}

/** The set bits of a bit set, ascending. */
export function extract(bits: Int32Array, limit: number, work: Work): RowSet {
  work.add(bits.length * 2 * WORK.word);
  let total = 0;
  for (let w = 0; w < bits.length; w++) {
    let x = bits[w];
    // population count
    x -= (x >>> 1) & 0x55555555;
    x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
    total += (Math.imul((x + (x >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24);
  }
  work.add(total * WORK.posting);
  const out = new Uint32Array(total);
  let k = 0;
  for (let w = 0; w < bits.length; w++) {
    let x = bits[w];
    const base = w << 5;
    while (x !== 0) {
      const low = x & -x;
      const v = base | (31 - Math.clz32(low));
      if (v < limit) out[k++] = v;
      x ^= low;
    }
  }
  return out.subarray(0, k);
}
