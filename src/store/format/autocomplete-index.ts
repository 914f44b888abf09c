// The serialized autocomplete index (dist/autocomplete/index.json) and its decoding into the
// flat arrays the searcher works on (IndexData), which the server reads ready-made from
// data/autocomplete.bin instead (autocomplete-file.ts). Bundled for the browser, so no node: imports.
//
// Documents are numbered in listing order (presentation, then ctype, then id), so a document
// number doubles as its tie-break rank and a no-q listing is just a run of document numbers.
//
// Not a serialized MiniSearch index: at 200k objects MiniSearch.loadJSON took 2.1 s and broad
// prefix queries 20–640 ms (it BM25-scores and materializes every matching document), against
// a 1.5 s cold start and a 2 ms p99. This loads with one JSON.parse plus linear passes, and all
// terms with a given prefix are one contiguous run of terms and of postings.
import { CTYPES } from '../../model/directory-models.ts';
import { DIRECTORY_MODELS } from '../../model/types.ts';
import { renderedSuggestions, type SuggestionList } from './autocomplete-suggestion.ts';
import { buildTrie, type Trie } from './term-trie.ts';
import { stringList, type StringList } from './string-table.ts';

export const INDEX_FORMAT = 'aula-autocomplete';
export const INDEX_VERSION = 1;
/** Sort keys pack rank × size + doc into a double; this keeps them exact (see rank.ts). */
export const MAX_DOCS = 1 << 22;

/** Field class of a posting: 0 = the name (persons: last_name; rooms/orgs: name), 1 = any other word. */
export const NAME_CLASS = 0;
export const OTHER_CLASS = 1;

export interface SerializedIndex {
  format: typeof INDEX_FORMAT;
  version: typeof INDEX_VERSION;
  /** DIRECTORY_MODELS at build time; `model` values index into it */
  models: string[];
  model: number[];
  id: number[];
  presentation: string[];
  level_id: (number | null)[];
  room_id: (number | null)[];
  /** distinct indexed word forms, sorted by UTF-16 code units, joined by "\n" */
  terms: string;
  /**
   * Per term in `terms` order: its documents ascending, each as (doc − previous doc) × 2 + class
   * (previous starts at −1, so every value is ≥ 2), then a 0 terminator. Deltas keep the JSON small
   * and JSON.parse of a number array is the fastest generic decoder available in both runtimes.
   */
  postings: number[];
}

export interface IndexData {
  size: number;
  model: Uint8Array;
  /** what a page shows of each object */
  suggestions: SuggestionList;
  terms: StringList;
  /** the terms as a trie, for typo lookups */
  trie: Trie;
  /** postings of term t: postings[postStart[t] .. postStart[t+1]), each doc × 2 + class, docs ascending */
  postStart: Int32Array;
  postings: Int32Array;
  /**
   * Makes sure the postings of `segments` (triples: start, end, and a number the reader keeps),
   * from index `from` of it on, are in `postings` before they are read: an index read in parts (an
   * edge isolate's) fetches them then, and holds no others. Absent: all are.
   */
  needPostings?(segments: readonly number[], from: number): void;
  /** terms of doc d: forward[fwdStart[d] .. fwdStart[d+1]), each term × 2 + class */
  fwdStart: Int32Array;
  forward: Int32Array;
  /** documents of each model (by model index), ascending */
  byModel: Int32Array[];
  /** the first results of the costliest queries (single words, words typed as one), made by the build (the server's file has them; index.json not) */
  tops: PrefixTops | null;
  /** each object's match code for the broadest word prefixes, made by the build (the server's file has them; index.json not) */
  codes: PrefixCodes | null;
}

/**
 * For the word prefixes with the most postings ("a", "sch"), each object's best code (tier × 2 +
 * class, rank.ts) among the terms starting with the prefix, exact and prefix tiers only: a further
 * word of a query checks its candidates with one lookup each instead of scanning those postings.
 */
export interface PrefixCodes {
  /** the prefixes, sorted (UTF-16 code units) */
  readonly keys: StringList;
  /** per key, ceil(size / 2) bytes: object d's code in the low (d even) or high (d odd) 4 bits, NO_CODE if none */
  readonly codes: Uint8Array;
  /**
   * makes sure the rows of keys `tables` are at hand, all at once, before any of `codes` is read
   * (stored ones read in parts: fetched and checked in one round); absent where they always are
   */
  need?(tables: readonly number[]): void;
}

/** The 4-bit code of an object no term of the prefix belongs to. */
export const NO_CODE = 15;

/** Bytes of one prefix's codes in PrefixCodes. */
export const codeStride = (size: number) => (size + 1) >> 1;

/**
 * For the query words whose terms have the most postings (short prefixes: "m", "mü"), and the
 * words typed as one whose words all have that many ("05.0", "Karl-H"), what the searcher answers
 * them with, made at build time by the searcher itself: per model, how many objects match and the
 * first `page` of them in rank order.
 */
export interface PrefixTops {
  /** how many results each key keeps per model: the list's page size */
  readonly page: number;
  /** the keys, sorted (UTF-16 code units): per query word its forms joined by "\n" (query-words.ts), the words joined by " " (tops-page.ts) */
  readonly keys: StringList;
  /** per key and model (key × models + model): how many objects match */
  readonly counts: Uint32Array;
  /** per key and model: where its first results are in `docs` and `ranks` (length keys × models + 1) */
  readonly starts: Uint32Array;
  /** the first results, each list by (rank, document) ascending */
  readonly docs: Uint32Array;
  /** each result's rank (rank.ts) */
  readonly ranks: Uint32Array;
  /**
   * makes sure key `at`'s lists are checked before any of them is read (stored ones read in parts
   * are checked a key at a time, when first read); absent where they all are
   */
  need?(at: number): void;
}

/** The index as index.json holds it: with each object's presentation, whose words the build reads. */
export interface DecodedIndex extends IndexData {
  presentation: StringList;
}

export function decodeIndex(json: string): DecodedIndex {
  const raw = JSON.parse(json) as SerializedIndex;
  if (raw?.format !== INDEX_FORMAT || raw.version !== INDEX_VERSION) {
    throw new Error(`autocomplete index: expected ${INDEX_FORMAT} version ${INDEX_VERSION}`);
  }
  if (raw.models.join(',') !== DIRECTORY_MODELS.join(',')) {
    throw new Error('autocomplete index: built for a different list of models; rebuild');
  }
  const size = raw.id.length;
  const terms = raw.terms === '' ? [] : raw.terms.split('\n');

  const enc = raw.postings;
  const postings = new Int32Array(enc.length - terms.length);
  const postStart = new Int32Array(terms.length + 1);
  const perDoc = new Int32Array(size + 1);
  let t = 0;
  let n = 0;
  let prev = -1;
  for (let i = 0; i < enc.length; i++) {
    const v = enc[i];
    if (v === 0) {
      postStart[++t] = n;
      prev = -1;
      continue;
    }
    prev += v >> 1;
    postings[n++] = (prev << 1) | (v & 1);
    perDoc[prev + 1]++;
  }
  if (t !== terms.length || n !== postings.length) throw new Error('autocomplete index: postings do not match terms');

  // Forward lists let a selective query check a few candidates' words instead of scanning the
  // postings of a broad word; inverting here costs one pass and keeps the file half the size.
  const fwdStart = perDoc;
  for (let d = 0; d < size; d++) fwdStart[d + 1] += fwdStart[d];
  const fill = fwdStart.slice(0, size);
  const forward = new Int32Array(postings.length);
  for (let term = 0; term < terms.length; term++) {
    for (let p = postStart[term]; p < postStart[term + 1]; p++) {
      const e = postings[p];
      forward[fill[e >> 1]++] = (term << 1) | (e & 1);
    }
  }

  const model = Uint8Array.from(raw.model);
  const counts = new Int32Array(DIRECTORY_MODELS.length);
  for (let d = 0; d < size; d++) counts[model[d]]++;
  const byModel = Array.from(counts, (c) => new Int32Array(c));
  counts.fill(0);
  for (let d = 0; d < size; d++) byModel[model[d]][counts[model[d]]++] = d;

  // (a loop: Float64Array.from with a mapping function goes through the array's iterator, value by value)
  const nullable = (values: readonly (number | null)[]) => {
    const out = new Float64Array(values.length);
    for (let i = 0; i < values.length; i++) {
      const v = values[i];
      out[i] = v === null ? NaN : v;
    }
    return out;
  };
  const presentation = stringList(raw.presentation);
  const suggestions = renderedSuggestions({
    ctype: (d) => CTYPES[model[d]],
    id: Float64Array.from(raw.id),
    presentation,
    level_id: nullable(raw.level_id),
    room_id: nullable(raw.room_id),
  });
  return {
    size,
    model,
    suggestions,
    presentation,
    terms: stringList(terms),
    trie: buildTrie(terms),
    postStart,
    postings,
    fwdStart,
    forward,
    byModel,
    tops: null,
    codes: null,
  };
}
