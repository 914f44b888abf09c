// The plain-text teaser derived from an event body when none is written.
import { decodeHTML } from 'entities/decode';
import { collapseWhitespace } from './whitespace.ts';

/** Start and end tags, comments, doctypes and processing instructions; not a lone `<`. */
const MARKUP = /<\/?[A-Za-z][^>]*>|<!--[\s\S]*?-->|<![^>]*>|<\?[^>]*>/g;
const MAX = 300;

export function deriveTeaser(html: string): string {
  const stripped = html.replace(MARKUP, '');
  const text = collapseWhitespace(stripped.includes('&') ? decodeHTML(stripped) : stripped);
  // Longer than MAX code points: cut after MAX - 1, back to a word end unless one is there.
  if (afterCodePoints(text, MAX) >= text.length) return text;
  const end = afterCodePoints(text, MAX - 1);
  let head = text.slice(0, end);
  if (text[end] !== ' ') {
    const space = head.lastIndexOf(' ');
    if (space >= 0) head = head.slice(0, space);
  }
  return `${head.trim()}…`;
}

/** The UTF-16 offset after the first `n` code points (text.length if it has fewer). */
function afterCodePoints(text: string, n: number): number {
  // A surrogate pair is one code point in two units.
  let i = 0;
  for (let k = 0; k < n && i < text.length; k++) {
    const c = text.charCodeAt(i);
    i += c >= 0xd800 && c <= 0xdbff && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00 ? 2 : 1;
  }
  return i;
}
