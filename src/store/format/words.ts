// Word splitting and folding shared by the index build and the query side (server and browser
// bundle), so both sides agree on what a "word" is. No node: imports: this file is bundled.

// Combining marks stay inside a raw word: content or queries may arrive decomposed (NFD), and
// splitting on the mark would tear "u" + U+0308 into two words.
const RAW_SPLIT = /[^\p{L}\p{N}\p{M}]+/u;
// Folding can produce non-word characters (compatibility decomposition of "½" gives "1⁄2").
const FOLDED_SPLIT = /[^\p{L}\p{N}]+/u;
const MARKS = /\p{M}+/gu;
const NON_ASCII = /[^\x00-\x7f]/;
// Letters NFKD does not decompose but that people type without their stroke or ligature.
const SPECIAL: Record<string, string> = {
  ß: 'ss',
  æ: 'ae',
  œ: 'oe',
  ø: 'o',
  ł: 'l',
  đ: 'd',
  ð: 'd',
  þ: 'th',
  ı: 'i',
};
const SPECIAL_RE = /[ßæœøłđðþı]/g;
const HAS_UMLAUT = /[äöü]/;
const UMLAUT_RE = /[äöü]/g;
const UMLAUT: Record<string, string> = { ä: 'ae', ö: 'oe', ü: 'ue' };

const WORD_CHAR = /[\p{L}\p{N}\p{M}]/u;

/**
 * Each UTF-16 code unit's class, learnt from WORD_CHAR as it is first met: 0 not yet known, 1
 * inside a word, 2 between words, 3 a surrogate (a code point of two units: left to the pattern).
 * The build splits every directory object's texts (~1.1M at 200k objects): unit by unit with the
 * class looked up is 3x the pattern's split, which calls into its Unicode tables for every character.
 */
let unitClass: Uint8Array | null = null;

/** Raw words of a text: maximal runs of letters, digits and combining marks. */
export function rawWords(text: string): string[] {
  const units = (unitClass ??= new Uint8Array(0x10000).fill(3, 0xd800, 0xe000));
  const words: string[] = [];
  let start = -1;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    let k = units[c];
    if (k === 0) k = units[c] = WORD_CHAR.test(String.fromCharCode(c)) ? 1 : 2;
    if (k === 1) {
      if (start < 0) start = i;
    } else if (k === 2) {
      if (start >= 0) words.push(text.slice(start, i));
      start = -1;
    } else {
      return text.split(RAW_SPLIT).filter((w) => w !== '');
    }
  }
  if (start >= 0) words.push(text.slice(start));
  return words;
}

/**
 * Lower-cased, compatibility-decomposed text without diacritics: "Müller" → "muller",
 * "Weiß" → "weiss", "Öztürk" → "ozturk". Lower-casing happens after NFKD because some
 * lower-case mappings (Turkish "İ") emit combining marks that must be stripped too.
 */
export function fold(text: string): string {
  if (!NON_ASCII.test(text)) return text.toLowerCase(); // NFKD, marks and SPECIAL are all non-ASCII
  return text.normalize('NFKD').toLowerCase().replace(MARKS, '').replace(SPECIAL_RE, (c) => SPECIAL[c]);
}

/** German transliteration (ä→ae, ö→oe, ü→ue) applied before folding: "Müller" → "mueller"; null without umlauts. */
export function transliterate(word: string): string | null {
  const nfc = word.toLowerCase().normalize('NFC');
  return HAS_UMLAUT.test(nfc) ? fold(nfc.replace(UMLAUT_RE, (c) => UMLAUT[c])) : null;
}

/**
 * The searchable forms of one raw word: the folded form and, for words with umlauts, the
 * transliterated one. Index and query both use both forms, so "mul", "muel" and "mül" find
 * "Müller", and "mül" also finds a name spelt "Mueller".
 */
export function wordForms(raw: string): string[] {
  const out: string[] = [];
  const add = (s: string) => {
    for (const piece of s.split(FOLDED_SPLIT)) if (piece !== '' && !out.includes(piece)) out.push(piece);
  };
  add(fold(raw));
  const t = transliterate(raw);
  if (t !== null) add(t);
  return out;
}

/** Length in code points, the unit the typo-tolerance thresholds are stated in. */
export function codePointLength(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0xd800 || c > 0xdbff) n++;
  }
  return n;
}

/** Edits allowed for a query word of the given folded length: none below 4, 1 from 4, 2 from 8. */
export function maxEditsFor(foldedLength: number): number {
  return foldedLength >= 8 ? 2 : foldedLength >= 4 ? 1 : 0;
}
