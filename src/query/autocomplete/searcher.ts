// The autocomplete searcher over a decoded index: q and models in, a count and lazily rendered
// pages out. Isomorphic (bundled for the browser), so no node: imports.
import type { DirectoryModel } from '../../model/types.ts';
import { decodeIndex, type IndexData } from '../../store/format/autocomplete-index.ts';
import { listing, type DocPage } from './listing.ts';
import { Matcher, scratchOf } from './match.ts';
import { matchWords } from './match-words.ts';
import { modelMask } from '../../model/directory-models.ts';
import { planWord, type WordPlan } from './plan.ts';
import { queryWords, wordKey, type QueryWord } from './query-words.ts';
import { RankedKeys } from './select.ts';
import { charge } from '../work-budget.ts';
import { topsEntry, topsKey, topsPage } from './tops-page.ts';
import { TwoGenerations } from '../../util/two-generations.ts';

/** Work units (query/work-budget.ts) per matching object ranked. */
const UNITS_PER_RANKED = 3;

/** White space between two words: a query of words typed apart, which the tops hold only by chance. */
const TYPED_APART = /\S\s+\S/u;

/** Word plans kept, at most (see Searcher.plan); each holds its term ranges and its few typo matches. */
const PLAN_CACHE_ENTRIES = 4096;

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
  /** the same suggestions as UTF-8 bytes (views of the stored ones, where they are stored: read only) */
  pageBytes(offset: number, limit: number): Uint8Array[];
}

export function createAutocomplete(indexJson: string): Autocomplete {
  return new Searcher(decodeIndex(indexJson));
}

/** The searcher over an index as the server reads it (data/autocomplete.bin). */
export function autocompleteOf(index: IndexData): Autocomplete {
  return new Searcher(index);
}

class Searcher implements Autocomplete {
  /**
   * The matcher and the keys' scratch, a few bytes per object, made when a query first matches
   * words: a query the tops answer, or a listing, needs neither, and an edge isolate would pay
   * for every page of them (fresh memory) before its first answer.
   */
  private matcherMade: Matcher | null = null;
  private keysMade: Float64Array | null = null;
  /** bumped by every match; a result whose scratch state was overwritten recomputes it */
  private generation = 0;

  constructor(private readonly index: IndexData) {}

  private get matcher(): Matcher {
    return (this.matcherMade ??= new Matcher(this.index));
  }

  private get keys(): Float64Array {
    return (this.keysMade ??= new Float64Array(scratchOf(this.index, this.index.size * 8)));
  }

  get size(): number {
    return this.index.size;
  }

  search(q: string | undefined, models: readonly DirectoryModel[] | null, options: SearchOptions = {}): AutocompleteResult {
    const mask = modelMask(models);
    const typos = options.typos !== false;
    let words = queryWords(typeof q === 'string' ? q : '');
    if (!typos) words = words.map((w) => ({ ...w, maxEdits: 0 }));
    // (the tops read only here: read in parts, a query of words typed apart never fetches them)
    else if ((words.length === 1 || (words.length > 1 && !TYPED_APART.test(q!))) && this.index.tops !== null) {
      // a costly word, or words typed as one ("05.012", "Karl-Heinz"): the first page was
      // answered at build time (prefix-tops.ts); words typed apart are not looked for there
      const tops = this.index.tops;
      const at = topsEntry(tops, topsKey(words));
      if (at >= 0) {
        tops.need?.(at);
        return new Result(this.index, topsPage(tops, at, mask, this.index.size, () => this.matches(words.map((w) => this.plan(w, typos)), mask)));
      }
    }
    const docs = words.length === 0 ? listing(this.index, mask) : this.matches(words.map((w) => this.plan(w, typos)), mask);
    return new Result(this.index, docs);
  }

  // Type-ahead repeats words: "david", "david l", "david le" … each plan the word "david" anew,
  // and its typo lookup (a walk of the term trie) is the costly part. Plans are pure functions of
  // the word and the index, and never change once their typo matches are added, so the last
  // ones are kept and shared: in two generations, a plan asked for again moving to the newer, the
  // older let go of whole when the newer is full. Nothing is deleted from a Map one key at a
  // time: V8 keeps a deleted key's slot until the table is rebuilt, and finding the oldest key
  // walks every such slot before it, a cost that grows with every distinct word asked.
  // A word's forms decide its typo bound, so they are its plan's key (the string queryWords keeps
  // with the word, whose hash is kept with it: no key is made per request); a word asked without
  // typos is planned apart.
  private readonly plans = new KeptPlans();
  private readonly exactPlans = new KeptPlans();

  private plan(word: QueryWord, typos: boolean): WordPlan {
    return (typos ? this.plans : this.exactPlans).take(this.index, word);
  }

  private matches(plans: WordPlan[], mask: number): DocPage {
    let state = this.match(plans, mask);
    const size = this.index.size;
    return {
      count: state.ranked.length,
      docs: (offset, limit) => {
        if (state.generation !== this.generation) state = this.match(plans, mask);
        const keys = state.ranked.page(offset, limit);
        // a loop, not Array.from(keys, f): that iterates the typed array generically
        const docs = new Array<number>(keys.length);
        for (let i = 0; i < keys.length; i++) docs[i] = keys[i] % size;
        return docs;
      },
    };
  }

  private match(plans: WordPlan[], mask: number): { generation: number; ranked: RankedKeys } {
    const generation = ++this.generation;
    const cand = matchWords(this.index, this.matcher, plans, mask);
    const n = cand === null ? 0 : cand.length;
    charge(n * UNITS_PER_RANKED, 'q');
    const keys = this.keys.subarray(0, n);
    const size = this.index.size;
    if (cand !== null) {
      const { rank, docs } = cand;
      for (let i = 0; i < n; i++) keys[i] = rank[i] * size + docs[i];
    }
    return { generation, ranked: new RankedKeys(keys) };
  }
}

/** Word plans by their words' keys, in two generations (see Searcher.plan). */
class KeptPlans {
  private readonly kept = new TwoGenerations<string, WordPlan>(PLAN_CACHE_ENTRIES);

  /** The word's plan: the one kept, else made now (and kept). */
  take(index: IndexData, word: QueryWord): WordPlan {
    const key = wordKey(word);
    let plan = this.kept.get(key);
    if (plan === undefined) {
      plan = planWord(index, word);
      this.kept.set(key, plan);
    }
    return plan;
  }
}

class Result implements AutocompleteResult {
  readonly count: number;

  constructor(
    private readonly index: IndexData,
    private readonly docs: DocPage,
  ) {
    this.count = docs.count;
  }

  page(offset: number, limit: number): string[] {
    const { suggestions } = this.index;
    const docs = this.docsOf(offset, limit);
    suggestions.need?.(docs);
    return Array.from(docs, (d) => suggestions.json(d));
  }

  pageBytes(offset: number, limit: number): Uint8Array[] {
    const { suggestions } = this.index;
    const docs = this.docsOf(offset, limit);
    // (a page's suggestions asked for at once: read in parts, they are fetched in one round)
    suggestions.need?.(docs);
    const out = new Array<Uint8Array>(docs.length);
    for (let i = 0; i < docs.length; i++) out[i] = suggestions.bytes(docs[i]);
    return out;
  }

  private docsOf(offset: number, limit: number): ArrayLike<number> {
    const o = toCount(offset);
    const l = toCount(limit);
    return l === 0 || o >= this.count ? [] : this.docs.docs(o, l);
  }
}

function toCount(x: number): number {
  if (Number.isNaN(x) || x <= 0) return 0;
  return Math.min(Math.floor(x), Number.MAX_SAFE_INTEGER);
}
