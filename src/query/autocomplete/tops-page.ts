// Pages of a word answered at build time (prefix-tops.ts): the first results of each model the
// request allows, merged by rank. A page past them is answered by matching as any other word is.
import { DIRECTORY_MODELS } from '../../model/types.ts';
import type { PrefixTops } from '../../store/format/autocomplete-index.ts';
import type { DocPage } from './listing.ts';
import { charge } from '../work-budget.ts';
import { wordKey, type QueryWord } from './query-words.ts';

/** Work units (query/work-budget.ts) of one result taken from the tops: a merge step. */
const UNITS_PER_TOP = 3;

/**
 * The key of a query's words in the tops: each word's forms (joined by "\n", wordKey), the words
 * joined by " ", which no form holds (a form is letters and digits). A single word's key is its
 * own key.
 */
export function topsKey(words: readonly QueryWord[]): string {
  if (words.length === 1) return wordKey(words[0]);
  let key = wordKey(words[0]);
  for (let i = 1; i < words.length; i++) key += ` ${wordKey(words[i])}`;
  return key;
}

/** Where `key` is in the tops, or -1. */
export function topsEntry(tops: PrefixTops, key: string): number {
  const keys = tops.keys;
  let lo = 0;
  let hi = keys.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (keys.at(mid) < key) lo = mid + 1;
    else hi = mid;
  }
  return lo < keys.length && keys.at(lo) === key ? lo : -1;
}

/** The results of tops entry `at` for the models in `mask`; `matched` answers pages past the tops. */
export function topsPage(tops: PrefixTops, at: number, mask: number, size: number, matched: () => DocPage): DocPage {
  const models = DIRECTORY_MODELS.length;
  const lists: number[] = [];
  let count = 0;
  for (let m = 0; m < models; m++) {
    if ((mask & (1 << m)) === 0) continue;
    lists.push(at * models + m);
    count += tops.counts[at * models + m];
  }
  let rest: DocPage | null = null;
  return {
    count,
    docs(offset, limit) {
      const end = Math.min(count, offset + limit);
      if (end > tops.page) return (rest ??= matched()).docs(offset, limit);
      charge(end * lists.length * UNITS_PER_TOP, 'q');
      const pos = lists.map((l) => tops.starts[l]);
      const out: number[] = [];
      for (let n = 0; n < end; n++) {
        // the list whose next result ranks first (rank, then document)
        let pick = -1;
        let best = Infinity;
        for (let i = 0; i < lists.length; i++) {
          if (pos[i] === tops.starts[lists[i] + 1]) continue;
          const key = tops.ranks[pos[i]] * size + tops.docs[pos[i]];
          if (key < best) {
            best = key;
            pick = i;
          }
        }
        if (n >= offset) out.push(tops.docs[pos[pick]]);
        pos[pick]++;
      }
      return out;
    },
  };
}
