// The objects every word of a query matches, each with its rank: the searcher's matching, which
// the build runs too for the first pages it stores (prefix-tops.ts), so a stored page is the
// searcher's own answer, rank for rank.
import type { IndexData } from '../../store/format/autocomplete-index.ts';
import { Matcher, type Candidates } from './match.ts';
import { addFuzzy, type WordPlan } from './plan.ts';
import { CONTRIB, MAX_RANKED_WORDS, NO_CONTRIB } from './rank.ts';
import { charge } from '../work-budget.ts';

/**
 * Work units (query/work-budget.ts) per cell of a typo lookup's edit-distance table. A kept word
 * plan charges its lookup again each time it is used, so a request costs the same whatever was
 * asked before it.
 */
const UNITS_PER_FUZZY_CELL = 3;

/** The candidates of `plans` (one or more words) among the models of `mask`; valid until the matcher's next match. */
export function matchWords(index: IndexData, matcher: Matcher, plans: readonly WordPlan[], mask: number): Candidates | null {
  // The rarest word yields the candidates and every other word is checked against them, rarest
  // first, so a query costs about the postings of its rarest word whatever the others match.
  // Rarest counts the typo matches: "auer" has few postings of its own but one edit away lies
  // "bauer", and a driver chosen by its own postings alone makes "auer phd" rank every Bauer.
  // So every word's typo lookup is made first (a kept plan has it already, and is charged for
  // it all the same, so the order and the work never depend on what was asked before).
  for (const plan of plans) {
    addFuzzy(index, plan);
    charge(plan.fuzzyWork * UNITS_PER_FUZZY_CELL, 'q');
  }
  // cheapest first, ties in the query's order (an insertion sort: a query has a few words)
  const order = plans.slice();
  for (let i = 1; i < order.length; i++) {
    const plan = order[i];
    let j = i;
    for (; j > 0 && order[j - 1].cost > plan.cost; j--) order[j] = order[j - 1];
    order[j] = plan;
  }
  const contrib = (k: number) => (k < MAX_RANKED_WORDS ? CONTRIB : NO_CONTRIB);
  let cand: Candidates | null = null;
  let k = 0;
  if (order.length >= 2) {
    cand = matcher.firstPair(order[0], order[1], mask, contrib(0), contrib(1));
    if (cand !== null) k = 2;
  }
  for (; k < order.length && (cand === null || cand.length > 0); k++) {
    const plan = order[k];
    if (cand === null) cand = matcher.first(plan, mask, contrib(k));
    else matcher.refine(plan, cand, contrib(k));
  }
  return cand;
}
