// RFC 5545 content lines: value escaping, parameter quoting and line folding.

export const CRLF = '\r\n';
const MAX_OCTETS = 75;

// Control characters are not allowed in TEXT (§3.3.11) or in parameter values (§3.1); tabs are.
const CONTROLS = /[\x00-\x08\x0b-\x1f\x7f]/g;
const NEWLINES = /\r\n?|\n/g;
const NOT_ASCII = /[^\x00-\x7f]/;

/** What a TEXT value escapes or drops: line breaks (CR LF, CR, LF), `\`, `;`, `,`, other controls. */
const TEXT_SPECIALS = /\r\n?|[\n\\;,]|[\x00-\x08\x0b-\x1f\x7f]/g;
/** A line break or another control. */
const ANY_CONTROL = /[\x00-\x08\x0a-\x1f\x7f]/;

/** A TEXT value (§3.3.11): `\`, `;`, `,` and line breaks escaped, other controls dropped. One pass: a feed escapes tens of thousands of values. */
export function escapeText(text: string): string {
  return text.replace(TEXT_SPECIALS, (c) => (c === ';' || c === ',' || c === '\\' ? `\\${c}` : c[0] === '\r' || c === '\n' ? '\\n' : ''));
}

/** A URI or other unescaped value: nothing can be escaped there, so line breaks and controls go. */
export function cleanValue(text: string): string {
  if (!ANY_CONTROL.test(text)) return text;
  return text.replace(NEWLINES, ' ').replace(CONTROLS, '');
}

/** What a parameter value changes: `^`, `"`, line breaks and other controls. */
const ANY_PARAM_SPECIAL = /[\x00-\x08\x0a-\x1f\x7f^"]/;
const PARAM_QUOTED = /[;:,]/;

/**
 * A parameter value (§3.2): RFC 6868 caret escapes for what a parameter cannot hold (`"` and
 * line breaks), quoted when it contains `;`, `:` or `,`, which would otherwise end it.
 */
export function paramValue(text: string): string {
  const escaped = ANY_PARAM_SPECIAL.test(text)
    ? text.replace(/\^/g, '^^').replace(NEWLINES, '^n').replace(/"/g, "^'").replace(CONTROLS, '')
    : text;
  return PARAM_QUOTED.test(escaped) ? `"${escaped}"` : escaped;
}

/**
 * Folds a line to physical lines of at most 75 octets (§3.1), each continuation starting with a
 * space. Breaks fall between code points, so no UTF-8 sequence (or surrogate pair) is split.
 */
export function fold(line: string): string {
  // A UTF-16 unit is at most 3 octets of UTF-8, so a short line needs no counting.
  if (line.length <= MAX_OCTETS / 3) return line;
  // An ASCII line is an octet a character: cut every 75, then every 74 (after the space).
  if (!NOT_ASCII.test(line)) {
    if (line.length <= MAX_OCTETS) return line;
    let folded = line.slice(0, MAX_OCTETS);
    for (let at = MAX_OCTETS; at < line.length; at += MAX_OCTETS - 1) folded += `${CRLF} ${line.slice(at, at + MAX_OCTETS - 1)}`;
    return folded;
  }
  return foldByOctets(line);
}

/** fold() counting each code point's UTF-8 octets: any line, ASCII or not. */
export function foldByOctets(line: string): string {
  const parts: string[] = [];
  let start = 0;
  let octets = 0;
  for (let i = 0; i < line.length; ) {
    const c = line.charCodeAt(i);
    const pair = c >= 0xd800 && c <= 0xdbff && (line.charCodeAt(i + 1) & 0xfc00) === 0xdc00;
    // a lone surrogate is written as U+FFFD, 3 octets
    const n = c < 0x80 ? 1 : c < 0x800 ? 2 : pair ? 4 : 3;
    if (octets + n > MAX_OCTETS) {
      parts.push(line.slice(start, i));
      start = i;
      octets = 1; // the leading space of the continuation
    }
    octets += n;
    i += pair ? 2 : 1;
  }
  parts.push(line.slice(start));
  return parts.join(`${CRLF} `);
}

/** Collects content lines and joins them, folded, with CRLF after every line. */
export class ContentLines {
  private readonly lines: string[] = [];

  /** `NAME;PARAM=value:value`; `value` must already be escaped for its value type. */
  add(name: string, value: string, params?: Readonly<Record<string, string>>): this {
    let head = name;
    for (const k in params) head += `;${k}=${params[k]}`;
    this.lines.push(fold(`${head}:${value}`));
    return this;
  }

  /** A TEXT property, left out when there is no text. */
  text(name: string, value: string | null | undefined): this {
    return value ? this.add(name, escapeText(value)) : this;
  }

  toString(): string {
    return this.lines.length === 0 ? '' : `${this.lines.join(CRLF)}${CRLF}`;
  }
}
