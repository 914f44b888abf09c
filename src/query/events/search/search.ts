// `search` on the event list: the rows where every term occurs in one of the searched fields, as a
// bit set over the rows.
//
// A term is searched in each of its forms (search-text.ts: folded, and transliterated when it
// has umlauts); a row matches a term when one of the term's forms occurs in one of the row's
// field forms. Each form is answered from the index (search-index-file.ts):
// - letters and digits only: the rows of the words that contain it (a single character: the rows
//   that have it);
// - no whitespace, but another character: the rows of the spans that contain it (a single
//   character: the rows that have it);
// - a phrase (whitespace inside): its space-separated parts narrow the candidates (the first must
//   end a word or span, the last start one, those between be one), and each candidate's text is
//   read and checked.
// Terms that need no reading go first, so a phrase is checked only on the rows every other term
// left. Every loop is charged to `search`: words and grams looked up, postings and bit-set words
// merged, rows read and folded.
import { fieldText, searchForms, SEARCH_FIELDS } from '../../../store/format/search/search-text.ts';
import { fieldIndex, type EventRows } from '../../../store/format/event-rows.ts';
import { WorkTally, type Work } from '../../work-tally.ts';
import { WORK } from '../work-costs.ts';
import { bitmapWords } from '../../../store/format/bitmap.ts';
import { allBits, andCount, andInto, countIn, rowsIn, type Bits } from './bits.ts';
import type { TermRows } from './term-cache.ts';
import type { Place, WordIndex } from './word-index.ts';

/** The parameter every unit of a search is charged to. */
export const SEARCH_PARAM = 'search';

/** A term's form as the index answers it. */
type Plan =
  | { kind: 'all' }
  | { kind: 'none' }
  /** the rows of these lists, exactly */
  | { kind: 'lists'; lists: number[] }
  /** candidates: rows in every one of these unions of lists; then each read and checked for `text` */
  | { kind: 'phrase'; parts: number[][]; text: string };

const WORD_ONLY = /^[\p{L}\p{N}]+$/u;
const SINGLE = /^[\s\S][\udc00-\udfff]?$/;

/** Units per byte of a candidate's fields parsed and folded to check a phrase (JSON, HTML, folding ASCII). */
const UNITS_PER_CHECKED_BYTE = 40;
/** … more per byte of a field beyond ASCII, folded word by word */
const UNITS_PER_FOLDED_BYTE = 120;
const NON_ASCII = /[^\x00-\x7f]/;
/** … and per byte of its row read (from the page cache, as a page's rows are) */
const UNITS_PER_READ_BYTE = 1;
/** Candidates read at a time. */
const CHECK_CHUNK = 64;
/** Units of a term before any lookup: its forms folded. */
const UNITS_PER_TERM = 2_000;

export interface SearchResult {
  bits: Bits;
  count: number;
  /** whether `bits` is this result's alone (made for it, not a kept term's): its holder may write to it */
  own: boolean;
}

/**
 * The rows matching every term (DRF's SearchFilter: AND over terms, each an OR over the fields),
 * read from `rows` where a phrase must be checked.
 */
export function searchRows(index: WordIndex, rows: EventRows, terms: readonly string[]): SearchResult {
  const work = new WorkTally(SEARCH_PARAM);
  const n = index.rows;
  const found: TermRows[] = [];
  const phrases: Plan[][] = [];
  for (const term of new Set(terms)) {
    work.add(UNITS_PER_TERM + term.length * WORK.searchSixteen);
    const forms = searchForms(term);
    // (a term that folds to nothing is in every text)
    if (forms.includes('')) continue;
    const key = forms.join('\n');
    const kept = index.terms.get(key);
    if (kept) {
      work.add(kept.units);
      found.push(kept);
      continue;
    }
    let units = 0;
    const counted: Work = {
      add(u) {
        units += u;
        work.add(u);
      },
      get allowance() {
        return work.allowance;
      },
    };
    const plans = forms.map((form) => planOf(index, form, counted));
    if (plans.some((p) => p.kind === 'phrase')) {
      phrases.push(plans);
      continue;
    }
    const bits = new Int32Array(bitmapWords(n));
    for (const plan of plans) if (plan.kind === 'lists') for (const list of plan.lists) index.orRows(list, bits, counted);
    counted.add(bits.length * WORK.word);
    const rowsOf: TermRows = { bits, count: countIn(bits, 0, n), units };
    index.terms.offer(key, rowsOf);
    found.push(rowsOf);
  }
  // the rarest first: an empty one ends the search
  found.sort((a, b) => a.count - b.count);
  let result: SearchResult;
  if (found.length === 0) result = { bits: allBits(n), count: n, own: true };
  else if (found.length === 1) result = { bits: found[0].bits, count: found[0].count, own: false };
  else {
    // the first two into a new set at once (a copy, then an AND, would be two passes)
    const bits = new Int32Array(found[0].bits.length);
    work.add(bits.length * WORK.word);
    let count = andInto(bits, found[0].bits, found[1].bits);
    for (let i = 2; i < found.length && count > 0; i++) {
      const other = found[i].bits;
      work.add(bits.length * WORK.word);
      count = andCount(bits, other);
    }
    result = { bits, count, own: true };
  }
  // phrases last, each checked only on the rows the other terms left
  for (const plans of phrases) {
    if (result.count === 0) break;
    const bits = new Int32Array(bitmapWords(n));
    for (const plan of plans) {
      if (plan.kind === 'lists') for (const list of plan.lists) index.orRows(list, bits, work);
      else if (plan.kind === 'phrase') orPhrase(index, rows, plan, result.bits, bits, work);
    }
    work.add(bits.length * WORK.word);
    result = { bits, count: andCount(bits, result.bits), own: true };
  }
  work.settle();
  return result;
}

/** How the index answers one form of a term. */
function planOf(index: WordIndex, form: string, work: Work): Plan {
  if (form === '') return { kind: 'all' };
  if (SINGLE.test(form)) {
    const list = index.charList(form);
    return list < 0 ? { kind: 'none' } : { kind: 'lists', lists: [list] };
  }
  if (!form.includes(' ')) {
    const lists = index.tokensWith(form, 'contains', WORD_ONLY.test(form) ? 'words' : 'spans', work);
    return lists.length === 0 ? { kind: 'none' } : { kind: 'lists', lists };
  }
  const pieces = form.split(' ');
  const parts: number[][] = [];
  pieces.forEach((piece, i) => {
    const place: Place = i === 0 ? 'suffix' : i === pieces.length - 1 ? 'prefix' : 'exact';
    if (SINGLE.test(piece) && place !== 'exact') {
      const list = index.charList(piece);
      parts.push(list < 0 ? [] : [list]);
    } else parts.push(index.tokensWith(piece, place, WORD_ONLY.test(piece) ? 'both' : 'spans', work));
  });
  if (parts.some((p) => p.length === 0)) return { kind: 'none' };
  return { kind: 'phrase', parts, text: form };
}

const FIELDS = SEARCH_FIELDS.map((f) => fieldIndex(f)!);

/** ORs into `bits` the rows among `within` that hold the phrase. */
function orPhrase(index: WordIndex, rows: EventRows, plan: Extract<Plan, { kind: 'phrase' }>, within: Bits, bits: Bits, work: Work): void {
  const candidates = Int32Array.from(within);
  for (const lists of plan.parts) {
    const part = new Int32Array(candidates.length);
    for (const list of lists) index.orRows(list, part, work);
    work.add(candidates.length * WORK.word);
    for (let w = 0; w < candidates.length; w++) candidates[w] &= part[w];
  }
  const listed = rowsIn(candidates, 0, index.rows);
  work.add(listed.length * WORK.row);
  // a chunk at a time, its rows' bytes charged before they are read: a phrase of common words
  // is refused before it reads more than the request may
  for (let at = 0; at < listed.length; at += CHECK_CHUNK) {
    const end = Math.min(listed.length, at + CHECK_CHUNK);
    let bytes = 0;
    for (let i = at; i < end; i++) bytes += rows.byteLength(listed[i]);
    work.add(bytes * UNITS_PER_READ_BYTE);
    rows.eachRow(listed, at, end, (row, bytes) => {
      const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
      for (let i = 0; i < FIELDS.length; i++) {
        const [from, to] = rows.valueSpan(row, FIELDS[i]);
        work.add((to - from) * UNITS_PER_CHECKED_BYTE);
        const value = fieldText(SEARCH_FIELDS[i], JSON.parse(text.toString('utf8', from, to)) as string | null);
        // text beyond ASCII is folded word by word, not at once (search-text.ts searchForms)
        if (value !== null && NON_ASCII.test(value)) work.add((to - from) * UNITS_PER_FOLDED_BYTE);
        if (value !== null && searchForms(value).some((f) => f.includes(plan.text))) {
          bits[row >>> 5] |= 1 << (row & 31);
          return;
        }
      }
    });
  }
}
