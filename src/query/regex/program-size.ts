// How many instructions a pattern compiles to, counted from its text before anything is compiled.
//
// re2js expands counted repetition while it compiles (`x{2,5}` becomes `xx(x(x(x)?)?)?`), so a
// pattern of a few hundred characters can take most of a second and hundreds of megabytes to
// compile: RE2 itself stops compiling at its memory limit, re2js does not. So the size is counted
// here first, and a pattern over the limit is refused without compiling it.
//
// The count follows re2js's compiler (an instruction per character of a literal, per class, per
// anchor, per alternative joined and per repetition operator; two per capturing group; counted
// repetition multiplied out as re2js does it) but does not merge alternatives as re2js's parser
// does (`ab|ac` → `a[bc]`): it is an upper bound, equal to re2js's size for patterns without `|`
// (program-size.test.ts checks both). RE2's own limits on repeat counts (at most 1000, also
// nested) are left to re2js to report.
//
// The same pass counts what re2js's parser does that the program does not show: under case
// folding it adds a class's range one code point at a time (with each point's fold orbit), so
// `(?i)[b-\x{10FFFF}]`, a dozen characters, is 125,000 steps; and each Unicode table (`\pL`) it
// copies range by range. The request is charged for both before the pattern is compiled
// (regex.ts), so such a pattern is refused, not compiled.

export interface CountedSize {
  instructions: number;
  /** re2js refuses a repeat count in it (over 1000, a minimum over its maximum, nested counts whose product is over 1000) */
  invalidRepeat: boolean;
  /** the pattern with every counted repeat made `{1}`: valid RE2 exactly when the pattern's other syntax is, and cheap to compile */
  reduced: string;
  /** code points re2js's parser folds one by one (class ranges under case folding) */
  foldedRunes: number;
  /** Unicode tables (`\p…`, `\P…`) it copies, and whether it folds them too */
  tables: number;
  folds: boolean;
}

/** The code points with a case fold (re2js's Unicode.MIN_FOLD and MAX_FOLD): a range past them is added whole. */
export const MIN_FOLD = 0x41;
export const MAX_FOLD = 0x1e943;

/** The code points of [lo, hi] re2js's appendFoldedRange visits one by one. */
export function foldedWidth(lo: number, hi: number): number {
  if (hi < lo || (lo <= MIN_FOLD && hi >= MAX_FOLD) || hi < MIN_FOLD || lo > MAX_FOLD) return 0;
  return Math.min(hi, MAX_FOLD) - Math.max(lo, MIN_FOLD) + 1;
}

/** RE2's largest repeat count, also for the product of nested ones. */
const MAX_REPEAT = 1000;
/** Sizes are capped here: far beyond any limit, and still exact integers. */
const HUGE = 1e12;

interface Piece {
  size: number;
  /** matches the empty text: re2js compiles a star over it with one more instruction */
  nullable: boolean;
  /** the largest product of the repeat counts nested in it (RE2's check) */
  product: number;
  /** matches only the empty text with nothing to test (`(?:)`): re2js drops it from a sequence */
  empty?: boolean;
  /** the repetition operator it ends with (`*`, `+?`…): re2js does not repeat it again with the same one */
  top?: string;
}

/** An empty sequence compiles to one NOP, when it is not dropped from a sequence. */
const EMPTY_SEQUENCE: Piece = { size: 1, nullable: true, product: 1, empty: true };
const ONE: Piece = { size: 1, nullable: false, product: 1 };
const EMPTY_WIDTH: Piece = { size: 1, nullable: true, product: 1 };

/**
 * `caseInsensitive`: compiled with case folding (`__iregex`); a `(?i)` in the pattern folds too
 * (counted as folding the whole pattern: an upper bound).
 */
export function countInstructions(pattern: string, caseInsensitive: boolean): CountedSize {
  const counter = new Counter(pattern, caseInsensitive);
  // FAIL (instruction 0) and MATCH, around what the pattern compiles to
  let instructions = 2 + counter.alternation().size;
  // after a stray `)`, a syntax error re2js reports: counted on
  while (counter.skipStray()) instructions = Math.min(instructions + counter.alternation().size, HUGE);
  let reduced = '';
  let at = 0;
  for (const [from, to] of counter.repeats) {
    reduced += `${pattern.slice(at, from)}{1}`;
    at = to;
  }
  reduced += pattern.slice(at);
  return { instructions, invalidRepeat: counter.invalidRepeat, reduced, foldedRunes: counter.foldedRunes, tables: counter.tables, folds: counter.folds };
}

class Counter {
  private i = 0;
  invalidRepeat = false;
  /** `(?U)` swaps greediness where it holds; where it appears, repeated operators are not merged */
  private readonly ungreedy: boolean;
  /** characters of a `\Q…\E` before its last, for the sequence to count */
  private quoted = 0;
  /** where the counted repeats are, [from, to) of their braces */
  readonly repeats: [number, number][] = [];
  readonly folds: boolean;
  foldedRunes = 0;
  tables = 0;

  constructor(
    private readonly src: string,
    caseInsensitive: boolean,
  ) {
    this.ungreedy = /\(\?[A-Za-z]*U/.test(src);
    this.folds = caseInsensitive || /\(\?[A-Za-z-]*i/.test(src);
  }

  skipStray(): boolean {
    if (this.i >= this.src.length) return false;
    this.i++;
    return true;
  }

  alternation(): Piece {
    let size = 0;
    let nullable = false;
    let product = 1;
    let branches = 0;
    let last: Piece | null = null;
    for (;;) {
      const b = (last = this.sequence());
      size += b.size;
      nullable ||= b.nullable;
      product = Math.max(product, b.product);
      branches++;
      if (this.src[this.i] !== '|') break;
      this.i++;
    }
    if (branches === 1) return last!;
    return { size: Math.min(size + branches - 1, HUGE), nullable, product };
  }

  private sequence(): Piece {
    let size = 0;
    let nullable = true;
    let product = 1;
    const src = this.src;
    let last: Piece | null = null;
    let only: Piece | null | undefined;
    while (this.i < src.length && src[this.i] !== '|' && src[this.i] !== ')') {
      let atom = this.atom();
      if (atom === null) {
        // a flag setting such as `(?i)`, or `\Q\E`: a repetition after it repeats the piece before it
        if (last === null || !'*+?{'.includes(src[this.i])) continue;
        if (!last.empty) size -= last.size;
        atom = last;
      }
      if (this.quoted > 0) {
        size += this.quoted;
        nullable = false;
        this.quoted = 0;
      }
      const piece = (last = this.repeated(atom));
      product = Math.max(product, piece.product);
      if (piece.empty) continue;
      size = Math.min(size + piece.size, HUGE);
      nullable &&= piece.nullable;
      only = only === undefined ? piece : null;
    }
    if (size === 0) return { ...EMPTY_SEQUENCE, product };
    // one piece is that piece (its operator still merges with one around the group)
    return only ? { ...only, size, product } : { size, nullable, product };
  }

  /** One atom; null for a group that only sets flags, or an empty `\Q\E`. */
  private atom(): Piece | null {
    const src = this.src;
    switch (src[this.i]) {
      case '(':
        return this.group();
      case '[':
        this.skipClass();
        return ONE;
      case '^':
      case '$':
        this.i++;
        return EMPTY_WIDTH;
      case '\\':
        return this.escape();
      default: {
        // a literal (also `.`, and a stray quantifier, which re2js refuses): one instruction per character
        this.i += pairAt(src, this.i) ? 2 : 1;
        return ONE;
      }
    }
  }

  private group(): Piece | null {
    const src = this.src;
    this.i++; // (
    let capturing = true;
    if (src[this.i] === '?') {
      const named = /^\?P?<[^>]*>/.exec(src.slice(this.i, this.i + 260));
      if (named) this.i += named[0].length;
      else {
        const flags = /^\?[A-Za-z-]*([:)])/.exec(src.slice(this.i, this.i + 20));
        if (flags && flags[1] === ')') {
          this.i += flags[0].length;
          return null;
        }
        this.i += flags ? flags[0].length : 1;
        capturing = false;
      }
    }
    const inner = this.alternation();
    if (src[this.i] === ')') this.i++;
    return capturing ? { size: Math.min(inner.size + 2, HUGE), nullable: inner.nullable, product: inner.product } : inner;
  }

  /** An escape; null for an empty `\Q\E`, which (like a flag group) leaves a repetition after it to the piece before. */
  private escape(): Piece | null {
    const src = this.src;
    const c = src[this.i + 1];
    this.i += 2;
    if (c === undefined) return ONE;
    if (c === 'Q') {
      // \Q…\E: every character up to \E (or the end) is a literal
      const end = src.indexOf('\\E', this.i);
      const text = src.slice(this.i, end < 0 ? src.length : end);
      this.i = end < 0 ? src.length : end + 2;
      // as with any literal, a repetition after it repeats its last character only
      const size = [...text].length;
      if (size === 0) return null;
      this.quoted += size - 1;
      return ONE;
    }
    if (c === 'p' || c === 'P' || c === 'x') {
      if (c !== 'x') this.tables++;
      if (src[this.i] === '{') {
        const end = src.indexOf('}', this.i);
        this.i = end < 0 ? src.length : end + 1;
      } else this.i += c === 'x' ? 2 : 1;
      return ONE;
    }
    if (c >= '0' && c <= '7') {
      for (let k = 0; k < 2 && src[this.i] >= '0' && src[this.i] <= '7'; k++) this.i++;
      return ONE;
    }
    if (pairAt(src, this.i - 1)) this.i++;
    return c === 'A' || c === 'z' || c === 'b' || c === 'B' ? EMPTY_WIDTH : ONE;
  }

  /** Skips a bracketed class as RE2 reads it: a leading `]`, `[:name:]`, `\\p{…}`, ranges of single characters; counts its folded ranges and tables. */
  private skipClass(): void {
    const src = this.src;
    this.i++; // [
    if (src[this.i] === '^') this.i++;
    for (let first = true; this.i < src.length && (src[this.i] !== ']' || first); first = false) {
      if (src.startsWith('[:', this.i)) {
        const end = src.indexOf(':]', this.i + 2);
        if (end >= 0) {
          this.i = end + 2;
          continue;
        }
      }
      const lo = this.classCharacter();
      let hi = lo;
      if (src[this.i] === '-' && this.i + 1 < src.length && src[this.i + 1] !== ']') {
        this.i++;
        hi = this.classCharacter();
      }
      if (this.folds && lo >= 0 && hi >= 0) this.foldedRunes = Math.min(this.foldedRunes + foldedWidth(lo, hi), HUGE);
    }
    this.i++; // ]
  }

  /**
   * One item of a class: a character (itself, an escape such as `\\x{…}` or octal, a surrogate
   * pair), its code point returned; or a class escape (`\\p{…}`, `\\d`…), -1.
   */
  private classCharacter(): number {
    const src = this.src;
    if (src[this.i] !== '\\') {
      const cp = src.codePointAt(this.i) ?? -1;
      this.i += pairAt(src, this.i) ? 2 : 1;
      return cp;
    }
    const c = src[this.i + 1];
    this.i += 2;
    if (c === undefined) return -1;
    if (c === 'p' || c === 'P') {
      this.tables++;
      if (src[this.i] === '{') {
        const end = src.indexOf('}', this.i);
        this.i = end < 0 ? src.length : end + 1;
      } else this.i++;
      return -1;
    }
    if (c === 'x') {
      let digits: string;
      if (src[this.i] === '{') {
        const end = src.indexOf('}', this.i);
        digits = src.slice(this.i + 1, end < 0 ? src.length : end);
        this.i = end < 0 ? src.length : end + 1;
      } else {
        digits = src.slice(this.i, this.i + 2);
        this.i += 2;
      }
      return /^[0-9A-Fa-f]{1,8}$/.test(digits) ? parseInt(digits, 16) : -1;
    }
    if (c >= '0' && c <= '7') {
      let digits = c;
      for (let k = 0; k < 2 && src[this.i] >= '0' && src[this.i] <= '7'; k++) digits += src[this.i++];
      return parseInt(digits, 8);
    }
    if (pairAt(src, this.i - 1)) {
      this.i++;
      return src.codePointAt(this.i - 2)!;
    }
    const named = NAMED_ESCAPES[c];
    if (named !== undefined) return named;
    // \d, \w, \s and their negations: a class of its own; anything else is the character itself
    return 'dDwWsS'.includes(c) ? -1 : c.charCodeAt(0);
  }

  /** The atom with the repetition operators that follow it. */
  private repeated(atom: Piece): Piece {
    const src = this.src;
    let piece = atom;
    for (;;) {
      const c = src[this.i];
      if (c === '*' || c === '+' || c === '?') {
        this.i++;
        const op = src[this.i] === '?' ? `${c}?` : c;
        piece = this.operator(piece, op);
      } else if (c === '{') {
        // re2js's repeat syntax: counts without leading zeros (longer ones it refuses as invalid)
        const m = /^\{(0|[1-9]\d*)(,(0|[1-9]\d*)?)?\}/.exec(src.slice(this.i, this.i + 24));
        if (!m) return piece; // not a repeat: a literal `{`, counted by the next atom
        this.repeats.push([this.i, this.i + m[0].length]);
        this.i += m[0].length;
        const min = Number(m[1]);
        const max = m[2] === undefined ? min : m[3] === undefined ? -1 : Number(m[3]);
        if (min > MAX_REPEAT || max > MAX_REPEAT || (max !== -1 && max < min)) this.invalidRepeat = true;
        piece = this.expand(piece, min, max, src[this.i] === '?' ? '?' : '');
        if (piece.product > MAX_REPEAT) this.invalidRepeat = true;
      } else return piece;
      if (src[this.i] === '?') this.i++; // non-greedy: the same instructions
    }
  }

  /** `x*`, `x+`, `x?` (and non-greedy `x*?`…), as re2js simplifies and compiles them. */
  private operator(x: Piece, op: string): Piece {
    if (x.empty) return x;
    if (x.top === op && !this.ungreedy) return x; // (?:x*)* is x*
    // a star over something that matches the empty text compiles as (x+)?
    const extra = op[0] === '*' && x.nullable ? 2 : 1;
    return { size: Math.min(x.size + extra, HUGE), nullable: op[0] === '+' ? x.nullable : true, product: x.product, top: op };
  }

  /** re2js's expansion of x{min,max} (max -1: no maximum); `lazy` is '?' for a non-greedy repeat. */
  private expand(x: Piece, min: number, max: number, lazy: string): Piece {
    // RE2's nesting check counts the maximum (the minimum if there is none); `{0}` hides what it repeats
    const count = max === -1 ? min : max;
    const product = max === 0 ? 1 : Math.min(x.product * Math.max(count, 1), HUGE);
    // x{0} is dropped from a sequence only after re2js has merged alternatives: one of them that
    // held it can keep a NOP, so it is counted as one
    if (max === 0) return { size: 1, nullable: true, product };
    if (x.empty) return { ...EMPTY_SEQUENCE, product };
    if (min === 1 && max === 1) return { ...x, product };
    if (max === -1) {
      if (min <= 1) return { ...this.operator(x, (min === 0 ? '*' : '+') + lazy), product };
      return { size: Math.min((min - 1) * x.size + this.operator(x, `+${lazy}`).size, HUGE), nullable: x.nullable, product };
    }
    // min copies, then max - min nested optional copies, each with its alternative (the
    // innermost one is x itself when x already is an optional of the same kind)
    const innermost = this.operator(x, `?${lazy}`);
    const size = min * x.size + innermost.size + (max - min - 1) * (x.size + 1);
    if (max === min) return { size: Math.min(min * x.size, HUGE), nullable: x.nullable, product };
    return { size: Math.min(size, HUGE), nullable: min === 0 || x.nullable, product, top: min === 0 ? `?${lazy}` : undefined };
  }
}

/** The escapes RE2 reads as one control character. */
const NAMED_ESCAPES: Record<string, number> = { a: 7, f: 12, t: 9, n: 10, r: 13, v: 11 };

/** Whether a surrogate pair (one character) begins at `i`. */
function pairAt(s: string, i: number): boolean {
  const hi = s.charCodeAt(i);
  const lo = s.charCodeAt(i + 1);
  return hi >= 0xd800 && hi <= 0xdbff && lo >= 0xdc00 && lo <= 0xdfff;
}
