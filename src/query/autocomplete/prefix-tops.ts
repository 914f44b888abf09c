// The first results of the costliest queries, made at build time by the searcher's own
// matching (so they are its answers, rank for rank) and kept in data/autocomplete.bin: a short
// word ("m", "mü", "schm") matches a large share of the directory, and ranking it is the
// longest work a request does. A completion suggester's table: per query, per model, how many
// objects match and the first page of them.
//
// Which queries: every prefix of the terms whose postings (exact and prefix) reach MIN_POSTINGS,
// found by a walk of the term trie that leaves a subtree as soon as its prefix is cheaper (a longer
// prefix has no more postings than its own); the words whose forms are several (an umlaut: "mü" is
// "mu" and "mue"), made from every prefix of the objects' own words that have them; and the words
// typed as one, several words to the searcher ("05.012" is "05" and "012", "Karl-Heinz" "karl"
// and "heinz"), made from every prefix of the objects' own such runs whose every word reaches
// MIN_POSTINGS: matching several words reads the postings of the rarest. Any other query is cheap
// to answer, or matches nothing.
import { DIRECTORY_MODELS } from '../../model/types.ts';
import type { DecodedIndex, IndexData, PrefixTops } from '../../store/format/autocomplete-index.ts';
import { codePointLength, maxEditsFor, rawWords } from '../../store/format/words.ts';
import { stringList } from '../../store/format/string-table.ts';
import { Matcher } from './match.ts';
import { matchWords } from './match-words.ts';
import { planWord, type WordPlan } from './plan.ts';
import { queryWords, wordKey, type QueryWord } from './query-words.ts';
import { RankedKeys } from './select.ts';
import { topsKey } from './tops-page.ts';

/** Words with fewer exact and prefix postings than this are answered as they are asked. */
export const MIN_POSTINGS = 512;

const ALL_MODELS = (1 << DIRECTORY_MODELS.length) - 1;

/**
 * Every prefix of the terms whose exact and prefix postings reach `minPostings`, in trie order: a
 * walk of the term trie (a node's subtree is (node, end[node]), its children are found by hopping
 * from node + 1 to end[child]) that leaves a subtree as soon as its prefix is cheaper.
 */
export function broadPrefixes(index: IndexData, minPostings: number): string[] {
  const out: string[] = [];
  const { char, end } = index.trie;
  const walk = (node: number, prefix: string) => {
    for (let child = node + 1; child < end[node]; child = end[child]) {
      const text = prefix + String.fromCharCode(char[child]);
      // a lone high surrogate is no query's form: go on to the whole character
      const last = text.charCodeAt(text.length - 1);
      if (last >= 0xd800 && last <= 0xdbff) {
        walk(child, text);
        continue;
      }
      if (planWord(index, { forms: [text], maxEdits: 0 }).prefixCost < minPostings) continue;
      out.push(text);
      walk(child, text);
    }
  };
  if (char.length > 0) walk(0, '');
  return out;
}

/** Runs of words typed as one: what lies between white space. */
const TYPED_AS_ONE = /\s+/u;

/**
 * Adds the queries of several words that the prefixes of `run` make, up to the first whose
 * complete words include one with fewer postings than `minPostings`: every longer prefix has it
 * too (a query's words are its distinct words in order, so a word before the last stays).
 */
function typedAsOne(run: string, cost: (word: QueryWord) => number, minPostings: number, add: (words: QueryWord[]) => void): void {
  const chars = [...run];
  for (let n = 1; n <= chars.length; n++) {
    const asked = queryWords(chars.slice(0, n).join(''));
    if (asked.length < 2) continue;
    for (let i = 0; i + 1 < asked.length; i++) if (cost(asked[i]) < minPostings) return;
    add(asked);
  }
}

export function prefixTops(index: DecodedIndex, page: number, minPostings = MIN_POSTINGS): PrefixTops {
  const queries = new Map<string, QueryWord[]>();
  // a word's postings, by its key: the words of several-word queries recur ("05", "karl")
  const costs = new Map<string, number>();
  const cost = (word: QueryWord) => {
    const key = wordKey(word);
    let c = costs.get(key);
    if (c === undefined) costs.set(key, (c = planWord(index, word).prefixCost));
    return c;
  };
  const add = (words: QueryWord[]) => {
    const key = topsKey(words);
    if (!queries.has(key) && words.every((w) => cost(w) >= minPostings)) queries.set(key, words);
  };
  for (const prefix of broadPrefixes(index, minPostings)) add([{ forms: [prefix], maxEdits: maxEditsFor(codePointLength(prefix)) }]);
  // words of several forms, and words typed as one, from the prefixes of the objects' text that make them
  const seenRuns = new Set<string>();
  const seenWords = new Set<string>();
  for (let d = 0; d < index.size; d++) {
    for (const run of index.presentation.at(d).split(TYPED_AS_ONE)) {
      if (run === '' || seenRuns.has(run)) continue;
      seenRuns.add(run);
      const raws = rawWords(run);
      if (raws.length > 1) typedAsOne(run, cost, minPostings, add);
      for (const raw of raws) {
        if (/^[\x00-\x7f]*$/.test(raw) || seenWords.has(raw)) continue;
        seenWords.add(raw);
        const chars = [...raw];
        for (let n = 1; n <= chars.length; n++) {
          const asked = queryWords(chars.slice(0, n).join(''));
          if (asked.length === 1 && asked[0].forms.length > 1) add(asked);
        }
      }
    }
  }
  const keys = [...queries.keys()].sort();
  const models = DIRECTORY_MODELS.length;
  const counts = new Uint32Array(keys.length * models);
  const starts = new Uint32Array(keys.length * models + 1);
  const docs: number[] = [];
  const ranks: number[] = [];
  const matcher = new Matcher(index);
  const perModel = Array.from({ length: models }, () => new Float64Array(index.size));
  // a word's plan, made once (with its typo lookup) for every query that has it, as the searcher keeps them
  const plans = new Map<string, WordPlan>();
  const planOf = (word: QueryWord) => {
    const key = wordKey(word);
    let plan = plans.get(key);
    if (plan === undefined) plans.set(key, (plan = planWord(index, word)));
    return plan;
  };
  keys.forEach((key, k) => {
    const found = matchWords(index, matcher, queries.get(key)!.map(planOf), ALL_MODELS);
    if (found === null) throw new Error(`prefix tops: no words in ${JSON.stringify(key)}`);
    const filled = new Uint32Array(models);
    for (let i = 0; i < found.length; i++) {
      const m = index.model[found.docs[i]];
      perModel[m][filled[m]++] = found.rank[i] * index.size + found.docs[i];
    }
    for (let m = 0; m < models; m++) {
      const at = k * models + m;
      counts[at] = filled[m];
      for (const sortKey of new RankedKeys(perModel[m].subarray(0, filled[m])).page(0, page)) {
        docs.push(sortKey % index.size);
        ranks.push(Math.floor(sortKey / index.size));
      }
      starts[at + 1] = docs.length;
    }
  });
  return { page, keys: stringList(keys), counts, starts, docs: Uint32Array.from(docs), ranks: Uint32Array.from(ranks) };
}
