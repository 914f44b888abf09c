// The first results of the costliest single query words, made at build time by the searcher's own
// matching (so they are its answers, rank for rank) and kept in data/autocomplete.bin: a short
// word ("m", "mü", "schm") matches a large share of the directory, and ranking it is the
// longest work a request does. A completion suggester's table: per word, per model, how many
// objects match and the first page of them.
//
// Which words: every prefix of the terms whose postings (exact and prefix) reach MIN_POSTINGS,
// found by a walk of the term trie that leaves a subtree as soon as its prefix is cheaper (a longer
// prefix has no more postings than its own); and the words whose forms are several (an umlaut:
// "mü" is "mu" and "mue"), made from every prefix of the objects' own words that have them. Any
// other word is cheap to answer, or matches nothing.
import { DIRECTORY_MODELS } from '../../model/types.ts';
import type { DecodedIndex, IndexData, PrefixTops } from '../../store/format/autocomplete-index.ts';
import { codePointLength, maxEditsFor, rawWords } from '../../store/format/words.ts';
import { stringList } from '../../store/format/string-table.ts';
import { Matcher } from './match.ts';
import { addFuzzy, planWord } from './plan.ts';
import { queryWords, wordKey, type QueryWord } from './query-words.ts';
import { CONTRIB } from './rank.ts';
import { RankedKeys } from './select.ts';

/** Words with fewer exact and prefix postings than this are answered as they are asked. */
export const MIN_POSTINGS = 512;

const ALL_MODELS = (1 << DIRECTORY_MODELS.length) - 1;

/** The key of a word in PrefixTops: its forms, as the searcher looks it up. */
export const topsKey = (word: QueryWord) => wordKey(word);

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

export function prefixTops(index: DecodedIndex, page: number, minPostings = MIN_POSTINGS): PrefixTops {
  const words = new Map<string, QueryWord>();
  const cost = (word: QueryWord) => planWord(index, word).prefixCost;
  const add = (word: QueryWord) => {
    const key = topsKey(word);
    if (!words.has(key) && cost(word) >= minPostings) words.set(key, word);
  };
  for (const prefix of broadPrefixes(index, minPostings)) add({ forms: [prefix], maxEdits: maxEditsFor(codePointLength(prefix)) });
  // words of several forms, from the prefixes of the objects' words that make them
  const seen = new Set<string>();
  for (let d = 0; d < index.size; d++) {
    for (const raw of rawWords(index.presentation.at(d))) {
      if (/^[\x00-\x7f]*$/.test(raw) || seen.has(raw)) continue;
      seen.add(raw);
      const chars = [...raw];
      for (let n = 1; n <= chars.length; n++) {
        const asked = queryWords(chars.slice(0, n).join(''));
        if (asked.length === 1 && asked[0].forms.length > 1) add(asked[0]);
      }
    }
  }
  const keys = [...words.keys()].sort();
  const models = DIRECTORY_MODELS.length;
  const counts = new Uint32Array(keys.length * models);
  const starts = new Uint32Array(keys.length * models + 1);
  const docs: number[] = [];
  const ranks: number[] = [];
  const matcher = new Matcher(index);
  const perModel = Array.from({ length: models }, () => new Float64Array(index.size));
  keys.forEach((key, k) => {
    const plan = planWord(index, words.get(key)!);
    addFuzzy(index, plan);
    const found = matcher.first(plan, ALL_MODELS, CONTRIB);
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
