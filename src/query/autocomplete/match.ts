// Intersecting query words over documents and accumulating the rank (see rank.ts).
//
// The first (most selective) word scans its postings and yields the candidates: a word of one
// term, or a broad prefix whose match codes the build stored (prefix-codes.ts, read as the list of
// its objects), yields them ascending and without deduplicating. Each further word either scans
// its postings again, touching only candidates (merged with them when they ascend), or — when the
// candidates' forward lists are shorter than its postings ("schmidt a") — checks each
// candidate's words, or — for a broad prefix with stored codes — looks up each candidate's code;
// whichever costs least.
// All per-document state, the candidate lists included, lives in arrays sized once per index,
// so even a one-letter query over 200k objects allocates no large buffers (it would otherwise
// be ~1 MB of typed arrays per request). Candidates are therefore only valid until the next
// first(); the searcher recomputes a result whose state was overwritten. The one thing kept
// beyond a request is a broad prefix's list of objects, made from its stored codes when first
// asked for (a pass over its codes, charged with its postings) and kept with the index: at most
// one per prefix with codes, 4 bytes per object it matches.
import { DIRECTORY_MODELS } from '../../model/types.ts';
import { codeStride, NO_CODE, type IndexData } from '../../store/format/autocomplete-index.ts';
import type { WordPlan } from './plan.ts';
import { TIER_EXACT, TIER_PREFIX } from './rank.ts';
import { charge } from '../work-budget.ts';

/**
 * Work units (query/work-budget.ts) of scanning one posting and of checking one word of a
 * candidate's forward list: what a request's words cost, charged before each pass.
 */
const UNITS_PER_POSTING = 2;
const UNITS_PER_FORWARD_WORD = 4;
/** Work units of looking one candidate's code up in one prefix's table (PrefixCodes). */
const UNITS_PER_CODE = 1;

const ALL_MODELS = (1 << DIRECTORY_MODELS.length) - 1;
const NONE = 255; // not a candidate / not matched yet
const CANDIDATE = 254; // candidate not (yet) matched by the current word; above every code
/**
 * Cost of checking one word of a candidate relative to scanning one posting: the forward lists of
 * scattered candidates are random reads of two arrays, the postings one sequential run. At 200k
 * objects, 2–3 word queries took 5–10 % less CPU with 3 than with 1 (in alternation; noisy).
 */
const CHECK_COST = 3;

const EMPTY_LIST = new Int32Array(0);
const EMPTY_WORDS = new Uint32Array(0);
/** above every doc × 4 + code (documents are fewer than MAX_DOCS, 2^22) */
const END_OF_LIST = 0x7fffffff;

export interface Candidates {
  docs: Int32Array;
  rank: Int32Array;
  length: number;
  /** whether docs ascend: then a further word's postings are merged with them, not marked in a table */
  sorted: boolean;
}

export class Matcher {
  private readonly best: Uint8Array;
  /** per candidate (by its place in the candidates), the best code a merge found; see merge() */
  private readonly found: Uint8Array;
  private readonly candDocs: Int32Array;
  private readonly candRank: Int32Array;
  private readonly termCode: Uint8Array;
  private readonly avgForward: number;
  /** per prefix of the index's PrefixCodes, made on first use: its objects ascending, each doc × 4 + code */
  private readonly listed: (Int32Array | undefined)[] = [];

  constructor(private readonly index: IndexData) {
    this.best = new Uint8Array(index.size).fill(NONE);
    this.found = new Uint8Array(index.size);
    this.candDocs = new Int32Array(index.size);
    this.candRank = new Int32Array(index.size);
    this.termCode = new Uint8Array(index.terms.length).fill(NONE);
    this.avgForward = index.size === 0 ? 0 : index.forward.length / index.size;
  }

  /** Documents of the allowed models matched by the word, with the word's contribution. */
  first(plan: WordPlan, modelMask: number, contrib: Int32Array): Candidates {
    const { postings, model } = this.index;
    const { best, candDocs: docs, candRank: rank } = this;
    charge(plan.cost * UNITS_PER_POSTING, 'q');
    // a broad word with stored codes and no typo matches: its objects once each, in order
    if (plan.tables !== null && plan.tables.length <= 2 && plan.prefixSegments === plan.segments.length) return this.firstListed(plan.tables, modelMask, contrib);
    const seg = plan.segments;
    const allModels = (modelMask & ALL_MODELS) === ALL_MODELS; // spares a lookup per posting
    let n = 0;
    if (seg.length === 3 && plan.ranges.length === 1 && plan.ranges[0].hi - plan.ranges[0].lo === 1) {
      // one term's postings (a whole word, or a prefix only one term has): each object once
      const end = seg[1];
      const base = seg[2];
      for (let p = seg[0]; p < end; p++) {
        const e = postings[p];
        const doc = e >> 1;
        if (!allModels && ((1 << model[doc]) & modelMask) === 0) continue;
        docs[n] = doc;
        rank[n] = contrib[base + (e & 1)];
        n++;
      }
      return { docs, rank, length: n, sorted: true };
    }
    for (let s = 0; s < seg.length; s += 3) {
      const end = seg[s + 1];
      const base = seg[s + 2];
      for (let p = seg[s]; p < end; p++) {
        const e = postings[p];
        const doc = e >> 1;
        if (!allModels && ((1 << model[doc]) & modelMask) === 0) continue;
        const code = base + (e & 1);
        const cur = best[doc];
        if (code < cur) {
          if (cur === NONE) docs[n++] = doc;
          best[doc] = code;
        }
      }
    }
    for (let i = 0; i < n; i++) {
      const doc = docs[i];
      rank[i] = contrib[best[doc]];
      best[doc] = NONE;
    }
    return { docs, rank, length: n, sorted: false };
  }

  /**
   * first() for a word whose forms (one or two) all have codes: their objects' lists merged, each
   * object with its best code. A broad prefix's postings hold each object once per term it has
   * ("universitätsklinik", "universitätsklinikum"), and deduplicating them is most of a scan's work.
   */
  private firstListed(tables: number[], modelMask: number, contrib: Int32Array): Candidates {
    const { model } = this.index;
    const { candDocs: docs, candRank: rank } = this;
    const allModels = (modelMask & ALL_MODELS) === ALL_MODELS;
    const a = this.listOf(tables[0]);
    const b = tables.length === 2 ? this.listOf(tables[1]) : EMPTY_LIST;
    let n = 0;
    let i = 0;
    let j = 0;
    while (i < a.length || j < b.length) {
      const x = i < a.length ? a[i] : END_OF_LIST;
      const y = j < b.length ? b[j] : END_OF_LIST;
      const dx = x >> 2;
      const dy = y >> 2;
      // the same object in both lists: its better code (doc × 4 + code compares as the code)
      const e = dx < dy ? x : dy < dx ? y : x < y ? x : y;
      if (dx <= dy) i++;
      if (dy <= dx) j++;
      const doc = e >> 2;
      if (!allModels && ((1 << model[doc]) & modelMask) === 0) continue;
      docs[n] = doc;
      rank[n] = contrib[e & 3];
      n++;
    }
    return { docs, rank, length: n, sorted: true };
  }

  /** The objects prefix k of the codes matches, ascending, each doc × 4 + its code (0..3). */
  private listOf(k: number): Int32Array {
    const made = this.listed[k];
    if (made !== undefined) return made;
    const { codes } = this.index.codes!;
    const { size } = this.index;
    const stride = codeStride(size);
    const base = k * stride;
    const { candDocs: scratch } = this;
    let n = 0;
    // most objects have no code: four bytes (eight objects) of NO_CODE are skipped at once
    const aligned = (codes.byteOffset + base) % 4 === 0;
    const words = aligned ? new Uint32Array(codes.buffer, codes.byteOffset + base, stride >> 2) : EMPTY_WORDS;
    for (let w = 0; w < words.length; w++) {
      if (words[w] === 0xffffffff) continue;
      for (let at = w << 2; at < (w + 1) << 2; at++) n = this.listByte(codes[base + at], at, scratch, n);
    }
    for (let at = words.length << 2; at < stride; at++) n = this.listByte(codes[base + at], at, scratch, n);
    // an odd count of objects leaves the last byte's upper half to no object, whatever it holds
    if (n > 0 && scratch[n - 1] >> 2 >= size) n--;
    const list = scratch.slice(0, n);
    this.listed[k] = list;
    return list;
  }

  /** Adds the objects of a byte of codes (objects 2 × at and 2 × at + 1) to a list at n; the new n. */
  private listByte(byte: number, at: number, list: Int32Array, n: number): number {
    if ((byte & 15) !== NO_CODE) list[n++] = (at << 3) | (byte & 15);
    if (byte >> 4 !== NO_CODE) list[n++] = (((at << 1) | 1) << 2) | (byte >> 4);
    return n;
  }

  /** Keeps the candidates the word matches (in place) and adds its contribution. */
  refine(plan: WordPlan, c: Candidates, contrib: Int32Array): void {
    // a broad word's prefix codes: a lookup per candidate and form, then its typo matches' postings
    const lookups = plan.tables === null ? Infinity : c.length * plan.tables.length + plan.cost - plan.prefixCost;
    if (lookups < plan.cost + c.length && lookups < c.length * this.avgForward * CHECK_COST) {
      charge(c.length * plan.tables!.length * UNITS_PER_CODE + (plan.cost - plan.prefixCost + c.length) * UNITS_PER_POSTING, 'q');
      this.lookup(plan, c, contrib);
    } else if (c.length * this.avgForward * CHECK_COST < plan.cost) {
      charge(Math.ceil(c.length * this.avgForward) * UNITS_PER_FORWARD_WORD, 'q');
      this.check(plan, c, contrib);
    } else {
      charge((plan.cost + c.length) * UNITS_PER_POSTING, 'q');
      this.scan(plan, c, contrib);
    }
  }

  private scan(plan: WordPlan, c: Candidates, contrib: Int32Array): void {
    if (c.sorted) {
      this.found.fill(CANDIDATE, 0, c.length);
      this.merge(plan.segments, 0, c);
      this.keepMatched(c, contrib, true);
      return;
    }
    const { best } = this;
    const { docs } = c;
    for (let i = 0; i < c.length; i++) best[docs[i]] = CANDIDATE;
    this.mark(plan.segments, 0);
    this.keepMatched(c, contrib);
  }

  private lookup(plan: WordPlan, c: Candidates, contrib: Int32Array): void {
    const { codes } = this.index.codes!;
    const stride = codeStride(this.index.size);
    const bases = plan.tables!.map((k) => k * stride);
    const { best } = this;
    const { docs, rank } = c;
    // with typo matches, the codes go where scan marks its candidates, then their postings
    const typos = plan.prefixSegments < plan.segments.length;
    let j = 0;
    if (!typos && bases.length <= 2) {
      // the common cases (one form or two, "für": fur, fuer; no typo matches), their loop kept
      // free of the loop over forms and the typo branch; one form reads its table twice
      const b0 = bases[0];
      const b1 = bases[bases.length - 1];
      for (let i = 0; i < c.length; i++) {
        const doc = docs[i];
        const at = doc >> 1;
        const shift = (doc & 1) << 2;
        const c0 = (codes[b0 + at] >> shift) & 15;
        const c1 = (codes[b1 + at] >> shift) & 15;
        const code = c0 < c1 ? c0 : c1;
        if (code === NO_CODE) continue;
        docs[j] = doc;
        rank[j] = rank[i] + contrib[code];
        j++;
      }
      c.length = j;
      return;
    }
    for (let i = 0; i < c.length; i++) {
      const doc = docs[i];
      const at = doc >> 1;
      const shift = (doc & 1) << 2;
      let code = NO_CODE;
      for (let b = 0; b < bases.length; b++) {
        const v = (codes[bases[b] + at] >> shift) & 15;
        if (v < code) code = v;
      }
      if (typos) {
        if (c.sorted) this.found[i] = code === NO_CODE ? CANDIDATE : code;
        else best[doc] = code === NO_CODE ? CANDIDATE : code;
      } else if (code !== NO_CODE) {
        docs[j] = doc;
        rank[j] = rank[i] + contrib[code];
        j++;
      }
    }
    if (!typos) {
      c.length = j;
      return;
    }
    if (c.sorted) {
      this.merge(plan.segments, plan.prefixSegments, c);
      this.keepMatched(c, contrib, true);
      return;
    }
    this.mark(plan.segments, plan.prefixSegments);
    this.keepMatched(c, contrib);
  }

  /**
   * mark() for ascending candidates: each term's postings (ascending runs, back to back in a
   * segment) merged with the candidates, the best codes kept in `found` by candidate place. The
   * candidates and `found` are read in order, not an object's entry in a table as large as the
   * directory; a short run leaps over candidates (galloping search).
   */
  private merge(seg: number[], from: number, c: Candidates): void {
    const { postings } = this.index;
    const { found } = this;
    const { docs } = c;
    const n = c.length;
    if (n === 0) return;
    for (let s = from; s < seg.length; s += 3) {
      const end = seg[s + 1];
      const base = seg[s + 2];
      let i = 0;
      let prev = -1;
      for (let p = seg[s]; p < end; p++) {
        const e = postings[p];
        const doc = e >> 1;
        // the next term's run starts again from the smallest objects
        if (doc <= prev) i = 0;
        prev = doc;
        if (docs[i] < doc) {
          // gallop: the first candidate at or after doc lies in (lo, hi]
          let lo = i;
          let step = 1;
          let hi = i + 1;
          while (hi < n && docs[hi] < doc) {
            lo = hi;
            step <<= 1;
            hi = lo + step;
          }
          if (hi >= n) hi = n;
          lo++;
          while (lo < hi) {
            const mid = (lo + hi) >> 1;
            if (docs[mid] < doc) lo = mid + 1;
            else hi = mid;
          }
          i = lo;
          if (i === n) {
            // no candidate left in this run: on to its next term, or the next segment
            i = n - 1;
            continue;
          }
        }
        if (docs[i] === doc) {
          const code = base + (e & 1);
          if (code < found[i]) found[i] = code;
        }
      }
    }
  }

  /** Lowers the marked candidates' codes in `best` by the postings of segments from `from` on. */
  private mark(seg: number[], from: number): void {
    const { postings } = this.index;
    const { best } = this;
    for (let s = from; s < seg.length; s += 3) {
      const end = seg[s + 1];
      const base = seg[s + 2];
      for (let p = seg[s]; p < end; p++) {
        const e = postings[p];
        const doc = e >> 1;
        const code = base + (e & 1);
        // NONE (255) > CANDIDATE (254): non-candidates must stay NONE
        if (code < best[doc] && best[doc] !== NONE) best[doc] = code;
      }
    }
  }

  /**
   * Keeps the candidates whose code is a match, adding its contribution: the code in `found` by
   * the candidate's place (merged), or in `best` by its object (marked), which is cleared.
   */
  private keepMatched(c: Candidates, contrib: Int32Array, merged = false): void {
    const { best, found } = this;
    const { docs, rank } = c;
    let j = 0;
    for (let i = 0; i < c.length; i++) {
      const doc = docs[i];
      let code: number;
      if (merged) code = found[i];
      else {
        code = best[doc];
        best[doc] = NONE;
      }
      if (code === CANDIDATE) continue;
      docs[j] = doc;
      rank[j] = rank[i] + contrib[code];
      j++;
    }
    c.length = j;
  }

  private check(plan: WordPlan, c: Candidates, contrib: Int32Array): void {
    const { forward, fwdStart } = this.index;
    const { termCode } = this;
    const { docs, rank } = c;
    const fuzzy = plan.fuzzy ?? new Map<number, number>();
    for (const [t, base] of fuzzy) termCode[t] = base;
    // The range terms' codes go into the table as well when that takes fewer writes than the
    // candidates have words: then each word costs one lookup instead of a test per range.
    let rangeTerms = 0;
    for (const r of plan.ranges) rangeTerms += r.hi - r.lo;
    const tabled = rangeTerms <= c.length * this.avgForward;
    const ranges = tabled ? [] : plan.ranges;
    if (tabled) {
      for (const { lo, hi, exact } of plan.ranges) {
        for (let t = lo; t < hi; t++) {
          // forms' ranges may overlap: the best code wins
          const code = (t === exact ? TIER_EXACT : TIER_PREFIX) * 2;
          if (code < termCode[t]) termCode[t] = code;
        }
      }
    }
    let j = 0;
    for (let i = 0; i < c.length; i++) {
      const doc = docs[i];
      let bestCode = NONE;
      for (let f = fwdStart[doc]; f < fwdStart[doc + 1]; f++) {
        const t = forward[f] >> 1;
        const cls = forward[f] & 1;
        let code = termCode[t] === NONE ? NONE : termCode[t] + cls;
        for (let r = 0; r < ranges.length; r++) {
          const { lo, hi, exact } = ranges[r];
          if (t >= lo && t < hi) {
            const k = (t === exact ? TIER_EXACT : TIER_PREFIX) * 2 + cls;
            if (k < code) code = k;
          }
        }
        if (code < bestCode) bestCode = code;
      }
      if (bestCode === NONE) continue;
      docs[j] = doc;
      rank[j] = rank[i] + contrib[bestCode];
      j++;
    }
    c.length = j;
    for (const t of fuzzy.keys()) termCode[t] = NONE;
    if (tabled) for (const { lo, hi } of plan.ranges) termCode.fill(NONE, lo, hi);
  }
}
