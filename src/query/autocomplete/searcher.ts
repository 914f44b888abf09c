// The autocomplete searcher over a decoded index: q and models in, a count and lazily rendered
// pages out. Isomorphic (bundled for the browser), so no node: imports.
import type { DirectoryModel } from '../../model/types.ts';
import { decodeIndex, type IndexData } from '../../store/format/autocomplete-index.ts';
import { listing, type DocPage } from './listing.ts';
import { Checker } from './match.ts';
import { CTYPES, modelMask } from '../../model/directory-models.ts';
import { DIRECTORY_MODELS } from '../../model/types.ts';
import { addFuzzy, planWord, type WordPlan } from './plan.ts';
import { queryWords, type QueryWord } from './query-words.ts';
import { CONTRIB, MAX_RANKED_WORDS, NO_CONTRIB } from './rank.ts';
import { RankedKeys } from './select.ts';
import { renderSuggestion } from './suggestion.ts';
import { intersect, intersectFirst, startCandidates } from './intersect.ts';
import { WordDocs, WordDocsBuilder } from './word-docs.ts';

/** Word plans kept (see Searcher.plan); each holds its term ranges and its few typo matches. */
const PLAN_CACHE_ENTRIES = 4096;
/**
 * Bytes of materialized word documents kept with the plans (see word-docs.ts). At 200k objects a
 * broad word is 25–150 KB; the ~1,500 distinct words of the bench's 60,000 type-ahead queries
 * take 19.5 MB together, and 16 MiB keeps the several-word pools' words (ac1's one-word queries
 * rebuild some). Held outside the JS heap, they cost RSS beyond their size (allocator pages):
 * in process, after all 60,000 queries, +46 MB RSS over the previous searcher at 24 MiB.
 */
export const WORD_DOCS_BUDGET = 16 * 1024 * 1024;
const ALL_MODELS = (1 << DIRECTORY_MODELS.length) - 1;
/** module-local: a hot loop reads it (an imported binding may be a getter where modules are transpiled) */
const RANKED = CONTRIB;
const UNRANKED = NO_CONTRIB;

export interface Autocomplete {
  /** total number of objects */
  readonly size: number;
  /** q: raw q parameter (undefined/blank/no words = list all); models: null = all models. Never throws. */
  search(q: string | undefined, models: readonly DirectoryModel[] | null, options?: SearchOptions): AutocompleteResult;
}

export interface SearchOptions {
  /** default true; false matches exact words and prefixes only (as the MiniSearch index does without `fuzzy`) */
  typos?: boolean;
}

export interface AutocompleteResult {
  /** number of all matches, not only the page */
  count: number;
  /** compact JSON suggestions for rows offset .. offset+limit−1 of the ranked list */
  page(offset: number, limit: number): string[];
}

export interface SearcherLimits {
  /** bytes of materialized word documents kept (default WORD_DOCS_BUDGET) */
  wordDocsBudget?: number;
  /** rendered suggestions kept before all are forgotten (default RENDERED_KEPT) */
  renderedKept?: number;
}

export function createAutocomplete(indexJson: string, options: SearcherLimits = {}): Autocomplete {
  return new Searcher(decodeIndex(indexJson), options.wordDocsBudget ?? WORD_DOCS_BUDGET, options.renderedKept ?? RENDERED_KEPT);
}

/** A cached word: its plan and, once a query needed them, its documents. */
interface Word {
  key: string;
  plan: WordPlan;
  docs: WordDocs | null;
}

class Searcher implements Autocomplete {
  private readonly checker: Checker;
  private readonly builder: WordDocsBuilder;
  /** candidates of a several-word query: ascending documents and their rank so far */
  private readonly candDocs: Int32Array;
  private readonly candRank: Int32Array;
  private readonly keys: Float64Array;
  /** bumped by every several-word match; a result whose scratch state was overwritten recomputes it */
  private generation = 0;
  /** bytes of the kept words' documents */
  private wordBytes = 0;
  private readonly rendered: Rendered;

  constructor(
    private readonly index: IndexData,
    private readonly budget: number,
    renderedKept: number,
  ) {
    this.checker = new Checker(index);
    this.builder = new WordDocsBuilder(index);
    this.candDocs = new Int32Array(index.size);
    this.candRank = new Int32Array(index.size);
    this.keys = new Float64Array(index.size);
    this.rendered = new Rendered(index, renderedKept);
  }

  get size(): number {
    return this.index.size;
  }

  search(q: string | undefined, models: readonly DirectoryModel[] | null, options: SearchOptions = {}): AutocompleteResult {
    const mask = modelMask(models);
    let words = queryWords(typeof q === 'string' ? q : '');
    if (options.typos === false) words = words.map((w) => ({ ...w, maxEdits: 0 }));
    if (words.length === 0) return new Result(this.rendered, listing(this.index, mask));
    const cached = words.map((w) => this.word(w));
    const docs = cached.length === 1 ? this.single(cached[0], mask) : this.matches(cached, mask);
    this.trim();
    return new Result(this.rendered, docs);
  }

  // Type-ahead repeats words: "david", "david l", "david le" … each plan the word "david" anew,
  // and its typo lookup (a walk of the term trie) and its documents are the costly part. Both
  // are pure functions of the word and the index, so the last ones are kept and shared.
  private readonly words = new Map<string, Word>();

  private word(word: QueryWord): Word {
    const key = `${word.maxEdits}\n${word.forms.join('\n')}`;
    let w = this.words.get(key);
    if (w) {
      // Map iteration order is the recency order
      this.words.delete(key);
    } else {
      w = { key, plan: planWord(this.index, word), docs: null };
    }
    this.words.set(key, w);
    return w;
  }

  private docsOf(w: Word): WordDocs {
    if (w.docs === null) {
      w.docs = this.builder.build(w.plan);
      // a word forgotten meanwhile (an older result recomputing) is not the cache's to count
      if (this.words.get(w.key) === w) this.wordBytes += w.docs.bytes;
    }
    return w.docs;
  }

  /** Forgets the least recently used words beyond the limits; after a search, so none of its words goes mid-way. */
  private trim(): void {
    for (const [key, w] of this.words) {
      if (this.words.size <= PLAN_CACHE_ENTRIES && this.wordBytes <= this.budget) break;
      this.words.delete(key);
      if (w.docs !== null) this.wordBytes -= w.docs.bytes;
    }
  }

  /** One word: its documents in rank order are the result (the rank is its code's contribution, monotone in the code). */
  private single(w: Word, mask: number): DocPage {
    const wd = this.docsOf(w);
    const { model } = this.index;
    return {
      count: wd.countIn(model, mask),
      docs: (offset, limit) => {
        const before = wd.bytes;
        const page = wd.page(model, mask, offset, limit);
        // a rank order made for this page is counted with the word, while the word is kept
        if (wd.bytes !== before && this.words.get(w.key) === w) this.wordBytes += wd.bytes - before;
        return page;
      },
    };
  }

  private matches(words: Word[], mask: number): DocPage {
    let state = this.match(words, mask);
    const size = this.index.size;
    return {
      count: state.length,
      docs: (offset, limit) => {
        if (state.generation !== this.generation) state = this.match(words, mask);
        const best = this.bestRankPage(state.length, offset, limit);
        if (best !== null) return best;
        // the page reaches past the best-ranked candidates: order them all by (rank, document)
        if (state.ranked === null) {
          const keys = this.keys.subarray(0, state.length);
          const { candDocs: docs, candRank: rank } = this;
          for (let i = 0; i < keys.length; i++) keys[i] = rank[i] * size + docs[i];
          state.ranked = new RankedKeys(keys);
        }
        return Array.from(state.ranked.page(offset, limit), (key) => key % size);
      },
    };
  }

  /**
   * The page when it lies within the candidates of the best rank, else null. Those come first,
   * and among them the candidates are already in document order (the tie-break), so the page is
   * a run of them: no sort keys, no selection over every candidate. Broad queries ("dr. me",
   * 9,722 matches) mostly have a first page of equally ranked documents.
   */
  private bestRankPage(n: number, offset: number, limit: number): number[] | null {
    const { candDocs: docs, candRank: rank } = this;
    let min = 0;
    let atMin = 0;
    for (let i = 0; i < n; i++) {
      const r = rank[i];
      if (atMin === 0 || r < min) {
        min = r;
        atMin = 1;
      } else if (r === min) atMin++;
    }
    if (atMin < offset + limit && atMin < n) return null;
    const out: number[] = [];
    let skip = offset;
    for (let i = 0; i < n && out.length < limit; i++) {
      if (rank[i] !== min) continue;
      if (skip > 0) skip--;
      else out.push(docs[i]);
    }
    return out;
  }

  /** Leaves the candidates, ascending, with their ranks in candDocs/candRank[0, length). */
  private match(words: Word[], mask: number): { generation: number; length: number; ranked: RankedKeys | null } {
    const generation = ++this.generation;
    // Most selective word first: the candidates start as its documents and only shrink. A word
    // not materialized yet is judged on its exact+prefix postings, and its typo matches and
    // documents are computed only when it is reached, so a query that fails early costs little.
    const cost = (w: Word) => (w.docs !== null ? w.docs.length : w.plan.cost);
    const order = words.map((w, i) => ({ w, i, c: cost(w) })).sort((a, b) => a.c - b.c || a.i - b.i);
    const { candDocs: docs, candRank: rank, index } = this;
    const model = (mask & ALL_MODELS) === ALL_MODELS ? null : index.model;
    const first = this.docsOf(order[0].w);
    let n = -1; // not started: the candidates are still first's documents
    for (let k = 1; k < order.length && n !== 0; k++) {
      const w = order[k].w;
      const contrib = k < MAX_RANKED_WORDS ? RANKED : UNRANKED;
      if (w.docs === null && this.checker.cheaper(n < 0 ? first.length : n, w.plan)) {
        if (n < 0) n = startCandidates(first, RANKED, docs, rank, model, mask);
        addFuzzy(index, w.plan);
        const c = { docs, rank, length: n };
        this.checker.check(w.plan, c, contrib);
        n = c.length;
      } else if (n < 0) {
        n = intersectFirst(first, RANKED, this.docsOf(w), contrib, docs, rank, model, mask);
      } else {
        n = intersect(docs, rank, n, this.docsOf(w), contrib, docs, rank);
      }
    }
    if (n < 0) n = startCandidates(first, RANKED, docs, rank, model, mask);
    return { generation, length: n, ranked: null };
  }
}

/**
 * Rendered suggestions by document, made when first shown: a suggestion is a pure function of its
 * document, and the documents a directory's queries show come back again and again (each render is
 * half a kilobyte of short-lived strings, twenty per answer). Two generations of RENDERED_KEPT
 * (~150–300 bytes each): when the current one is full it becomes the previous one and the
 * previous one is dropped, so the documents still being shown survive by being found again.
 */
export const RENDERED_KEPT = 12_000;

class Rendered {
  // dense arrays (one slot per document, 8 bytes each): filled sparsely, a plain [] would turn
  // into a dictionary, and a Map measured slower (number keys hashed on every lookup)
  private current: (string | undefined)[];
  private previous: (string | undefined)[] = [];
  private held = 0;

  constructor(
    private readonly index: IndexData,
    private readonly kept: number,
  ) {
    this.current = new Array<string | undefined>(index.size);
  }

  of(d: number): string {
    let text = this.current[d];
    if (text !== undefined) return text;
    text = this.previous[d];
    if (text === undefined) {
      const { id, model, presentation, level_id, room_id } = this.index;
      text = renderSuggestion(id[d], CTYPES[model[d]], presentation[d], level_id[d], room_id[d]);
    }
    if (this.held >= this.kept) {
      this.previous = this.current;
      this.current = new Array<string | undefined>(this.index.size);
      this.held = 0;
    }
    this.current[d] = text;
    this.held++;
    return text;
  }
}

class Result implements AutocompleteResult {
  readonly count: number;

  constructor(
    private readonly rendered: Rendered,
    private readonly docs: DocPage,
  ) {
    this.count = docs.count;
  }

  page(offset: number, limit: number): string[] {
    const o = toCount(offset);
    const l = toCount(limit);
    if (l === 0 || o >= this.count) return [];
    const docs = this.docs.docs(o, l);
    const out: string[] = [];
    for (let i = 0; i < docs.length; i++) out.push(this.rendered.of(docs[i]));
    return out;
  }
}

function toCount(x: number): number {
  if (Number.isNaN(x) || x <= 0) return 0;
  return Math.min(Math.floor(x), Number.MAX_SAFE_INTEGER);
}
