import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { htmlText, newPass, searchForms, textTerms } from './search-text.ts';

/** Every id given so far, and the term (kind and string) it named: an id names one term only. */
const named = new Map<number, string>();
function name(id: number, term: string): void {
  const was = named.get(id);
  if (was !== undefined && was !== term) throw new Error(`id ${id} named ${was} and ${term}`);
  named.set(id, term);
}

function terms(text: string) {
  const words = new Set<string>();
  const spans = new Set<string>();
  const chars = new Set<string>();
  const sink = {
    word: (w: string, id: number) => (name(id, `word ${w}`), words.add(w)),
    span: (s: string, id: number) => (name(id, `span ${s}`), spans.add(s)),
    char: (c: string, id: number) => (name(id, `char ${c}`), chars.add(c)),
  };
  textTerms(text, sink, newPass());
  return { words: [...words].sort(), spans: [...spans].sort(), chars: [...chars].sort() };
}

describe('the text search looks in', () => {
  it('folds case and diacritics, ß as ss, a final sigma as sigma; transliterates umlauts in a second form', () => {
    expect(searchForms('Herz')).toEqual(['herz']);
    expect(searchForms('École Straße ΟΔΟΣ')).toEqual(['ecole strasse οδοσ']);
    expect(searchForms('Müller')).toEqual(['muller', 'mueller']);
    expect(searchForms('Mu\u0308ller')).toEqual(['muller', 'mueller']);
    expect(searchForms('Mueller')).toEqual(['mueller']);
  });

  it('folds ASCII text at once as it folds any text piece by piece', () => {
    // a non-ASCII word after it takes the piece-by-piece way
    fc.assert(
      fc.property(fc.string({ unit: fc.integer({ min: 0, max: 127 }).map((c) => String.fromCharCode(c)) }), (text) => {
        expect(searchForms(`${text}\u00a0é`)).toEqual([`${searchForms(text)[0]} e`.trim()]);
      }),
      { numRuns: 2000 },
    );
  });

  it('counts a run of whitespace as one space, none at either end', () => {
    expect(searchForms(' herz \n\t kurs\u00a0 wien ')).toEqual(['herz kurs wien']);
  });

  it('reads HTML as a reader sees it', () => {
    expect(htmlText('<p>Herz</p><p>Kurs</p>').trim()).toBe('Herz  Kurs');
    expect(htmlText('<em>Herz</em>kurs')).toBe('Herzkurs');
    expect(htmlText('a<br>b<br/>c')).toBe('a b c');
    expect(htmlText('<!-- geheim -->x<script>var y = "<p>";</script>z<style>p{}</style>')).toBe('x z ');
    expect(htmlText('<a href="x>y" title=\'t\'>Link</a> &amp; &auml; &#228; &lt;p&gt;')).toBe('Link & ä ä <p>');
    expect(htmlText('3 < 4 and 5 > 4')).toBe('3 < 4 and 5 > 4');
    expect(htmlText('<!doctype html><?xml?>Text')).toBe('Text');
  });

  it('reads a body of unclosed tags in linear time', () => {
    const start = process.cpuUsage();
    expect(htmlText('<a '.repeat(100_000)).length).toBeGreaterThan(0);
    expect(htmlText('<a "'.repeat(50_000) + '>').length).toBeGreaterThanOrEqual(0);
    const used = process.cpuUsage(start);
    expect((used.user + used.system) / 1000).toBeLessThan(2_000);
  });

  it('indexes words, spans (runs without whitespace holding punctuation) and characters of every form', () => {
    expect(terms('Per E-Mail, bis 18:00 (Müller)')).toEqual({
      words: ['00', '18', 'bis', 'e', 'mail', 'mueller', 'muller', 'per'],
      spans: ['(mueller)', '(muller)', '18:00', 'e-mail,'],
      chars: ['(', ')', ',', '-', '0', '1', '8', ':', 'a', 'b', 'e', 'i', 'l', 'm', 'p', 'r', 's', 'u'],
    });
  });

  it('joins what folding makes of neighbouring characters into one word, as the folded text has it', () => {
    // ™ is not a letter, but folds to two: "x™y" is the word "xtmy"
    expect(terms('x™y').words).toEqual(['xtmy']);
    expect(searchForms('x™y')).toEqual(['xtmy']);
    // ½ folds to "1⁄2": two words and a span
    expect(terms('a½b')).toMatchObject({ words: ['2b', 'a1'], spans: ['a1⁄2b'] });
    // combining marks alone fold to nothing and split nothing
    expect(terms('herz\u0301kurs').words).toEqual(['herzkurs']);
  });
});

describe('the terms of a text, read once per run', () => {
  it('gives each pass every term of its text, however often a run was read before', () => {
    const text = 'Per E-Mail, Müller Müller e-mail, ' + 'x'.repeat(100) + '-y';
    const first = terms(text);
    expect(terms(text)).toEqual(first);
    expect(terms('Müller')).toEqual({ words: ['mueller', 'muller'], spans: [], chars: ['e', 'l', 'm', 'r', 'u'] });
    expect(first.spans).toContain('x'.repeat(100) + '-y');
  });

  it('gives every term still when more runs have been read than are kept, an id naming one term throughout', () => {
    // (terms() throws where an id names a second term: the search index keeps a term's rows by its id)
    expect(terms('Müller, w0 w1 e-mail E')).toEqual({ words: ['e', 'mail', 'mueller', 'muller', 'w0', 'w1'], spans: ['e-mail', 'mueller,', 'muller,'], chars: [',', '-', '0', '1', 'a', 'e', 'i', 'l', 'm', 'r', 'u', 'w'] });
    const ids = named.size;
    const many = Array.from({ length: 300_000 }, (_, i) => `w${i.toString(36)}`);
    expect(terms(many.join(' ')).words.length).toBe(many.length);
    expect(named.size).toBeGreaterThan(ids + many.length);
    expect(terms('Müller, w0 w1 e-mail E')).toEqual({ words: ['e', 'mail', 'mueller', 'muller', 'w0', 'w1'], spans: ['e-mail', 'mueller,', 'muller,'], chars: [',', '-', '0', '1', 'a', 'e', 'i', 'l', 'm', 'r', 'u', 'w'] });
  });

  it('gives a term once within one pass', () => {
    const given: string[] = [];
    const pass = newPass();
    const sink = { word: (w: string) => given.push(w), span: (s: string) => given.push(s), char: (c: string) => given.push(c) };
    textTerms('herz, herz herz.', sink, pass);
    textTerms('herz', sink, pass);
    expect(given.slice().sort()).toEqual([...new Set(given)].sort());
  });
});
