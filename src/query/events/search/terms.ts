// `search`'s value as DRF's SearchFilter reads it (rest_framework 3.15, search_smart_split over
// Django's smart_split): terms split on whitespace and commas; a term in double or single quotes
// is a phrase, kept whole (`"herz kurs"`), a backslash escaping its quote; commas around a term
// are dropped. A value with a NUL character is refused, as DRF's CharField refuses it.
import { WorkTally } from '../../work-tally.ts';

const WHITESPACE = /[\s\x1c-\x1f\x85]/u;
const QUOTES = '"\'';
const ASCII_SPACE = new Uint8Array(128).map((_, c) => (WHITESPACE.test(String.fromCharCode(c)) ? 1 : 0));
const isSpace = (c: string) => {
  const code = c.charCodeAt(0);
  return code < 128 ? ASCII_SPACE[code] === 1 : WHITESPACE.test(c);
};

export type ParsedSearch = { ok: true; terms: string[] } | { ok: false; error: string };

/** What Django's CharField answers a value holding a NUL (its ProhibitNullCharactersValidator). */
export const NULL_CHARACTERS = 'Null characters are not allowed.';

/** Characters of a value read by the split: what parsing a value costs. */
const UNITS_PER_CHAR = 2;

export function parseSearch(value: string, what = 'search'): ParsedSearch {
  if (value.includes('\0')) return { ok: false, error: NULL_CHARACTERS };
  const work = new WorkTally(what);
  work.add(value.length * UNITS_PER_CHAR);
  work.settle();
  const terms: string[] = [];
  for (const bit of smartSplit(value)) {
    const term = stripCommas(bit);
    if (term.length > 0 && QUOTES.includes(term[0]) && term[term.length - 1] === term[0]) {
      terms.push(unescapeLiteral(term));
      continue;
    }
    for (const sub of term.split(',')) if (sub !== '') terms.push(pythonStrip(sub));
  }
  return { ok: true, terms };
}

/**
 * Django's smart_split: runs of non-whitespace, where a quoted section (which may hold whitespace
 * and backslash escapes) is part of the run. A quote that never closes is an ordinary character.
 */
function* smartSplit(text: string): Generator<string> {
  const n = text.length;
  // A quote that failed to close from a position fails from every later one up to where that scan
  // stopped (a later start is a quote the scan read as escaped: from there the scans meet).
  const failed: Record<string, [number, number]> = { '"': [0, 0], "'": [0, 0] };
  /** where the quoted section opening at `at` ends (after its closing quote), or -1 */
  const closing = (at: number): number => {
    const q = text[at];
    const [from, to] = failed[q];
    if (at >= from && at < to) return -1;
    let i = at + 1;
    for (; i < n; i++) {
      const c = text[i];
      if (c === q) return i + 1;
      if (c !== '\\') continue;
      // (Python's `\\.`: a backslash escapes anything but a line feed)
      if (i + 1 >= n || text[i + 1] === '\n') break;
      i++;
    }
    failed[q] = [at, i];
    return -1;
  };
  const plain = (c: string) => c !== '"' && c !== "'" && !isSpace(c);
  let i = 0;
  while (i < n) {
    if (isSpace(text[i])) {
      i++;
      continue;
    }
    // [^\s'"]* ("…" | '…') [^\s'"]* …, at least one quoted section; else \S+
    let j = i;
    while (j < n && plain(text[j])) j++;
    let end = -1;
    while (j < n && QUOTES.includes(text[j])) {
      const close = closing(j);
      if (close < 0) break;
      j = close;
      while (j < n && plain(text[j])) j++;
      end = j;
    }
    if (end < 0) {
      end = i;
      while (end < n && !isSpace(text[end])) end++;
    }
    yield text.slice(i, end);
    i = end;
  }
}

function stripCommas(s: string): string {
  let a = 0;
  let b = s.length;
  while (a < b && s[a] === ',') a++;
  while (b > a && s[b - 1] === ',') b--;
  return s.slice(a, b);
}

function pythonStrip(s: string): string {
  let a = 0;
  let b = s.length;
  while (a < b && isSpace(s[a])) a++;
  while (b > a && isSpace(s[b - 1])) b--;
  return s.slice(a, b);
}

/** Django's unescape_string_literal: the quotes dropped, `\"` (or `\'`) and `\\` unescaped. */
function unescapeLiteral(s: string): string {
  const q = s[0];
  return s.slice(1, -1).replaceAll(`\\${q}`, q).replaceAll('\\\\', '\\');
}
