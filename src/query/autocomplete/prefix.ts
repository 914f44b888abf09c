// Prefix lookup in the sorted term dictionary. All terms sharing a prefix are one contiguous
// run, and because postings are stored in term order, so are their postings.
import type { StringList } from '../../store/format/string-table.ts';

/** First index whose term is ≥ word (UTF-16 code-unit order). */
export function lowerBound(terms: StringList, word: string): number {
  let lo = 0;
  let hi = terms.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (terms.at(mid) < word) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** [lo, hi) of the terms starting with `word`; terms[lo] === word when there is an exact match. */
export function prefixRange(terms: StringList, word: string): [number, number] {
  const lo = lowerBound(terms, word);
  let a = lo;
  let b = terms.length;
  while (a < b) {
    const mid = (a + b) >>> 1;
    if (terms.at(mid).startsWith(word)) a = mid + 1;
    else b = mid;
  }
  return [lo, a];
}
