// The MiniSearch options for dist/autocomplete/minisearch.json: the build indexes with them and
// the browser loads with them (bundled into minisearch-options.js), so both split and fold words
// with aula's own normalize.ts. Bundled, so no node: imports and only a type import of minisearch.
//
// Matching what the own autocomplete finds needs more than folding each word. There a query word
// with an umlaut matches if EITHER of its spellings prefixes a word ("mül": "mul…" or "muel…",
// so it finds Müller, Mueller and Muller), but MiniSearch combines every term a query word
// yields with AND. So a query word with an umlaut becomes one term in a second vocabulary: every
// indexed form that has an a, o or u is also indexed as UMLAUT_MARK + the form with the "e"
// after each a/o/u dropped ("mueller" and "muller" both as "~muller"), and "mül" is searched as
// "~mul". Words without umlauts are searched as they fold ("mul" still does not find Mueller).
import type { Options } from 'minisearch';
import { rawWords, transliterate, wordForms } from '../../format/words.ts';

/**
 * What MiniSearch indexes per directory object. Ids are unique per model only, and MiniSearch
 * needs a unique id, so `key` is "<ctype>:<id>"; results still carry the numeric `id` (stored
 * fields are copied over MiniSearch's own `id` in each result).
 */
export interface MiniSearchDocument {
  key: string;
  id: number;
  ctype: string;
  presentation: string;
  keywords: string[];
  level_id: number | null;
  room_id: number | null;
}

export const ID_FIELD = 'key';
export const FIELDS = ['presentation', 'keywords'];
export const STORE_FIELDS = ['id', 'ctype', 'presentation', 'level_id', 'room_id'];

/** Never part of a word (rawWords splits on it), so the umlaut vocabulary cannot collide. */
export const UMLAUT_MARK = '~';
const HAS_AOU = /[aou]/;
const E_AFTER_AOU = /([aou])e/g;

/** Fields split into words exactly as the own index does: punctuation and symbols split. */
export function tokenize(text: string): string[] {
  return rawWords(text);
}

/** Index side: every searchable form of the word, plus its entry in the umlaut vocabulary. */
export function processTerm(word: string): string[] {
  const forms = wordForms(word);
  const out = [...forms];
  for (const form of forms) {
    if (!HAS_AOU.test(form)) continue;
    const umlautTerm = UMLAUT_MARK + form.replace(E_AFTER_AOU, '$1');
    if (!out.includes(umlautTerm)) out.push(umlautTerm);
  }
  return out;
}

/** Query side: one term per query word (see the top of this file), null for a word with no letters. */
export function processQueryTerm(word: string): string | string[] | null {
  const forms = wordForms(word);
  if (forms.length === 0) return null;
  if (transliterate(word) === null) return forms;
  return UMLAUT_MARK + forms[0].replace(E_AFTER_AOU, '$1');
}

/** The options for `new MiniSearch(…)` and `MiniSearch.loadJSON(json, …)`. */
export const miniSearchOptions: Options<MiniSearchDocument> = {
  idField: ID_FIELD,
  fields: FIELDS,
  storeFields: STORE_FIELDS,
  tokenize,
  processTerm,
  searchOptions: { tokenize, processTerm: processQueryTerm },
};
