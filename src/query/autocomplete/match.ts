// Intersecting query words over documents and accumulating the rank (see rank.ts).
//
// The first (most selective) word scans its postings and yields the candidates: a word of one
// term, or a broad prefix whose match codes the build stored (prefix-codes.ts, read as the list of
// its objects), yields them ascending and without deduplicating. Each further word either scans
// its postings, stamping each object it matches with its code, and keeps the stamped candidates,
// or — when the candidates' forward lists are shorter than its postings ("schmidt a") — checks
// each candidate's words, or — for a broad prefix with stored codes — looks up each candidate's
// code; whichever costs least. Where the first word is one term, the second is checked as its
// postings are read (firstPair): the first's objects are never written out but for those both
// words match, which is most of a two-word query's work saved; where the first is several terms',
// only the objects both words match are deduplicated.
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
import { NO_CONTRIB, TIER_EXACT, TIER_PREFIX } from './rank.ts';
import { charge } from '../work-budget.ts';
import { gatherNeeds, zeroedAsWritten } from '../../store/read/per-need.ts';

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
/**
 * The last epoch of `stamp` before it is cleared: epoch × 8 + code fits a byte, so the table is
 * a byte per object (it is read at random, and stays in a nearer cache than 4 bytes would).
 */
const MAX_EPOCH = 31;

/** How a further word is checked against the candidates (Matcher.pathOf). */
const LOOKUP = 0;
const CHECK = 1;
const SCAN = 2;
type Path = typeof LOOKUP | typeof CHECK | typeof SCAN;

/** An object's better code in two prefixes' tables of codes (at b0 and b1; the same for one form), or NO_CODE. */
function codeIn(codes: Uint8Array, b0: number, b1: number, doc: number): number {
  const at = doc >> 1;
  const shift = (doc & 1) << 2;
  const c0 = (codes[b0 + at] >> shift) & 15;
  const c1 = (codes[b1 + at] >> shift) & 15;
  return c0 < c1 ? c0 : c1;
}

/** Whether a word is one term's postings: its objects ascending, each once (no typo matches). */
const isOneTerm = (plan: WordPlan) => plan.segments.length === 3 && plan.ranges.length === 1 && plan.ranges[0].hi - plan.ranges[0].lo === 1;
/** Whether a word's objects are read from its stored codes' list (firstListed): one or two forms with codes, no typo matches. */
const isListed = (plan: WordPlan) => plan.tables !== null && plan.tables.length <= 2 && plan.prefixSegments === plan.segments.length;
/**
 * Cost of checking one word of a candidate relative to scanning one posting: the forward lists of
 * scattered candidates are random reads of two arrays, the postings one sequential run. At 200k
 * objects, 2–3 word queries took 5–10 % less CPU with 3 than with 1 (in alternation; noisy).
 */
const CHECK_COST = 3;

const EMPTY_LIST = new Int32Array(0);
const EMPTY_WORDS = new Uint32Array(0);
const EMPTY_CODES = new Uint8Array(0);
/** readerOf for no second word */
const NO_READER = { epoch: 0, codes: EMPTY_CODES, b0: 0, b1: 0 };
/** above every doc × 4 + code (documents are fewer than MAX_DOCS, 2^22) */
const END_OF_LIST = 0x7fffffff;

/**
 * A zeroed buffer for per-object scratch. An index read per need (an edge isolate's) takes its
 * memory as it is written (zeroedAsWritten): a query writes the few candidates it has, and the
 * isolate would otherwise fill every object's bytes before its first answer.
 */
export const scratchOf = (index: IndexData, bytes: number): ArrayBuffer => (index.needPostings === undefined ? new ArrayBuffer(bytes) : zeroedAsWritten(bytes));

export interface Candidates {
  docs: Int32Array;
  rank: Int32Array;
  length: number;
}

export class Matcher {
  private readonly best: Uint8Array;
  /** per object, epoch × 8 + its best code in the postings stamped last with that epoch (stampWord) */
  private readonly stamp: Uint8Array;
  private epoch = 0;
  private readonly candDocs: Int32Array;
  private readonly candRank: Int32Array;
  private readonly termCode: Uint8Array;
  /** forward postings per object, when first asked for (the edge reads the lists only when a query needs them) */
  private avgForwardMade = -1;
  /** per prefix of the index's PrefixCodes, made on first use: its objects ascending, each doc × 4 + code */
  private readonly listed: (Int32Array | undefined)[] = [];

  constructor(private readonly index: IndexData) {
    this.best = new Uint8Array(index.size).fill(NONE);
    this.stamp = new Uint8Array(scratchOf(index, index.size));
    this.candDocs = new Int32Array(scratchOf(index, index.size * 4));
    this.candRank = new Int32Array(scratchOf(index, index.size * 4));
    this.termCode = new Uint8Array(index.terms.length).fill(NONE);
  }

  private get avgForward(): number {
    // (every object's forward list holds its postings: their count is the postings', which the
    // edge knows without fetching the forward lists)
    const { postStart } = this.index;
    if (this.avgForwardMade < 0) this.avgForwardMade = this.index.size === 0 ? 0 : postStart[postStart.length - 1] / this.index.size;
    return this.avgForwardMade;
  }

  /**
   * Makes sure what a pass reads is at hand before it reads it: the postings of `runs` (each a
   * plan's segments from an index of them on) and the prefix codes' rows `tables`. An index read in
   * parts fetches them all in one round.
   */
  private need(runs: readonly (readonly [segments: readonly number[], from: number])[], tables: readonly number[]): void {
    const { index } = this;
    if (index.needPostings === undefined && index.codes?.need === undefined) return;
    const steps = runs.map(([segments, from]) => () => index.needPostings?.(segments, from));
    if (tables.length > 0) steps.push(() => index.codes!.need?.(tables));
    gatherNeeds(steps);
  }

  /** Documents of the allowed models matched by the word, with the word's contribution. */
  first(plan: WordPlan, modelMask: number, contrib: Int32Array): Candidates {
    const { postings, model } = this.index;
    const { candDocs: docs, candRank: rank } = this;
    charge(plan.cost * UNITS_PER_POSTING, 'q');
    // a broad word with stored codes and no typo matches: its objects once each, in order
    if (isListed(plan)) return this.firstListed(plan.tables!, modelMask, contrib);
    const seg = plan.segments;
    this.index.needPostings?.(seg, 0);
    const allModels = (modelMask & ALL_MODELS) === ALL_MODELS; // spares a lookup per posting
    let n = 0;
    if (isOneTerm(plan)) {
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
      return { docs, rank, length: n };
    }
    return this.readRuns(plan, contrib, modelMask, null, NO_CONTRIB, false);
  }

  /**
   * first() for a word whose forms (one or two) all have codes: their objects' lists merged, each
   * object with its best code. A broad prefix's postings hold each object once per term it has
   * ("universitätsklinik", "universitätsklinikum"), and deduplicating them is most of a scan's work.
   * With `other`, only the objects it matches too (read as readerOf reads it), with its contribution.
   */
  private firstListed(tables: number[], modelMask: number, contrib: Int32Array, other: WordPlan | null = null, contribOther: Int32Array = NO_CONTRIB, viaCodes = false): Candidates {
    this.need(other !== null && !viaCodes ? [[other.segments, 0]] : [], other !== null && viaCodes ? [...tables, ...other.tables!] : tables);
    const { model } = this.index;
    const { candDocs: docs, candRank: rank, stamp } = this;
    const allModels = (modelMask & ALL_MODELS) === ALL_MODELS;
    const a = this.listOf(tables[0]);
    const b = tables.length === 2 ? this.listOf(tables[1]) : EMPTY_LIST;
    // (after the lists: a list made now uses the candidates' array as its scratch)
    const { epoch, codes, b0, b1 } = other === null ? NO_READER : this.readerOf(other, viaCodes);
    const codeOf = (doc: number) => (other === null ? 0 : viaCodes ? codeIn(codes, b0, b1, doc) : stamp[doc] >>> 3 === epoch ? stamp[doc] & 7 : NO_CODE);
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
      const code = codeOf(doc);
      if (code === NO_CODE) continue;
      docs[n] = doc;
      rank[n] = contrib[e & 3] + contribOther[code];
      n++;
    }
    return { docs, rank, length: n };
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
    const path = this.pathOf(plan, c.length);
    if (path === LOOKUP) {
      charge(c.length * plan.tables!.length * UNITS_PER_CODE + (plan.cost - plan.prefixCost + c.length) * UNITS_PER_POSTING, 'q');
      this.lookup(plan, c, contrib);
    } else if (path === CHECK) {
      charge(Math.ceil(c.length * this.avgForward) * UNITS_PER_FORWARD_WORD, 'q');
      this.check(plan, c, contrib);
    } else {
      charge((plan.cost + c.length) * UNITS_PER_POSTING, 'q');
      this.scan(plan, c, contrib);
    }
  }

  /**
   * How a word is checked against `candidates` candidates, whichever costs least: a broad word's
   * prefix codes (a lookup per candidate and form, then its typo matches' postings), the
   * candidates' forward lists, or its postings.
   */
  private pathOf(plan: WordPlan, candidates: number): Path {
    const lookups = plan.tables === null ? Infinity : candidates * plan.tables.length + plan.cost - plan.prefixCost;
    const checks = candidates * this.avgForward * CHECK_COST;
    if (lookups < plan.cost + candidates && lookups < checks) return LOOKUP;
    return checks < plan.cost ? CHECK : SCAN;
  }

  /**
   * first() then refine() for two words, in one pass where that is the same work or less: when
   * the first is one term's postings (its objects ascending, each once) and the second is
   * scanned, or looked up in its prefix codes without typo matches, the first's postings are read
   * once and only the objects both match are written. When the first is several terms' (a prefix,
   * typo matches) and the second one term's that would be scanned, the second's postings are read
   * against the first's stamps: the same objects, in another order (their ranks order them).
   * When both are several terms' (or the second is looked up in its codes), the first's postings
   * are read against the second and only the objects both match are deduplicated (readRuns), or,
   * when the first is read from its stored list (firstListed), only those are written. Else null
   * (the caller goes word by word).
   */
  firstPair(one: WordPlan, two: WordPlan, modelMask: number, contribOne: Int32Array, contribTwo: Int32Array): Candidates | null {
    const path = this.pathOf(two, one.cost);
    if (!isOneTerm(one)) {
      if (isOneTerm(two) && path === SCAN) {
        charge((one.cost + two.cost + one.cost) * UNITS_PER_POSTING, 'q');
        return this.stampedPair(two, contribTwo, one, contribOne, modelMask);
      }
      // a broad word's objects are read from its stored list, deduplicated already
      if (isListed(one)) {
        if (path === SCAN) {
          charge((one.cost + two.cost + one.cost) * UNITS_PER_POSTING, 'q');
          return this.firstListed(one.tables!, modelMask, contribOne, two, contribTwo, false);
        }
        if (path !== LOOKUP || two.prefixSegments < two.segments.length || two.tables!.length > 2) return null;
        charge(one.cost * UNITS_PER_POSTING + one.cost * two.tables!.length * UNITS_PER_CODE, 'q');
        return this.firstListed(one.tables!, modelMask, contribOne, two, contribTwo, true);
      }
      if (path === SCAN) {
        charge((one.cost + two.cost + one.cost) * UNITS_PER_POSTING, 'q');
        return this.readRuns(one, contribOne, modelMask, two, contribTwo, false);
      }
      if (path !== LOOKUP || two.prefixSegments < two.segments.length || two.tables!.length > 2) return null;
      // each posting looked up, and each object both match again as it is ranked
      charge((one.cost + one.cost) * UNITS_PER_POSTING + 2 * one.cost * two.tables!.length * UNITS_PER_CODE, 'q');
      return this.readRuns(one, contribOne, modelMask, two, contribTwo, true);
    }
    if (path === SCAN) {
      charge((one.cost + two.cost + one.cost) * UNITS_PER_POSTING, 'q');
      return this.stampedPair(one, contribOne, two, contribTwo, modelMask);
    }
    if (path !== LOOKUP || two.prefixSegments < two.segments.length || two.tables!.length > 2) return null;
    charge(one.cost * UNITS_PER_POSTING + one.cost * two.tables!.length * UNITS_PER_CODE, 'q');
    this.need([[one.segments, 0]], two.tables!);
    const { postings, model } = this.index;
    const { candDocs: docs, candRank: rank } = this;
    const allModels = (modelMask & ALL_MODELS) === ALL_MODELS;
    const [from, end, base] = one.segments;
    const { codes } = this.index.codes!;
    const stride = codeStride(this.index.size);
    // one form reads its table twice, as lookup() does
    const b0 = two.tables![0] * stride;
    const b1 = two.tables![two.tables!.length - 1] * stride;
    let n = 0;
    for (let p = from; p < end; p++) {
      const e = postings[p];
      const doc = e >> 1;
      if (!allModels && ((1 << model[doc]) & modelMask) === 0) continue;
      const code = codeIn(codes, b0, b1, doc);
      if (code === NO_CODE) continue;
      docs[n] = doc;
      rank[n] = contribOne[base + (e & 1)] + contribTwo[code];
      n++;
    }
    return { docs, rank, length: n };
  }

  /**
   * How a pass reads a second word: `viaCodes`, in its prefix codes (the tables at b0 and b1; one
   * form reads its table twice, as lookup() does), else against its stamps, stamped now (epoch).
   */
  private readerOf(other: WordPlan, viaCodes: boolean): { epoch: number; codes: Uint8Array; b0: number; b1: number } {
    if (!viaCodes) return { epoch: this.stampWord(other.segments, 0), codes: EMPTY_CODES, b0: 0, b1: 0 };
    const stride = codeStride(this.index.size);
    const tables = other.tables!;
    return { epoch: 0, codes: this.index.codes!.codes, b0: tables[0] * stride, b1: tables[tables.length - 1] * stride };
  }

  /**
   * The objects of a word of several runs (`read`: a prefix of several terms, typo matches), each
   * once with its best code; with `other`, only those it matches too, read against its stamps or,
   * `viaCodes`, looked up in its prefix codes (no typo matches, one or two forms). Only the objects
   * both match are deduplicated and written: first() then refine() would write every object of
   * `read` once, and drop most of them again.
   */
  private readRuns(read: WordPlan, contribRead: Int32Array, modelMask: number, other: WordPlan | null, contribOther: Int32Array, viaCodes: boolean): Candidates {
    this.need(other !== null && !viaCodes ? [[read.segments, 0], [other.segments, 0]] : [[read.segments, 0]], other !== null && viaCodes ? other.tables! : []);
    const { postings, model } = this.index;
    const { best, candDocs: docs, candRank: rank, stamp } = this;
    const allModels = (modelMask & ALL_MODELS) === ALL_MODELS;
    const { epoch, codes, b0, b1 } = other === null ? NO_READER : this.readerOf(other, viaCodes);
    const codeOf = (doc: number) => (other === null ? 0 : viaCodes ? codeIn(codes, b0, b1, doc) : stamp[doc] >>> 3 === epoch ? stamp[doc] & 7 : NO_CODE);
    const seg = read.segments;
    let n = 0;
    for (let s = 0; s < seg.length; s += 3) {
      const end = seg[s + 1];
      const base = seg[s + 2];
      for (let p = seg[s]; p < end; p++) {
        const e = postings[p];
        const doc = e >> 1;
        if (codeOf(doc) === NO_CODE) continue;
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
      rank[i] = contribRead[best[doc]] + contribOther[codeOf(doc)];
      best[doc] = NONE;
    }
    return { docs, rank, length: n };
  }

  /** The objects of one term's postings (`read`) that `stamped`'s postings match, read against its stamps. */
  private stampedPair(read: WordPlan, contribRead: Int32Array, stamped: WordPlan, contribStamped: Int32Array, modelMask: number): Candidates {
    // (both words' postings, fetched in one round where the index is read in parts)
    this.index.needPostings?.([...read.segments.slice(0, 3), ...stamped.segments], 0);
    const { postings, model } = this.index;
    const { candDocs: docs, candRank: rank, stamp } = this;
    const allModels = (modelMask & ALL_MODELS) === ALL_MODELS;
    const [from, end, base] = read.segments;
    const epoch = this.stampWord(stamped.segments, 0);
    let n = 0;
    for (let p = from; p < end; p++) {
      const e = postings[p];
      const doc = e >> 1;
      const v = stamp[doc];
      if (v >>> 3 !== epoch) continue;
      if (!allModels && ((1 << model[doc]) & modelMask) === 0) continue;
      docs[n] = doc;
      rank[n] = contribRead[base + (e & 1)] + contribStamped[v & 7];
      n++;
    }
    return { docs, rank, length: n };
  }

  private scan(plan: WordPlan, c: Candidates, contrib: Int32Array): void {
    const epoch = this.stampWord(plan.segments, 0);
    const { stamp } = this;
    const { docs, rank } = c;
    let j = 0;
    for (let i = 0; i < c.length; i++) {
      const doc = docs[i];
      const v = stamp[doc];
      if (v >>> 3 !== epoch) continue;
      docs[j] = doc;
      rank[j] = rank[i] + contrib[v & 7];
      j++;
    }
    c.length = j;
  }

  /**
   * Stamps each object of the postings of segments from `from` on with a new epoch and its best
   * code there (epoch × 8 + code, in `stamp`): an object stamped with an older epoch is not
   * matched, so no pass clears the table after each use, only once every MAX_EPOCH uses.
   * Returns the epoch.
   */
  private stampWord(seg: number[], from: number): number {
    this.index.needPostings?.(seg, from);
    const { postings } = this.index;
    const { stamp } = this;
    if (this.epoch === MAX_EPOCH) {
      stamp.fill(0);
      this.epoch = 0;
    }
    const epoch = ++this.epoch;
    const mark = epoch << 3;
    for (let s = from; s < seg.length; s += 3) {
      const end = seg[s + 1];
      const base = seg[s + 2];
      for (let p = seg[s]; p < end; p++) {
        const e = postings[p];
        const doc = e >> 1;
        const code = mark | (base + (e & 1));
        const v = stamp[doc];
        if (v >>> 3 !== epoch || code < v) stamp[doc] = code;
      }
    }
    return epoch;
  }

  private lookup(plan: WordPlan, c: Candidates, contrib: Int32Array): void {
    // with typo matches, their postings are stamped as the codes are read
    this.need(plan.prefixSegments < plan.segments.length ? [[plan.segments, plan.prefixSegments]] : [], plan.tables!);
    const { codes } = this.index.codes!;
    const stride = codeStride(this.index.size);
    const bases = plan.tables!.map((k) => k * stride);
    const { docs, rank } = c;
    // with typo matches, their postings are stamped first and each candidate takes the better code
    const typos = plan.prefixSegments < plan.segments.length;
    let j = 0;
    if (!typos && bases.length <= 2) {
      // the common cases (one form or two, "für": fur, fuer; no typo matches), their loop kept
      // free of the loop over forms and the typo branch; one form reads its table twice
      const b0 = bases[0];
      const b1 = bases[bases.length - 1];
      for (let i = 0; i < c.length; i++) {
        const doc = docs[i];
        const code = codeIn(codes, b0, b1, doc);
        if (code === NO_CODE) continue;
        docs[j] = doc;
        rank[j] = rank[i] + contrib[code];
        j++;
      }
      c.length = j;
      return;
    }
    const epoch = typos ? this.stampWord(plan.segments, plan.prefixSegments) : 0;
    const { stamp } = this;
    for (let i = 0; i < c.length; i++) {
      const doc = docs[i];
      const at = doc >> 1;
      const shift = (doc & 1) << 2;
      let code = NO_CODE;
      for (let b = 0; b < bases.length; b++) {
        const v = (codes[bases[b] + at] >> shift) & 15;
        if (v < code) code = v;
      }
      if (typos && stamp[doc] >>> 3 === epoch && (stamp[doc] & 7) < code) code = stamp[doc] & 7;
      if (code === NO_CODE) continue;
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
