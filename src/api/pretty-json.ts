// The JSON of an answer as the browsable page shows it: indented by four spaces as
// `JSON.stringify(JSON.parse(text), null, 4)` writes it, HTML-escaped, with every string that is an
// absolute http(s) URL made a link. Indented token by token rather than parsed into objects and
// printed again, so that a page can show the first part of a large answer: escaping and linking
// cost tens of nanoseconds a character, and a whole 1,000-event page would cost more than a
// request may (query/work-budget.ts).
//
// The answers are JSON that JSON.stringify wrote, so their tokens are already as it writes them
// and are copied as they are; a token that might not be (a string with an escape, a number in
// another notation) goes through JSON.parse and JSON.stringify alone. An object with a key that
// JSON.parse would move to the front (an array index such as "2025") and text that is not JSON
// take the slow path, which is exact by definition.
import { charge } from '../query/work-budget.ts';

/** Work units per character of JSON printed (a unit is about a nanosecond: see query/work-budget.ts). */
const UNITS_PER_CHARACTER = 30;
/** Units per character the slow pass parses and prints beyond what it shows (JSON.parse and JSON.stringify of the whole). */
const UNITS_PER_PARSED_CHARACTER = 10;

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

// Not entities' escapeUTF8: it writes &apos; where these pages have always had &#39;.
/**
 * `text` escaped for HTML; a control character (none but tab, line feed and carriage return may
 * stand in an HTML page) is shown as JSON writes it, `\u0000`.
 */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"'\x00-\x08\x0b\x0c\x0e-\x1f\x7f]/g, (c) => ESCAPES[c] ?? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** A quoted http(s) URL in escaped text; it cannot hold a quote, so it cannot leave the attribute. */
const QUOTED_URL = /&quot;(https?:\/\/[^\s&]*(?:&amp;[^\s&]*)*?)&quot;/g;

function linked(escaped: string): string {
  return escaped.includes('http') ? escaped.replace(QUOTED_URL, (_, url: string) => `&quot;<a href="${url}">${url}</a>&quot;`) : escaped;
}

/** The slow, exact form: what the fast pass must equal. */
export function prettyJsonHtmlByParsing(text: string): string {
  return linked(escapeHtml(reprinted(text)));
}

/** The text parsed and printed again, indented (itself when it is not JSON). */
function reprinted(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 4);
  } catch {
    return text;
  }
}

/** The first `limit` units of `text`, not ending inside a surrogate pair. */
function headOf(text: string, limit: number): string {
  const cut = (text.charCodeAt(limit - 1) & 0xfc00) === 0xd800 ? limit - 1 : limit;
  return text.slice(0, cut);
}

/**
 * The answer's JSON as the browsable page shows it (see the top of this file), at most about
 * `limit` characters of it: past that, the page shows where it stops rather than spending on a
 * view what a request may not (the JSON form of the same answer is always whole).
 */
export function prettyJsonHtml(text: string, limit = Infinity): { html: string; whole: boolean } {
  const shown = Math.min(text.length, limit);
  charge(shown * UNITS_PER_CHARACTER, 'the browsable page');
  const pretty = printed(text, shown);
  if (pretty === null) {
    // the slow pass reads the whole answer, and shows at most as much as the fast one would
    charge((text.length - shown) * UNITS_PER_PARSED_CHARACTER, 'the browsable page');
    const all = reprinted(text);
    return all.length <= limit ? { html: linked(escapeHtml(all)), whole: true } : { html: linked(escapeHtml(headOf(all, limit))), whole: false };
  }
  return { html: linked(escapeHtml(pretty.text)), whole: pretty.whole };
}

const ARRAY_INDEX = /^(?:0|[1-9]\d{0,9})$/;
const PLAIN_NUMBER = /^(?:0|-?[1-9]\d{0,14})$/;
const WHITESPACE = /[ \n\r\t]/;

/**
 * The fast pass: the text indented, not yet escaped. It stops at the first token that starts at or
 * past `limit`, and inside a string that ends past it (then `whole` is false). Null where only
 * the slow pass is exact.
 */
function printed(text: string, limit: number): { text: string; whole: boolean } | null {
  const out: string[] = [];
  /** per open container: whether it is an object */
  const objects: boolean[] = [];
  let indent = '';
  let i = 0;
  const n = text.length;
  /** whether the next string token is an object's key */
  let expectKey = false;
  const skipSpace = (from: number) => {
    let j = from;
    while (j < n && WHITESPACE.test(text[j])) j++;
    return j;
  };
  while (i < n) {
    if (i >= limit) return { text: out.join(''), whole: false };
    const c = text.charCodeAt(i);
    if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) {
      i++;
      continue;
    }
    if (c === 0x7b || c === 0x5b) {
      // { or [: opened on a line of its own members, or closed at once when it has none
      const object = c === 0x7b;
      const j = skipSpace(i + 1);
      if (text.charCodeAt(j) === (object ? 0x7d : 0x5d)) {
        out.push(object ? '{}' : '[]');
        i = j + 1;
        continue;
      }
      objects.push(object);
      indent += '    ';
      out.push(object ? '{' : '[', '\n', indent);
      expectKey = object;
      i++;
      continue;
    }
    if (c === 0x7d || c === 0x5d) {
      if (objects.pop() !== (c === 0x7d)) return null;
      indent = indent.slice(4);
      out.push('\n', indent, c === 0x7d ? '}' : ']');
      i++;
      continue;
    }
    if (c === 0x2c) {
      if (objects.length === 0) return null;
      out.push(',\n', indent);
      expectKey = objects[objects.length - 1];
      i++;
      continue;
    }
    if (c === 0x3a) {
      out.push(': ');
      i++;
      continue;
    }
    if (c === 0x22) {
      // a string: to the first quote that no backslash escapes
      let end = text.indexOf('"', i + 1);
      while (end !== -1) {
        let slashes = 0;
        while (text.charCodeAt(end - 1 - slashes) === 0x5c) slashes++;
        if (slashes % 2 === 0) break;
        end = text.indexOf('"', end + 1);
      }
      if (end === -1) return null;
      if (end >= limit) {
        // a string longer than what is left to show: its first part
        out.push(headOf(text, Math.max(limit, i + 1)).slice(i));
        return { text: out.join(''), whole: false };
      }
      let token = text.slice(i, end + 1);
      if (token.includes('\\')) {
        try {
          token = JSON.stringify(JSON.parse(token));
        } catch {
          return null;
        }
      }
      if (expectKey) {
        if (ARRAY_INDEX.test(token.slice(1, -1))) return null;
        expectKey = false;
      }
      out.push(token);
      i = end + 1;
      continue;
    }
    // a number, true, false or null
    let j = i;
    while (j < n) {
      const d = text.charCodeAt(j);
      if (d === 0x2c || d === 0x7d || d === 0x5d || d === 0x3a || d === 0x20 || d === 0x0a || d === 0x0d || d === 0x09) break;
      j++;
    }
    const token = text.slice(i, j);
    if (token === 'true' || token === 'false' || token === 'null' || PLAIN_NUMBER.test(token)) out.push(token);
    else {
      let value: unknown;
      try {
        value = JSON.parse(token);
      } catch {
        return null;
      }
      if (typeof value !== 'number') return null;
      out.push(JSON.stringify(value));
    }
    i = j;
  }
  if (objects.length !== 0) return null;
  return { text: out.join(''), whole: true };
}
