// The text `search` looks in, and how it is folded: shared by the index the build writes
// (store/write/search-index.ts) and the server that checks its candidates (query/events/search/),
// so that both see the same characters.
//
// An event is searched in five fields: title, teaser, location, organizer, and the body's text
// (its HTML as a reader sees it: tags removed, character references decoded, comments, scripts
// and styles left out). A text is searched in its folded forms: each raw word (a run of letters,
// digits and combining marks) folded as the autocomplete folds words (words.ts) — lower case,
// compatibility-decomposed, without diacritics, `ß` as `ss` — and each other character likewise;
// and, when a word has umlauts, a second form with them transliterated (`ä` as `ae`), so
// `müller`, `mueller` and `muller` all find "Müller", and `müller` finds "Mueller". A run of
// whitespace counts as one space, and none at either end.
//
// Words are folded one at a time, through a cache: a text's words repeat, across events too, and
// folding a whole body (NFKD, marks removed) costs more than looking its words up.
import { decodeHTML } from 'entities/decode';
import { fold, transliterate } from '../words.ts';

/** The fields of an event `search` looks in. */
export const SEARCH_FIELDS = ['title', 'teaser', 'location', 'organizer', 'body'] as const;
export type SearchField = (typeof SEARCH_FIELDS)[number];

/** One raw word or other character of a text, folded. */
interface Folded {
  /** the folded form */
  f: string;
  /** the transliterated form, where it differs from `f` */
  t: string | null;
  /**
   * the words and characters of `f` and of `t` (null: SPACE, or a form that is empty), made when
   * indexing first asks (pieceTermsOf): checking a text for a phrase folds it and needs none of them
   */
  fTerms?: PieceTerms | null;
  tTerms?: PieceTerms | null;
}

/** The terms of a piece's folded form, or of its transliterated form where it has one of its own (`second`). */
function pieceTermsOf(p: Folded, second: boolean): PieceTerms | null {
  if (second && p.t !== null) return p.tTerms === undefined ? (p.tTerms = p.t === '' ? null : pieceTerms(p.t)) : p.tTerms;
  return p.fTerms === undefined ? (p.fTerms = p.f === '' ? null : pieceTerms(p.f)) : p.fTerms;
}

// JavaScript's \s, and what Python's str.split() also splits on (DRF splits terms with it)
const WHITESPACE = /^[\s\x1c-\x1f\x85]$/u;
const WHITESPACE_RUN = /[\s\x1c-\x1f\x85]+/gu;
const RAW_WORD_UNIT = /^[\p{L}\p{N}\p{M}]$/u;
const WORD_CHAR = /^[\p{L}\p{N}]$/u;
const FINAL_SIGMA = /ς/g;
const SPACE: Folded = { f: ' ', t: null, fTerms: null, tTerms: null };

/** Per UTF-16 unit: 0 not classified yet, 1 part of a raw word, 2 whitespace, 3 another character. */
const unitClass = new Uint8Array(0x10000);
for (let c = 0; c < 128; c++) {
  const ch = String.fromCharCode(c);
  unitClass[c] = RAW_WORD_UNIT.test(ch) ? 1 : WHITESPACE.test(ch) ? 2 : 3;
}

/** The class of the character at `i` (a unit not classified yet, or a surrogate), and its width in units. */
function classify(text: string, i: number): number {
  const c = text.charCodeAt(i);
  if (c >= 0xd800 && c <= 0xdfff) {
    // a surrogate pair is one character, classified whole (not kept); a lone one is punctuation
    const cp = text.codePointAt(i)!;
    return cp <= 0xffff ? 3 : RAW_WORD_UNIT.test(String.fromCodePoint(cp)) ? 1 : 3;
  }
  const ch = String.fromCharCode(c);
  const k = RAW_WORD_UNIT.test(ch) ? 1 : WHITESPACE.test(ch) ? 2 : 3;
  unitClass[c] = k;
  return k;
}

const isPair = (text: string, i: number) => {
  const c = text.charCodeAt(i);
  return c >= 0xd800 && c <= 0xdbff && i + 1 < text.length && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00;
};

const cache = new Map<string, Folded>();
/** Distinct raw words kept folded; beyond, the cache starts over (a build sees a few hundred thousand). */
const CACHE_LIMIT = 200_000;
/** Single characters of the BMP other than whitespace, folded, by code. */
const charPieces: (Folded | undefined)[] = [];

function foldedPiece(raw: string): Folded {
  let hit = cache.get(raw);
  if (hit !== undefined) return hit;
  const f = fold(raw).replace(FINAL_SIGMA, 'σ');
  const t = transliterate(raw)?.replace(FINAL_SIGMA, 'σ') ?? null;
  const own = t === f ? null : t;
  hit = { f, t: own };
  if (cache.size >= CACHE_LIMIT) cache.clear();
  cache.set(raw, hit);
  return hit;
}

/** `text` cut into its raw words and other characters, each folded (whitespace: SPACE), into `out`. */
function piecesInto(text: string, out: Folded[]): Folded[] {
  out.length = 0;
  const n = text.length;
  let i = 0;
  while (i < n) {
    let k = unitClass[text.charCodeAt(i)];
    if (k === 0) k = classify(text, i);
    if (k === 1) {
      let j = isPair(text, i) ? i + 2 : i + 1;
      for (;;) {
        if (j >= n) break;
        let kj = unitClass[text.charCodeAt(j)];
        if (kj === 0) kj = classify(text, j);
        if (kj !== 1) break;
        j += isPair(text, j) ? 2 : 1;
      }
      out.push(foldedPiece(text.slice(i, j)));
      i = j;
    } else if (k === 2) {
      out.push(SPACE);
      i++;
    } else if (isPair(text, i)) {
      out.push(foldedPiece(text.slice(i, i + 2)));
      i += 2;
    } else {
      const c = text.charCodeAt(i);
      out.push((charPieces[c] ??= foldedPiece(text[i])));
      i++;
    }
  }
  return out;
}

/** A text cut into its raw words and other characters, each folded; whitespace is one SPACE each. */
export function foldedPieces(text: string): Folded[] {
  return piecesInto(text, []);
}

/** Whether any piece has a transliterated form of its own. */
function hasSecondForm(pieces: readonly Folded[]): boolean {
  for (const p of pieces) if (p.t !== null) return true;
  return false;
}

/** One form of the pieces as a string, whitespace collapsed. */
function formOf(pieces: readonly Folded[], second: boolean): string {
  let s = '';
  for (const p of pieces) s += second && p.t !== null ? p.t : p.f;
  return s.replace(WHITESPACE_RUN, ' ').trim();
}

/**
 * The forms a text is searched in: folded, and (only when a word of it has umlauts)
 * transliterated. A term matches a text when one of the term's forms occurs in one of the text's.
 */
export function searchForms(text: string): string[] {
  // ASCII folds to its lower case, piece by piece, with no second form: the same form, made at once
  if (!NON_ASCII.test(text)) return [text.toLowerCase().replace(WHITESPACE_RUN, ' ').trim()];
  const pieces = foldedPieces(text);
  return hasSecondForm(pieces) ? [formOf(pieces, false), formOf(pieces, true)] : [formOf(pieces, false)];
}

export function isWordChar(ch: string): boolean {
  return WORD_CHAR.test(ch);
}

/** Words: maximal runs of letters and digits of a folded form. */
export const WORD_SPLIT = /[^\p{L}\p{N}]+/u;

/**
 * What a text is indexed by, in its forms: the words; the spans (maximal runs without whitespace
 * that hold a character other than a letter or digit: `e-mail`, `18:00`, `(vor`); the characters
 * but whitespace. A term without whitespace occurs in a form exactly when it occurs in one of its
 * words (a term of letters and digits) or spans (any other).
 */
export interface TermSink {
  word(w: string, id: number): void;
  span(s: string, id: number): void;
  char(c: string, id: number): void;
}

/**
 * The id textTerms gives with a term: a small integer, so that a sink can keep what it holds per
 * term in an array rather than look the string up at each row. An id names one term (its kind and
 * string) for the life of the process; a term may get a second id when the caches start over
 * (RUN_LIMIT). 0–127 are the ASCII characters, by code; the others are given in the order the
 * terms are first read.
 */
let nextTermId = 128;

/** The terms runTerms finds in a run, before they are kept (no ids yet). */
interface RunSink {
  word(w: string): void;
  span(s: string): void;
  char(c: string): void;
}

/** A folded piece's words and characters, found once per distinct piece (and kept with it). */
interface PieceTerms {
  /** its words (WORD_SPLIT), in order */
  words: string[];
  /** whether it starts and ends with a letter or digit (then its first and last word may join a neighbour's) */
  opens: boolean;
  closes: boolean;
  /** its characters but whitespace, each once */
  chars: string[];
  /** whether it is letters and digits only, and whether it holds whitespace */
  pure: boolean;
  spaced: boolean;
  /** the last pass that gave its characters, and its word as a whole (see textTerms) */
  charsIn: number;
  wordIn: number;
}

const OPENS = /^[\p{L}\p{N}]/u;
const HAS_SPACE = /[\s\x1c-\x1f\x85]/u;
const NOT_WORD = /[^\p{L}\p{N}]/u;
const CLOSES = /[\p{L}\p{N}]$/u;
const NON_ASCII = /[^\x00-\x7f]/;

function pieceTerms(form: string): PieceTerms {
  const chars = new Set<string>();
  for (const ch of form) if (!WHITESPACE.test(ch)) chars.add(ch);
  const words = form.split(WORD_SPLIT).filter((w) => w !== '');
  const pure = words.length === 1 && words[0].length === form.length;
  return { words, opens: OPENS.test(form), closes: CLOSES.test(form), chars: [...chars], pure, spaced: HAS_SPACE.test(form), charsIn: 0, wordIn: 0 };
}

let passes = 0;

/**
 * A new pass for textTerms: within one pass a piece's characters, and a word that is a piece on
 * its own, are given to the sink once, however often they occur (an event's words repeat).
 */
export function newPass(): number {
  return ++passes;
}

/**
 * Gives `sink` every word, span and character of one form of a run of pieces [from, to) (a run:
 * no whitespace between them; words and spans never reach across whitespace, so each run stands
 * alone). Within a pass, a piece's characters, and its word when it is a word on its own, are
 * given once.
 */
function runTerms(pieces: readonly Folded[], from: number, to: number, second: boolean, sink: RunSink, pass: number): void {
  if (to - from === 1) {
    // most runs: one piece
    const p = pieces[from];
    const t = pieceTermsOf(p, second);
    if (t === null) return;
    if (t.charsIn !== pass) {
      t.charsIn = pass;
      for (let k = 0; k < t.chars.length; k++) sink.char(t.chars[k]);
    }
    if (t.pure) {
      if (t.wordIn !== pass) {
        t.wordIn = pass;
        sink.word(t.words[0]);
      }
      return;
    }
  }
  // the word still open at the end of the pieces so far (the next piece may continue it), and the
  // piece it is, when it is one piece's only word
  let open = '';
  let whole: PieceTerms | null = null;
  let mixed = false;
  let spaced = false;
  for (let i = from; i < to; i++) {
    const p = pieces[i];
    const t = pieceTermsOf(p, second);
    // (marks alone fold to nothing: they split nothing)
    if (t === null) continue;
    if (!t.pure) {
      mixed = true;
      if (t.spaced) spaced = true;
    }
    if (t.charsIn !== pass) {
      t.charsIn = pass;
      for (let k = 0; k < t.chars.length; k++) sink.char(t.chars[k]);
    }
    const words = t.words;
    const joins = t.opens && open !== '' && words.length > 0;
    if (!joins && open !== '') {
      // the open word ends here
      if (whole === null) sink.word(open);
      else if (whole.wordIn !== pass) {
        whole.wordIn = pass;
        sink.word(open);
      }
      open = '';
      whole = null;
    }
    if (words.length === 0) continue;
    const first = joins ? open + words[0] : words[0];
    const alone = !joins && t.pure;
    open = '';
    whole = null;
    if (words.length === 1) {
      if (t.closes) {
        open = first;
        whole = alone ? t : null;
      } else sink.word(first);
      continue;
    }
    sink.word(first);
    for (let k = 1; k < words.length - 1; k++) sink.word(words[k]);
    if (t.closes) open = words[words.length - 1];
    else sink.word(words[words.length - 1]);
  }
  if (open !== '' && (whole === null || whole.wordIn !== pass)) {
    if (whole !== null) whole.wordIn = pass;
    sink.word(open);
  }
  if (!mixed) return;
  let run = '';
  for (let i = from; i < to; i++) run += second && pieces[i].t !== null ? pieces[i].t! : pieces[i].f;
  if (!spaced) sink.span(run);
  // (a piece folded to text with whitespace in it splits the run)
  else for (const part of run.split(WHITESPACE_RUN)) if (NOT_WORD.test(part)) sink.span(part);
}

/** The pieces of a run being read (runEntry is not re-entered: its sink only collects). */
const scratch: Folded[] = [];

/** A word, span or character, given to a sink once per pass however many runs of a text hold it. */
interface Term {
  s: string;
  in: number;
  id: number;
}

/** A run's terms (of every form), each once, and the last pass that gave them. */
interface RunEntry {
  words: Term[];
  spans: Term[];
  /** its characters outside ASCII; those in ASCII as bits (code c: bit c & 31 of ascii[c >> 5]) */
  chars: Term[];
  ascii: Int32Array;
  in: number;
}

/**
 * Runs (maximal texts without whitespace) read already, and the terms they hold (one object per
 * string), in a hash table of their code units: a run is looked up where it lies in the text,
 * without being cut out of it as a string of its own.
 */
const runs: RunEntry[] = [];
const runText: string[] = [];
const TABLE_BITS = 18;
const TABLE_MASK = (1 << TABLE_BITS) - 1;
/** 1 + the run at each slot (open addressing, linear probing), 0 for none; made by the first textTerms (the query side never needs it) */
let table = new Int32Array(0);
const termsOf = { words: new Map<string, Term>(), spans: new Map<string, Term>(), chars: new Map<string, Term>() };
/** Distinct runs (and terms of a kind) kept, at most half the table; beyond, the caches start over (a term then may be given twice in a pass: harmless). */
const RUN_LIMIT = 1 << (TABLE_BITS - 1);

const collected = { words: new Set<string>(), spans: new Set<string>(), chars: new Set<string>() };
const collector: RunSink = {
  word: (w) => collected.words.add(w),
  span: (s) => collected.spans.add(s),
  char: (c) => collected.chars.add(c),
};

function interned(kind: 'words' | 'spans' | 'chars', ascii?: Int32Array): Term[] {
  const map = termsOf[kind];
  const out: Term[] = [];
  for (const s of collected[kind]) {
    if (ascii && s.length === 1 && s.charCodeAt(0) < 128) {
      ascii[s.charCodeAt(0) >> 5] |= 1 << (s.charCodeAt(0) & 31);
      continue;
    }
    let term = map.get(s);
    if (term === undefined) map.set(s, (term = { s, in: 0, id: nextTermId++ }));
    out.push(term);
  }
  collected[kind].clear();
  return out;
}

/** The longest run kept (a longer one, rare, is read each time). */
const RUN_KEPT = 64;

/** `s` as a string of its own, not a view of the text it was cut from (which a kept view would keep). */
const own = (s: string) => (s.length < 13 ? s : (s + ' ').slice(0, -1));

/** The terms of a run (no whitespace in it), read from its pieces in each form, kept at the free `slot` (-1: not kept). */
function runEntry(run: string, slot: number): RunEntry {
  const pieces = piecesInto(run, scratch);
  const pass = ++passes;
  runTerms(pieces, 0, pieces.length, false, collector, pass);
  if (hasSecondForm(pieces)) runTerms(pieces, 0, pieces.length, true, collector, pass);
  const ascii = new Int32Array(4);
  const entry = { words: interned('words'), spans: interned('spans'), chars: interned('chars', ascii), ascii, in: 0 };
  if (slot < 0) return entry;
  if (runs.length >= RUN_LIMIT || termsOf.words.size >= RUN_LIMIT || termsOf.spans.size >= RUN_LIMIT) {
    // (the entry is given, not kept)
    runs.length = 0;
    runText.length = 0;
    table.fill(0);
    termsOf.words.clear();
    termsOf.spans.clear();
    termsOf.chars.clear();
    return entry;
  }
  runs.push(entry);
  runText.push(run);
  table[slot] = runs.length;
  return entry;
}

/**
 * Gives `sink` the words, spans and characters of every form of `text`, each once within one
 * pass (newPass). Words and spans never reach across whitespace, so each run between whitespace
 * stands alone: a run is read (cut into pieces, folded, its terms found) once per process, and
 * its terms kept; a text's runs repeat, across events too.
 */
export function textTerms(text: string, sink: TermSink, pass: number): void {
  if (table.length === 0) table = new Int32Array(1 << TABLE_BITS);
  const n = text.length;
  let i = 0;
  while (i < n) {
    let c = text.charCodeAt(i);
    let k = unitClass[c];
    if (k === 0) k = classify(text, i);
    if (k === 2) {
      i++;
      continue;
    }
    // FNV-1a over the run's code units
    let h = Math.imul(0x811c9dc5 ^ c, 0x01000193);
    let j = i + 1;
    while (j < n) {
      c = text.charCodeAt(j);
      let kj = unitClass[c];
      if (kj === 0) kj = classify(text, j);
      if (kj === 2) break;
      h = Math.imul(h ^ c, 0x01000193);
      j++;
    }
    let slot = (h ^ (h >>> TABLE_BITS)) & TABLE_MASK;
    let entry: RunEntry | undefined;
    for (;;) {
      const at = table[slot];
      if (at === 0) {
        entry = runEntry(own(text.slice(i, j)), j - i <= RUN_KEPT ? slot : -1);
        break;
      }
      const run = runText[at - 1];
      if (run.length === j - i && text.startsWith(run, i)) {
        entry = runs[at - 1];
        break;
      }
      slot = (slot + 1) & TABLE_MASK;
    }
    i = j;
    if (entry.in === pass) continue;
    entry.in = pass;
    for (const term of entry.words) if (term.in !== pass) sink.word(given(term, pass), term.id);
    for (const term of entry.spans) if (term.in !== pass) sink.span(given(term, pass), term.id);
    for (const term of entry.chars) if (term.in !== pass) sink.char(given(term, pass), term.id);
    if (asciiIn !== pass) {
      asciiIn = pass;
      asciiSeen.fill(0);
    }
    for (let w = 0; w < 4; w++) {
      let fresh = entry.ascii[w] & ~asciiSeen[w];
      if (fresh === 0) continue;
      asciiSeen[w] |= fresh;
      while (fresh !== 0) {
        const low = fresh & -fresh;
        const code = (w << 5) | (31 - Math.clz32(low));
        sink.char(ASCII[code], code);
        fresh ^= low;
      }
    }
  }
}

/** The ASCII characters given in pass `asciiIn`, as bits. */
const asciiSeen = new Int32Array(4);
let asciiIn = 0;
const ASCII = Array.from({ length: 128 }, (_, c) => String.fromCharCode(c));

function given(term: Term, pass: number): string {
  term.in = pass;
  return term.s;
}

// Elements whose start and end break the text, as a browser lays them out: a word never runs on
// across them ("<p>Herz</p><p>Kurs</p>" is "Herz Kurs"; "<em>Herz</em>kurs" is "Herzkurs").
const BLOCK = new Set([
  'address', 'article', 'aside', 'blockquote', 'br', 'caption', 'dd', 'details', 'dialog', 'div', 'dl', 'dt', 'fieldset',
  'figcaption', 'figure', 'footer', 'form', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'header', 'hgroup', 'hr', 'iframe', 'img',
  'li', 'main', 'nav', 'ol', 'option', 'p', 'pre', 'section', 'summary', 'table', 'tbody', 'td', 'tfoot', 'th', 'thead',
  'tr', 'ul', 'video', 'audio', 'picture', 'source', 'input', 'select', 'textarea', 'button', 'label',
]);
// A comment, a script or style element with its content, a tag (quoted attribute values may hold
// `>`), or another markup declaration (`<!doctype …>`, `<?…>`). No part runs past the next `<`
// unless it must (a comment, a script's content): a match tried at every `<` of a body full of
// unclosed tags then reads each character once, not once per `<` before it.
const MARKUP = /<!--[\s\S]*?(?:-->|$)|<(script|style)(?=[\t\n\f\r />])(?:[^<>"']|"[^"<]*"|'[^'<]*')*>[\s\S]*?(?:<\/\1\s*>|$)|<\/?([A-Za-z][^\s/<>]*)(?:[^<>"']|"[^"<]*"|'[^'<]*')*>|<[!?][^<>]*>/gi;

/** The text of an HTML fragment as a reader sees it (see above), whitespace not yet collapsed. */
export function htmlText(html: string): string {
  if (!html.includes('<') && !html.includes('&')) return html;
  const text = html.replace(MARKUP, (_, script: string | undefined, tag: string | undefined) =>
    script !== undefined || (tag !== undefined && BLOCK.has(tag.toLowerCase())) ? ' ' : '');
  return text.includes('&') ? decodeHTML(text) : text;
}

/** A field's stored value as the text `search` looks in (null: the field is null). */
export function fieldText(field: SearchField, value: string | null): string | null {
  if (value === null) return null;
  return field === 'body' ? htmlText(value) : value;
}
