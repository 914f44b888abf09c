import { describe, expect, it } from 'vitest';
import { codePointLength, maxEditsFor, rawWords, wordForms } from '../../store/format/words.ts';
import { queryWords } from './query-words.ts';
import { mulberry32 } from '../../util/mulberry32.ts';

/** queryWords as it reads without its kept words: every word folded afresh. */
function plainQueryWords(q: string) {
  const out: { forms: string[]; maxEdits: number; key: string }[] = [];
  const seen = new Set<string>();
  for (const raw of rawWords(q)) {
    const forms = wordForms(raw);
    if (forms.length === 0 || seen.has(forms.join('\n'))) continue;
    seen.add(forms.join('\n'));
    out.push({ forms, maxEdits: maxEditsFor(codePointLength(forms[0])), key: forms.join('\n') });
  }
  return out;
}

describe('queryWords', () => {
  it('gives what folding every word afresh gives, for words asked again and past the words it keeps', () => {
    const rng = mulberry32(5);
    const pieces = ['Müller', 'muller', 'MUELLER', 'Weiß', 'weiss', 'dr.', 'Univ.-Prof.', '05.012', 'ǅemal', 'u\u0308ber', '½', 'İstanbul', 'ıi', 'æbel', 'x'];
    for (let i = 0; i < 12_000; i++) {
      const words: string[] = [];
      for (let n = 1 + Math.floor(rng() * 3); n > 0; n--) {
        // many words seen before, and a stream of new ones that turns the kept words over
        words.push(rng() < 0.5 ? pieces[Math.floor(rng() * pieces.length)] : `w${Math.floor(rng() * 9000)}${pieces[i % pieces.length]}`);
      }
      const q = words.join(rng() < 0.5 ? ' ' : ' - ');
      expect(queryWords(q), q).toEqual(plainQueryWords(q));
    }
  });
});
