// RFC 5545 content lines: value escaping, parameter quoting and line folding.

export const CRLF = '\r\n';
const MAX_OCTETS = 75;

// Control characters are not allowed in TEXT (§3.3.11) or in parameter values (§3.1); tabs are.
const CONTROLS = /[\x00-\x08\x0b-\x1f\x7f]/g;
const NEWLINES = /\r\n?|\n/g;
const NOT_ASCII = /[^\x00-\x7f]/;

/** What a TEXT value escapes or drops: line breaks (CR LF, CR, LF), `\`, `;`, `,`, other controls. */
const TEXT_SPECIALS = /\r\n?|[\n\\;,]|[\x00-\x08\x0b-\x1f\x7f]/g;
/** Whether escapeText would change a text. */
const TEXT_SPECIAL = /[\x00-\x08\x0a-\x1f\x7f\\;,]/;
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

/** What content lines are written to: as text (ContentLines) or as UTF-8 straight into a buffer (ContentBytes). */
export interface LineSink {
  /** `NAME;PARAM=value:value`; `value` must already be escaped for its value type. */
  add(name: string, value: string, params?: Readonly<Record<string, string>>): this;
  /** A TEXT property, left out when there is no text. */
  text(name: string, value: string | null | undefined): this;
}

/** Collects content lines and joins them, folded, with CRLF after every line. */
export class ContentLines implements LineSink {
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

/** The first unit at or after `i` that escapeText keeps: past the controls it drops. */
function afterDropped(s: string, i: number): number {
  for (;;) {
    const c = s.charCodeAt(i);
    if (!(c <= 0x1f || c === 0x7f) || c === 0x09 || c === 0x0a || c === 0x0d) return i;
    i++;
  }
}

/**
 * Content lines written as UTF-8 into one buffer, reused line after line: what ContentLines'
 * text would encode to, byte for byte, with TEXT escaped and every line folded as its octets are
 * written (one pass over each value, no string made). A build writes a calendar entry per event
 * (data/calendar/) with it; the strings, regex passes and joins of ContentLines were most of
 * that work and its garbage. A lone surrogate is written as U+FFFD, as Buffer.write does.
 */
export class ContentBytes implements LineSink {
  private buf = Buffer.allocUnsafe(4096);
  private end = 0;
  /** octets in the physical line being written */
  private octets = 0;

  /** Empties the buffer (the bytes a previous `bytes` viewed are then overwritten). */
  clear(): this {
    this.end = 0;
    return this;
  }

  /** The lines written since the last clear: a view of the buffer, valid until the next write. */
  get bytes(): Uint8Array {
    return this.buf.subarray(0, this.end);
  }

  add(name: string, value: string, params?: Readonly<Record<string, string>>): this {
    this.octets = 0;
    this.put(name, false);
    for (const k in params) {
      this.put(';', false).put(k, false).put('=', false).put(params[k], false);
    }
    this.put(':', false).written(value);
    return this.lineEnd();
  }

  text(name: string, value: string | null | undefined): this {
    if (!value) return this;
    this.octets = 0;
    this.put(name, false).put(':', false);
    // most text has nothing to escape: then it is written as it is
    if (TEXT_SPECIAL.test(value)) this.put(value, true);
    else this.written(value);
    return this.lineEnd();
  }

  /**
   * Writes `s` as it is, encoded by Buffer.write, then folded where its bytes pass 75 octets a
   * line: a cut that falls inside a character moves back to that character's first byte, so the
   * lines break where put's would. A few native calls, where put is a loop over every character.
   */
  private written(s: string): this {
    this.room(s.length * 4 + 8);
    const buf = this.buf;
    const start = this.end;
    const end = start + buf.write(s, start);
    let avail = MAX_OCTETS - this.octets;
    if (end - start <= avail) {
      this.octets += end - start;
      this.end = end;
      return this;
    }
    const cuts: number[] = [];
    for (let at = start; end - at > avail; avail = MAX_OCTETS - 1) {
      let cut = at + avail;
      while ((buf[cut] & 0xc0) === 0x80) cut--; // a UTF-8 continuation byte
      cuts.push(cut);
      at = cut;
    }
    // each piece moved right past the CRLF and space of every cut before it, the last first
    for (let k = cuts.length - 1; k >= 0; k--) {
      const shift = 3 * (k + 1);
      buf.copyWithin(cuts[k] + shift, cuts[k], k + 1 < cuts.length ? cuts[k + 1] : end);
      buf[cuts[k] + shift - 3] = 0x0d;
      buf[cuts[k] + shift - 2] = 0x0a;
      buf[cuts[k] + shift - 1] = 0x20;
    }
    this.octets = 1 + end - cuts[cuts.length - 1];
    this.end = end + 3 * cuts.length;
    return this;
  }

  private lineEnd(): this {
    this.room(2);
    this.buf[this.end++] = 0x0d;
    this.buf[this.end++] = 0x0a;
    return this;
  }

  private room(n: number): void {
    if (this.end + n <= this.buf.length) return;
    const grown = Buffer.allocUnsafe(Math.max(this.end + n, this.buf.length * 2));
    this.buf.copy(grown, 0, 0, this.end);
    this.buf = grown;
  }

  /**
   * Writes `s` (TEXT-escaped as escapeText does where `escape`), folding as it goes: a
   * continuation line starts where the next character's octets would pass 75 (§3.1).
   */
  private put(s: string, escape: boolean): this {
    // at most 3 octets a UTF-16 unit (an escape: 2), a fold's 3 bytes at most every 24 units
    this.room(s.length * 4 + 8);
    // (the buffer, its end and the line's octets in locals, not fields, within the loop)
    const buf = this.buf;
    let end = this.end;
    let octets = this.octets;
    for (let i = 0; i < s.length; i++) {
      let c = s.charCodeAt(i);
      if (c < 0x80) {
        if (escape && c !== 0x09 && (c < 0x20 || c === 0x3b || c === 0x2c || c === 0x5c || c === 0x7f)) {
          if (c === 0x0d || c === 0x0a) {
            if (c === 0x0d && s.charCodeAt(i + 1) === 0x0a) i++;
            c = 0x6e; // a line break: `\n`
          } else if (c !== 0x3b && c !== 0x2c && c !== 0x5c) continue; // another control: dropped
          if (octets + 1 > MAX_OCTETS) {
            buf[end++] = 0x0d;
            buf[end++] = 0x0a;
            buf[end++] = 0x20;
            octets = 1;
          }
          octets++;
          buf[end++] = 0x5c;
        }
        if (octets + 1 > MAX_OCTETS) {
          buf[end++] = 0x0d;
          buf[end++] = 0x0a;
          buf[end++] = 0x20;
          octets = 1;
        }
        octets++;
        buf[end++] = c;
        continue;
      }
      let n: number;
      let p = c;
      let j: number;
      if (c < 0x800) n = 2;
      else if (c >= 0xd800 && c <= 0xdbff && (s.charCodeAt((j = escape ? afterDropped(s, i + 1) : i + 1)) & 0xfc00) === 0xdc00) {
        // (a pair around controls that TEXT drops is a pair once they are gone)
        p = 0x10000 + ((c - 0xd800) << 10) + (s.charCodeAt(j) - 0xdc00);
        i = j;
        n = 4;
      } else {
        if (c >= 0xd800 && c <= 0xdfff) p = 0xfffd; // a lone surrogate
        n = 3;
      }
      if (octets + n > MAX_OCTETS) {
        buf[end++] = 0x0d;
        buf[end++] = 0x0a;
        buf[end++] = 0x20;
        octets = 1;
      }
      octets += n;
      if (n === 2) {
        buf[end++] = 0xc0 | (p >> 6);
      } else if (n === 3) {
        buf[end++] = 0xe0 | (p >> 12);
        buf[end++] = 0x80 | ((p >> 6) & 0x3f);
      } else {
        buf[end++] = 0xf0 | (p >> 18);
        buf[end++] = 0x80 | ((p >> 12) & 0x3f);
        buf[end++] = 0x80 | ((p >> 6) & 0x3f);
      }
      buf[end++] = 0x80 | (p & 0x3f);
    }
    this.end = end;
    this.octets = octets;
    return this;
  }
}
