// Which postings one query word matches, and with which tier: term lookup only, no documents.
import type { IndexData } from '../../store/format/autocomplete-index.ts';
import type { QueryWord } from './query-words.ts';
import { lowerBound, prefixRange } from './prefix.ts';
import { fuzzyTerms } from './fuzzy.ts';
import { TIER_EXACT, TIER_PREFIX, fuzzyTier } from './rank.ts';

export interface WordPlan {
  word: QueryWord;
  /** per form: terms [lo, hi) start with it; exact is lo when terms[lo] is the form itself, else −1 */
  ranges: { lo: number; hi: number; exact: number }[];
  /** fuzzy-only terms (inside no range) with their tier × 2, filled by addFuzzy */
  fuzzy: Map<number, number> | null;
  /** posting runs as (start, end, tier × 2) triples: the ranges' first, then the typo matches' */
  segments: number[];
  /** length of segments before the typo matches' runs */
  prefixSegments: number;
  /** per range, its prefix's place in the index's PrefixCodes, when every range has one; else null */
  tables: number[] | null;
  /** number of postings in segments */
  cost: number;
  /** number of exact and prefix postings: the cost before the typo matches are added */
  prefixCost: number;
  /** DP cells the typo lookup computed (addFuzzy), charged again whenever the plan is used */
  fuzzyWork: number;
}

export function planWord(index: IndexData, word: QueryWord): WordPlan {
  const { terms, postStart } = index;
  const plan: WordPlan = { word, ranges: [], fuzzy: null, segments: [], prefixSegments: 0, tables: null, cost: 0, prefixCost: 0, fuzzyWork: 0 };
  const tables: number[] = [];
  for (const form of word.forms) {
    const [lo, hi] = prefixRange(terms, form);
    if (lo === hi) continue;
    const exact = terms.at(lo) === form ? lo : -1;
    plan.ranges.push({ lo, hi, exact });
    if (index.codes !== null) {
      const at = lowerBound(index.codes.keys, form);
      if (at < index.codes.keys.length && index.codes.keys.at(at) === form) tables.push(at);
    }
    let from = lo;
    if (exact >= 0) {
      push(plan, postStart[lo], postStart[lo + 1], TIER_EXACT * 2);
      from = lo + 1;
    }
    push(plan, postStart[from], postStart[hi], TIER_PREFIX * 2);
  }
  plan.prefixCost = plan.cost;
  plan.prefixSegments = plan.segments.length;
  // (the only rows of the codes a query reads: read in parts, fetched with the postings of the
  // pass that reads them, Matcher.need)
  if (tables.length > 0 && tables.length === plan.ranges.length) plan.tables = tables;
  return plan;
}

/** Adds the typo matches: the costly part of a word's plan, made (and charged) once it is known to be needed. */
export function addFuzzy(index: IndexData, plan: WordPlan): void {
  if (plan.fuzzy !== null) return;
  const fuzzy = new Map<number, number>();
  plan.fuzzy = fuzzy;
  if (plan.word.maxEdits === 0) return;
  const inRange = (t: number) => plan.ranges.some((r) => t >= r.lo && t < r.hi);
  for (const form of plan.word.forms) {
    plan.fuzzyWork += fuzzyTerms(index.trie, form, plan.word.maxEdits, (t, distance) => {
      if (inRange(t)) return; // exact or prefix already, which ranks better
      const base = fuzzyTier(distance) * 2;
      const prev = fuzzy.get(t);
      if (prev === undefined || base < prev) fuzzy.set(t, base);
    });
  }
  // Map order is visit order, which follows the forms; sort so segments are in term order.
  for (const t of [...fuzzy.keys()].sort((a, b) => a - b)) {
    push(plan, index.postStart[t], index.postStart[t + 1], fuzzy.get(t)!);
  }
}

function push(plan: WordPlan, start: number, end: number, base: number): void {
  if (start >= end) return;
  plan.segments.push(start, end, base);
  plan.cost += end - start;
}
