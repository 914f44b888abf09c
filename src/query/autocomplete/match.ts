// Refining candidates by one query word through the candidates' own words (the forward lists).
//
// The searcher intersects materialized word lists (word-docs.ts, intersect.ts). When few
// candidates are left and the next word is broad and not materialized yet ("schmidt a"),
// looking up each candidate's few words is cheaper than collecting the word's postings: this
// does that, in place, without materializing the word.
import type { IndexData } from '../../store/format/autocomplete-index.ts';
import type { WordPlan } from './plan.ts';
import { TIER_EXACT, TIER_PREFIX } from './rank.ts';

const NONE = 255; // not matched
/**
 * Cost of checking one word of a candidate relative to scanning one posting: the forward lists of
 * scattered candidates are random reads of two arrays, the postings one sequential run. At 200k
 * objects, 2–3 word queries took 5–10 % less CPU with 3 than with 1 (in alternation; noisy).
 */
export const CHECK_COST = 3;

export interface Candidates {
  docs: Int32Array;
  rank: Int32Array;
  length: number;
}

export class Checker {
  private readonly termCode: Uint8Array;
  /** mean number of words per document */
  readonly avgForward: number;

  constructor(private readonly index: IndexData) {
    this.termCode = new Uint8Array(index.terms.length).fill(NONE);
    this.avgForward = index.size === 0 ? 0 : index.forward.length / index.size;
  }

  /** Whether checking `candidates` documents' words is expected to cost less than collecting the plan's postings. */
  cheaper(candidates: number, plan: WordPlan): boolean {
    return candidates * this.avgForward * CHECK_COST < plan.cost;
  }

  /** Keeps the candidates the word matches (in place, order kept) and adds its contribution. The plan's typo matches must be added. */
  check(plan: WordPlan, c: Candidates, contrib: Int32Array): void {
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
