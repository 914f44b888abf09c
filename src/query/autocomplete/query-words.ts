// The `q` parameter as a list of query words. Split exactly like object words, so "05.012"
// and "Univ.-Prof." mean the same on both sides.
import { codePointLength, maxEditsFor, rawWords, wordForms } from '../../store/format/words.ts';

export interface QueryWord {
  /** alternative spellings (folded, transliterated); the word matches if any of them does */
  forms: string[];
  /** typo tolerance, decided by the folded form's length */
  maxEdits: number;
}

/** Words of q, duplicates removed (a repeated word adds no constraint and must not weigh twice). */
export function queryWords(q: string): QueryWord[] {
  const out: QueryWord[] = [];
  const seen = new Set<string>();
  for (const raw of rawWords(q)) {
    const forms = wordForms(raw);
    if (forms.length === 0) continue; // e.g. a lone combining mark
    const key = forms.join('\n');
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ forms, maxEdits: maxEditsFor(codePointLength(forms[0])) });
  }
  return out;
}
