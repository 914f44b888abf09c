// A fast renderer for the plain subset of Markdown that event bodies are mostly written in:
// paragraphs, ATX headings, tight `-` and `1.` lists, HTML blocks of the common block tags, and
// inline text with backslash escapes, `*em*`, `**strong**` and `[text](url)` links. markdown-it
// needs ~16 µs for a typical body (~1.6 s of a thread at 100,000 events, its token objects
// garbage after); this needs a few. It returns exactly what markdown-it's CommonMark preset
// renders (after markdown.ts trims it), or, for anything outside the subset or anything doubtful,
// `undefined`, and the caller renders with markdown-it. So it may be incomplete, never different;
// markdown-subset.test.ts checks that property against markdown-it on generated documents.
//
// `link` turns a link destination into its href, or null when markdown-it would refuse it:
// markdown-it's own normalizeLink and validateLink (markdown.ts), so URLs are encoded by the
// same code either way.


export type LinkHref = (destination: string) => string | null;

/** Thrown (as a bare object, no stack) to abandon the fast path. */
const BAIL = { bail: true };

/**
 * Block tags whose HTML block (CommonMark's kind 6) ends at a blank line: a few common ones, all
 * in CommonMark's list and markdown-it's (html_blocks.mjs); others go to markdown-it. Sticky: it
 * is tried at a line's start.
 */
const HTML_BLOCK_START = /<\/?(?:div|p|section|article|aside|table|figure|details|blockquote|ul|ol|h[1-6])(?:[ >\n]|\/>|$)/y;

/**
 * A line starting with one of these may start or interrupt a block (an indented line, a heading,
 * a list, a thematic break, a quote, a fence, HTML, a setext underline): not a plain line. (`[`
 * may start a link reference definition; inline() declines the `]:` that would make it one.)
 */
const BLOCK_START_CHAR = new Uint8Array(128);
for (const ch of ' #-+*>`~<=_|') BLOCK_START_CHAR[ch.charCodeAt(0)] = 1;

/**
 * ASCII that inline() writes out as it is (by char code): every printable character but `"`, `&`,
 * `*`, `<`, `>`, `[`, `\`, `]`, `_` and the backtick, which it escapes, reads or declines. (A
 * space, the commonest, is then one look-up.)
 */
const TEXT_CHAR = new Uint8Array(128);
for (let c = 32; c < 127; c++) TEXT_CHAR[c] = 1;
for (const ch of '"&*<>[\\]_`') TEXT_CHAR[ch.charCodeAt(0)] = 0;

export function renderMarkdownSubset(source: string, link: LinkHref): string | undefined {
  try {
    return render(source, link);
  } catch (e) {
    if (e === BAIL) return undefined;
    throw e;
  }
}

const UL = 1;
const OL = 2;

/**
 * Works on line offsets into the source (no per-line strings). Every character of the source is
 * looked at by inline() or, in an HTML block, by plainHtml(); control characters (tabs and CR
 * included: markdown-it expands and normalizes them, and NUL it replaces) bail there.
 */
function render(src: string, link: LinkHref): string {
  const at: number[] = [];
  const end: number[] = [];
  for (let a = 0; ; ) {
    let nl = src.indexOf('\n', a);
    if (nl < 0) nl = src.length;
    at.push(a);
    end.push(nl);
    if (nl === src.length) break;
    a = nl + 1;
  }
  const n = at.length;
  let out = '';
  // the list a block ended with: a list of the same kind in the next block would be the same,
  // loose list (markdown-it joins them across the blank line), which this does not render
  let lastList = 0;
  let i = 0;
  while (i < n) {
    if (at[i] === end[i]) {
      i++;
      continue;
    }
    // a block: lines up to the next empty one
    let last = i;
    while (last < n && at[last] !== end[last]) last++;
    const first = i;
    let blockList = 0;
    while (i < last) {
      const a = at[i];
      const e = end[i];
      const c = src.charCodeAt(a);
      // an indented line (code, a continuation), or a space ending one (a line break's, or trimmed)
      if (c === 32 || src.charCodeAt(e - 1) === 32) throw BAIL;
      if (c === 35 /* # */) {
        let h = a;
        while (h < e && src.charCodeAt(h) === 35) h++;
        const level = h - a;
        // more than six, no space, an empty heading or a closing `#` sequence: left to markdown-it
        if (level > 6 || src.charCodeAt(h) !== 32 || h + 1 >= e || src.charCodeAt(e - 1) === 35) throw BAIL;
        out += `<h${level}>${inline(src, h + 1, e, link, false)}</h${level}>\n`;
        blockList = 0;
        i++;
        continue;
      }
      const kind = c === 45 /* - */ && src.charCodeAt(a + 1) === 32 ? UL : c >= 48 && c <= 57 && orderedText(src, a, e) >= 0 ? OL : 0;
      if (kind !== 0) {
        if (i === first && lastList === kind) throw BAIL;
        // `start="N"`: left to markdown-it
        if (kind === OL && !(c === 49 /* 1 */ && src.charCodeAt(a + 1) === 46 /* . */)) throw BAIL;
        out += kind === UL ? '<ul>\n' : '<ol>\n';
        // every line to the block's end must be an item of the same list (a plain line would be
        // a lazy continuation of the last item)
        for (; i < last; i++) {
          const ia = at[i];
          const ie = end[i];
          if (src.charCodeAt(ie - 1) === 32) throw BAIL;
          let text: number;
          if (kind === OL) text = orderedText(src, ia, ie);
          else text = src.charCodeAt(ia) === 45 && src.charCodeAt(ia + 1) === 32 ? ia + 2 : -1;
          if (text < 0 || !plainStart(src, text, ie)) throw BAIL;
          out += `<li>${inline(src, text, ie, link, false)}</li>\n`;
        }
        out += kind === UL ? '</ul>\n' : '</ol>\n';
        blockList = kind;
        continue;
      }
      HTML_BLOCK_START.lastIndex = a;
      if (c === 60 /* < */ && HTML_BLOCK_START.test(src)) {
        // kind 6: everything to the blank line, as it is
        for (let j = i; j < last; j++) plainHtml(src, at[j], end[j]);
        out += src.slice(a, end[last - 1]) + '\n';
        blockList = 0;
        i = last;
        continue;
      }
      // a paragraph: every line plain (no line of it may start or interrupt another block)
      for (let j = i; j < last; j++) {
        if (!plainStart(src, at[j], end[j]) || src.charCodeAt(end[j] - 1) === 32) throw BAIL;
      }
      out += `<p>${inline(src, a, end[last - 1], link, true)}</p>\n`;
      blockList = 0;
      i = last;
    }
    lastList = blockList;
  }
  return out.trim();
}

/** Where an ordered item's text starts (after `N. `), or -1. */
function orderedText(src: string, a: number, e: number): number {
  let d = a;
  while (d < e && d - a < 10 && isDigit(src.charCodeAt(d))) d++;
  const digits = d - a;
  return digits >= 1 && digits <= 9 && src.charCodeAt(d) === 46 /* . */ && src.charCodeAt(d + 1) === 32 ? d + 2 : -1;
}

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

/** An HTML block's line, copied as it is: only its control characters bail. */
function plainHtml(src: string, a: number, e: number): void {
  if (src.charCodeAt(e - 1) === 32) throw BAIL;
  for (let k = a; k < e; k++) {
    const c = src.charCodeAt(k);
    if (c < 32 || c === 127) throw BAIL;
  }
}

/** Whether a line (or an item's text) at [a, e) starts as plain paragraph text. */
function plainStart(src: string, a: number, e: number): boolean {
  if (a >= e) return false;
  const c = src.charCodeAt(a);
  // `**Bold** text`: a star before a word character starts neither a list (`* `) nor a
  // thematic break (stars and spaces alone); inline() judges the emphasis
  if (c === 42 /* * */) {
    let run = a + 1;
    while (src.charCodeAt(run) === 42) run++;
    return run < e && isWordChar(src.charCodeAt(run));
  }
  if (c < 128 && BLOCK_START_CHAR[c] === 1) return false;
  if (!isDigit(c)) return true;
  // `1.`/`1)` with a space or the line end after it may start a list
  let d = a;
  while (d < e && isDigit(src.charCodeAt(d))) d++;
  const mark = src.charCodeAt(d);
  if (d - a > 9 || !(mark === 46 || mark === 41)) return true;
  return !(d + 1 === e || src.charCodeAt(d + 1) === 32);
}

/** What String.prototype.trim removes (the control characters among them bail anyway). */
function isTrimmed(c: number): boolean {
  return (
    c === 32 || c === 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) || c === 0x2028 || c === 0x2029 ||
    c === 0x202f || c === 0x205f || c === 0x3000 || c === 0xfeff
  );
}

function isAsciiPunct(c: number): boolean {
  return (c >= 33 && c <= 47) || (c >= 58 && c <= 64) || (c >= 91 && c <= 96) || (c >= 123 && c <= 126);
}

/**
 * A letter or digit that is neither white space nor punctuation to CommonMark: ASCII letters and
 * digits and the Latin-1 and Latin Extended-A letters. Emphasis is taken only next to these.
 */
function isWordChar(c: number): boolean {
  return (
    (c >= 48 && c <= 57) ||
    (c >= 65 && c <= 90) ||
    (c >= 97 && c <= 122) ||
    (c >= 0xc0 && c <= 0x17f && c !== 0xd7 && c !== 0xf7)
  );
}

/**
 * Link destinations: no spaces, parentheses, `<`, `>`, `\`, quotes or `*` (non-ASCII is fine:
 * markdown-it's normalizeLink encodes it, for both renderers).
 */
function isDestinationChar(c: number): boolean {
  return (
    c >= 0x80 ||
    (c >= 48 && c <= 57) ||
    (c >= 65 && c <= 90) ||
    (c >= 97 && c <= 122) ||
    c === 45 || c === 46 || c === 95 || c === 126 || // - . _ ~
    c === 58 || c === 47 || c === 63 || c === 35 || c === 64 || // : / ? # @
    c === 36 || c === 43 || c === 44 || c === 59 || c === 61 || c === 37 || c === 33 || c === 38 // $ + , ; = % ! &
  );
}

/** A link label's characters: none that could make it more than text, no controls. */
function isLabelChar(c: number): boolean {
  return c >= 32 && c !== 127 && c !== 92 && c !== 96 && c !== 42 && c !== 95 && c !== 91 && c !== 93 && c !== 60 && c !== 62 && c !== 38 && c !== 33;
}

/** What may follow a closing emphasis run after a word character, or precede one before white space. */
function isCloseFollow(c: number): boolean {
  // . , ; : ! ? ) ' "
  return c === 46 || c === 44 || c === 59 || c === 58 || c === 33 || c === 63 || c === 41 || c === 39 || c === 34;
}

/** `&`, `>` and `"` as markdown-it's escapeHtml writes them (`<` never gets that far), for the one character the text loop is at. */
function entityOf(c: number): string {
  return c === 38 ? '&amp;' : c === 62 ? '&gt;' : '&quot;';
}

/**
 * markdown-it's escapeHtml (`&`, `<`, `>` and `"` as entities), here rather than imported: its
 * module loads mdurl, uc.micro and entities, which a build whose bodies this renders never needs.
 */
function escapeHtml(text: string): string {
  return /[&<>"]/.test(text) ? text.replace(/[&<>"]/g, (c) => (c === '<' ? '&lt;' : entityOf(c.charCodeAt(0)))) : text;
}

/**
 * The HTML of inline content at [a, b): text, backslash escapes, `&` that starts no entity,
 * emphasis and links of the simplest forms, and (in a paragraph) line breaks. Anything else bails.
 */
function inline(src: string, a: number, b: number, link: LinkHref, multiline: boolean): string {
  // markdown-it trims a paragraph's, a heading's or an item's text with String.prototype.trim
  if (isTrimmed(src.charCodeAt(a)) || isTrimmed(src.charCodeAt(b - 1))) throw BAIL;
  let out = '';
  // the text not yet written out starts at `from`
  let from = a;
  // the open emphasis run's length (0: none)
  let open = 0;
  for (let i = a; i < b; ) {
    const c = src.charCodeAt(i);
    if (c >= 0x80 || TEXT_CHAR[c] === 1) {
      i++;
      continue;
    }
    if (c === 92 /* \ */) {
      const next = i + 1 < b ? src.charCodeAt(i + 1) : 10;
      if (!isAsciiPunct(next)) throw BAIL; // a hard break, or a literal backslash
      if (i > from) out += src.slice(from, i);
      out += next === 38 || next === 62 || next === 34 ? entityOf(next) : next === 60 ? '&lt;' : src[i + 1];
      i += 2;
      from = i;
      continue;
    }
    if (c === 38 /* & */ || c === 62 /* > */ || c === 34 /* " */) {
      if (c === 38) {
        const next = src.charCodeAt(i + 1);
        // `&#…;` and `&name;` may be entities: left to markdown-it
        if (i + 1 < b && (next === 35 || (next >= 65 && next <= 90) || (next >= 97 && next <= 122))) throw BAIL;
      }
      if (i > from) out += src.slice(from, i);
      out += entityOf(c);
      i++;
      from = i;
      continue;
    }
    if (c === 10 /* \n */) {
      if (!multiline || open !== 0) throw BAIL;
      i++;
      continue;
    }
    if (c === 42 /* * */) {
      let run = i;
      while (run < b && src.charCodeAt(run) === 42) run++;
      const length = run - i;
      if (length > 2) throw BAIL;
      const before = i === a ? 32 : src.charCodeAt(i - 1);
      const after = run === b ? 32 : src.charCodeAt(run);
      if (open === 0) {
        // opens only: after white space, before a word character
        if (!(before === 32 || before === 10) || !isWordChar(after)) throw BAIL;
        if (i > from) out += src.slice(from, i);
        out += length === 2 ? '<strong>' : '<em>';
        open = length;
      } else {
        if (length !== open) throw BAIL;
        // closes only: after a word character (then before white space or . , ; : ! ? ) ' "),
        // or after one of those (then before white space); never after an escaped character,
        // which markdown-it judges by its raw source
        const afterSpace = after === 32 || after === 10;
        if (i - 2 >= a && src.charCodeAt(i - 2) === 92) throw BAIL;
        if (isWordChar(before)) {
          if (!(afterSpace || isCloseFollow(after))) throw BAIL;
        } else if (!(isCloseFollow(before) && afterSpace)) {
          throw BAIL;
        }
        if (i > from) out += src.slice(from, i);
        out += length === 2 ? '</strong>' : '</em>';
        open = 0;
      }
      i = run;
      from = i;
      continue;
    }
    if (c === 91 /* [ */) {
      if (open !== 0) throw BAIL;
      if (i > a && src.charCodeAt(i - 1) === 33 /* ! */) throw BAIL; // an image
      // [label](destination): the label plain text, the destination without spaces
      let close = i + 1;
      while (close < b && isLabelChar(src.charCodeAt(close))) close++;
      if (close === i + 1 || close >= b || src.charCodeAt(close) !== 93 || src.charCodeAt(close + 1) !== 40 /* ( */) throw BAIL;
      let d = close + 2;
      let amp = false;
      let semicolon = false;
      for (; d < b; d++) {
        const dc = src.charCodeAt(d);
        if (!isDestinationChar(dc)) break;
        if (dc === 38) amp = true;
        else if (dc === 59) semicolon = true;
      }
      // empty, followed by more than `)`, or `&…;` (an entity markdown-it would decode)
      if (d === close + 2 || d >= b || src.charCodeAt(d) !== 41 /* ) */ || (amp && semicolon)) throw BAIL;
      const href = link(src.slice(close + 2, d));
      if (href === null) throw BAIL;
      if (i > from) out += src.slice(from, i);
      out += `<a href="${escapeHtml(href)}">${escapeHtml(src.slice(i + 1, close))}</a>`;
      i = d + 1;
      from = i;
      continue;
    }
    // ` _ < ] and the control characters; the others below `*` are text
    if (c === 96 || c === 95 || c === 60 || c === 93 || c < 32 || c === 127) throw BAIL;
    i++;
  }
  if (open !== 0) throw BAIL;
  if (b > from) out += src.slice(from, b);
  return out;
}
