// The rank key.
//
// For each query word, an object's match is its best (tier, class) over all of its words,
// compared lexicographically:
//   tier  0 exact word · 1 prefix · 2 one edit · 3 two edits
//   class 0 the name (persons: last_name; rooms, organizations: name) · 1 any other word
//         (first name, titles, title_after, code, keywords, other presentation words)
// Per word this is the code tier × 2 + class (0..7); smaller is better.
//
// Over the query, the object's rank is the lexicographic triple
//   (total edits over all words, number of words matched only as a prefix, number of words
//    matched only outside the name),
// packed as edits·B² + prefixes·B + others with B = 1024. So an object matching every word
// exactly comes before any object needing a prefix, and any object needing no typo comes before
// every object that needs one; the name/other distinction only orders objects of equal tiers.
// For one word this is exactly lexicographic (tier, class).
//
// Ties are broken by the document number, which is the listing order (presentation, ctype, id),
// so the full sort key is rank × size + doc: a single double, compared natively. With
// size ≤ 2^22 and rank < 2^31 the key stays below 2^53, i.e. exact. Only the first
// MAX_RANKED_WORDS processed words weigh in (each adds < 2^21); more words still have to match.

export const LANE = 1024;
export const MAX_RANKED_WORDS = 511;

/** Contribution of one word's code (tier × 2 + class) to the packed rank. */
export const CONTRIB = Int32Array.from({ length: 8 }, (_, code) => {
  const tier = code >> 1;
  const cls = code & 1;
  const edits = tier >= 2 ? tier - 1 : 0;
  return edits * LANE * LANE + (tier === 1 ? LANE : 0) + cls;
});
export const NO_CONTRIB = new Int32Array(8);

export const TIER_EXACT = 0;
export const TIER_PREFIX = 1;
/** tier of a fuzzy match at the given edit distance (1 or 2) */
export const fuzzyTier = (distance: number): number => 1 + distance;
