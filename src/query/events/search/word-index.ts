// The search index (store/format/search/search-index-file.ts) as the server reads it: which rows
// have a word or a character, and which words hold a piece of text. Its strings are decoded on
// first use (the words of 100k events are a few hundred thousand at most).
import { bitmapWords } from '../../../store/format/bitmap.ts';
import { BITMAP_REF, eachListed, type SearchIndexData } from '../../../store/format/search/search-index-file.ts';
import type { Work } from '../../work-tally.ts';
import { searchCost, WORK } from '../work-costs.ts';
import type { Bits } from './bits.ts';
import { TermCache } from './term-cache.ts';

/** Bytes of term rows kept (term-cache.ts): 16 MB is 1,300 terms at 100k events. */
const TERM_CACHE_BYTES = 16 << 20;

/** Where a piece of a term must stand in the words it is found in. */
export type Place = 'contains' | 'prefix' | 'suffix' | 'exact';

/** Which tokens a piece is looked for in: the words, the spans, or both. */
export type Tokens = 'words' | 'spans' | 'both';

export class WordIndex {
  private decoded: { words: string[]; spans: string[]; chars: Map<string, number>; grams: Map<string, number> } | null = null;
  private loaded: SearchIndexData | null;
  private perBitmap = 0;
  /** the rows of the last terms searched for */
  readonly terms = new TermCache(TERM_CACHE_BYTES);

  /** `data`: the index, or how to read it when first needed (`aula dev`, which may never search). */
  constructor(private readonly load: SearchIndexData | (() => SearchIndexData)) {
    this.loaded = typeof load === 'function' ? null : load;
    if (this.loaded) this.perBitmap = bitmapWords(this.loaded.rows);
  }

  get data(): SearchIndexData {
    if (this.loaded === null) {
      this.loaded = (this.load as () => SearchIndexData)();
      this.perBitmap = bitmapWords(this.loaded.rows);
    }
    return this.loaded;
  }

  get rows(): number {
    return this.data.rows;
  }

  private get strings() {
    if (this.decoded) return this.decoded;
    const { text, textStart, words, spans, chars, grams } = this.data;
    const all = new TextDecoder('utf-16le').decode(text);
    const at = (i: number) => all.slice(textStart[i], textStart[i + 1]);
    const range = (from: number, to: number) => {
      const out: string[] = [];
      for (let i = from; i < to; i++) out.push(at(i));
      return out;
    };
    const charMap = new Map<string, number>();
    for (let i = words + spans; i < words + spans + chars; i++) charMap.set(at(i), i);
    const gramMap = new Map<string, number>();
    for (let i = 0; i < grams; i++) gramMap.set(at(words + spans + chars + i), i);
    return (this.decoded = { words: range(0, words), spans: range(words, words + spans), chars: charMap, grams: gramMap });
  }

  /** The row list of a character, or -1 when no event has it. */
  charList(ch: string): number {
    return this.strings.chars.get(ch) ?? -1;
  }

  /** ORs the rows of `list` (a word's, a span's or a character's) into `bits`, counting the work. */
  orRows(list: number, bits: Bits, work: Work): void {
    const { lists, bitmaps, varints, rows } = this.data;
    const ref = lists[2 * list];
    if (ref & BITMAP_REF) {
      const n = this.perBitmap;
      work.add(n * WORK.word);
      const base = (ref & ~BITMAP_REF) * n;
      for (let w = 0; w < n; w++) bits[w] |= bitmaps[base + w];
      return;
    }
    const count = lists[2 * list + 1];
    work.add(count * WORK.posting);
    const ok = eachListed(varints, ref, count, rows, (r) => {
      bits[r >>> 5] |= 1 << (r & 31);
    });
    if (!ok) throw new Error('the search index is damaged');
  }

  /**
   * The row lists of the words and/or spans holding `piece` (2 UTF-16 units or more) at `place`.
   * Starting pieces and whole ones are a binary search in the sorted tokens; others are looked
   * for through their grams: a piece of 2 or 3 units is one (its list is exact), a longer one is
   * checked in the tokens of its rarest trigram. Counted: grams looked up, tokens listed and checked.
   */
  tokensWith(piece: string, place: Place, tokens: Tokens, work: Work): number[] {
    const { words, spans, grams } = this.strings;
    const out: number[] = [];
    if (place === 'exact' || place === 'prefix') {
      const sorted: [readonly string[], number][] = [];
      if (tokens !== 'spans') sorted.push([words, 0]);
      if (tokens !== 'words') sorted.push([spans, words.length]);
      for (const [list, first] of sorted) {
        // the sorted tokens that start with it are one run
        work.add(2 * (33 - Math.clz32(list.length)) * searchCost(piece.length));
        let lo = lowerBound(list, piece);
        if (place === 'exact') {
          if (lo < list.length && list[lo] === piece) out.push(first + lo);
          continue;
        }
        for (; lo < list.length && list[lo].startsWith(piece); lo++) out.push(first + lo);
      }
      work.add(out.length * WORK.row);
      return out;
    }
    let gram = -1;
    let count = Infinity;
    const n = Math.min(3, piece.length);
    for (let i = 0; i + n <= piece.length; i++) {
      work.add(WORK.trigram);
      const g = grams.get(piece.slice(i, i + n));
      if (g === undefined) return out;
      const c = this.data.gramLists[2 * g + 1];
      if (c < count) {
        count = c;
        gram = g;
      }
    }
    const exact = piece.length === n && place === 'contains';
    const w = words.length;
    const from = tokens === 'spans' ? w : 0;
    const to = tokens === 'words' ? w : w + spans.length;
    work.add(count * (WORK.posting + (exact ? 0 : searchCost(24))));
    const ok = eachListed(this.data.gramVarints, this.data.gramLists[2 * gram], count, w + spans.length, (id) => {
      if (id < from || id >= to) return;
      if (exact) out.push(id);
      else {
        const token = id < w ? words[id] : spans[id - w];
        if (place === 'suffix' ? token.endsWith(piece) : token.includes(piece)) out.push(id);
      }
    });
    if (!ok) throw new Error('the search index is damaged');
    return out;
  }
}


function lowerBound(words: readonly string[], key: string): number {
  let lo = 0;
  let hi = words.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (words[mid] < key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
