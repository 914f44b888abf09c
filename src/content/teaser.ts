// The plain-text teaser derived from an event body when none is written.
import { decodeHTML } from 'entities/decode';
import { collapseWhitespace } from './whitespace.ts';

const MAX = 300;

export function deriveTeaser(html: string): string {
  const stripped = withoutMarkup(html);
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

const isLetter = (c: number) => (c | 0x20) >= 0x61 && (c | 0x20) <= 0x7a;
/** What ends a tag's name (HTML): white space, `/` or `>`. */
const endsName = (c: number) => c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0c || c === 0x0d || c === 0x2f || c === 0x3e;

/**
 * The elements whose content is no text a reader sees (as search reads a body: search-text.ts);
 * each with the pattern of its end tag, looked for from where its start tag ends.
 */
const RAW_TEXT: readonly [string, RegExp][] = [
  ['script', /<\/script\s*>/gi],
  ['style', /<\/style\s*>/gi],
];

/** The index after the end tag of the script or style element whose start tag at `i` ends before `after`; -1 when it is neither (the end of `html` when unclosed). */
function rawTextEnd(html: string, i: number, after: number): number {
  for (const [name, close] of RAW_TEXT) {
    // (the first letter first: most start tags are neither, and go without a slice)
    if ((html.charCodeAt(i + 1) | 0x20) !== name.charCodeAt(0) || html.slice(i + 1, i + 1 + name.length).toLowerCase() !== name || !endsName(html.charCodeAt(i + 1 + name.length))) continue;
    close.lastIndex = after;
    return close.exec(html) ? close.lastIndex : html.length;
  }
  return -1;
}

/**
 * `html` without its start and end tags (`<` letter or `</` letter, to the next `>`), comments
 * (`<!--` to the next `-->`), doctypes (`<!` to the next `>`) and processing instructions (`<?`
 * to the next `>`); a script or style element goes with its content (to its end tag, or the end
 * of `html`); a `<` that starts none of them, or has no end after it, stays. (What the
 * pattern /<\/?[A-Za-z][^>]*>|<!--[\s\S]*?-->|<![^>]*>|<\?[^>]*>/g removes, in one pass: that
 * pattern looks for the end again from every unclosed `<`, a body full of them costs minutes.)
 * Each end is looked for once: the next `>` (or `-->`) found from one place is the next from
 * every later place before it, and none found means none after.
 */
export function withoutMarkup(html: string): string {
  let gt = -2; // the next '>' from the last place asked, -1 for none, -2 before the first
  const nextGt = (at: number) => (gt === -1 || gt >= at ? gt : (gt = html.indexOf('>', at)));
  let dashes = -2;
  const nextDashes = (at: number) => (dashes === -1 || dashes >= at ? dashes : (dashes = html.indexOf('-->', at)));
  let out = '';
  let kept = 0;
  for (let i = html.indexOf('<'); i >= 0; i = html.indexOf('<', i + 1)) {
    const c = html.charCodeAt(i + 1);
    let end = -1; // the index after the markup at i
    if (isLetter(c) || (c === 0x2f && isLetter(html.charCodeAt(i + 2)))) {
      const gtAt = nextGt(i + (c === 0x2f ? 3 : 2));
      if (gtAt >= 0) end = gtAt + 1;
      // (each element's end is looked for once, from its own start tag on: the pass stays linear)
      const raw = end > 0 && c !== 0x2f ? rawTextEnd(html, i, end) : -1;
      if (raw >= 0) end = raw;
    } else if (c === 0x21) {
      const close = html.startsWith('<!--', i) ? nextDashes(i + 4) : -1;
      if (close >= 0) end = close + 3;
      else {
        const gtAt = nextGt(i + 2);
        if (gtAt >= 0) end = gtAt + 1;
      }
    } else if (c === 0x3f) {
      const gtAt = nextGt(i + 2);
      if (gtAt >= 0) end = gtAt + 1;
    }
    if (end < 0) continue;
    out += html.slice(kept, i);
    kept = end;
    i = end - 1;
  }
  return kept === 0 ? html : out + html.slice(kept);
}
