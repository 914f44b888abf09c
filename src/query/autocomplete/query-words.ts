// The `q` parameter as a list of query words. Split exactly like object words, so "05.012"
// and "Univ.-Prof." mean the same on both sides.
import { codePointLength, maxEditsFor, rawWords, wordForms } from '../../store/format/words.ts';
import { TwoGenerations } from '../../util/two-generations.ts';

export interface QueryWord {
  /** alternative spellings (folded, transliterated); the word matches if any of them does (read only: shared) */
  forms: string[];
  /** typo tolerance, decided by the folded form's length */
  maxEdits: number;
  /**
   * its forms joined by "\n": what makes two words the same, and a word's key in the tops and in
   * the searcher's kept plans. Made once per word where queryWords made the word (a string kept,
   * whose hash is kept with it), else joined when asked for (wordKey).
   */
  key?: string;
}

/** The word's forms joined by "\n" (QueryWord.key). */
export const wordKey = (word: QueryWord): string => word.key ?? word.forms.join('\n');

/** Raw words kept, at most: a word's forms are a pure function of it (see wordOf). */
const KNOWN_ENTRIES = 4096;
const knownWords = new TwoGenerations<string, QueryWord | null>(KNOWN_ENTRIES);

/**
 * The query word of one raw word. Type-ahead asks the same words again and again ("david",
 * "david l", "david le"), and their folding (NFKD, NFC, the transliteration) is a good part of a
 * short query's work: the last ones are kept, as the searcher keeps its plans.
 */
function wordOf(raw: string): QueryWord | null {
  let known = knownWords.get(raw);
  if (known === undefined) {
    const forms = wordForms(raw);
    // e.g. a lone combining mark
    known = forms.length === 0 ? null : { forms, maxEdits: maxEditsFor(codePointLength(forms[0])), key: forms.join('\n') };
    knownWords.set(raw, known);
  }
  return known;
}

/** Words of q, duplicates removed (a repeated word adds no constraint and must not weigh twice). */
export function queryWords(q: string): QueryWord[] {
  const out: QueryWord[] = [];
  // a query has a few words: a list is quicker to search than a set is to make
  const keys: string[] = [];
  for (const raw of rawWords(q)) {
    const word = wordOf(raw);
    if (word === null || keys.includes(word.key!)) continue;
    keys.push(word.key!);
    out.push(word);
  }
  return out;
}
