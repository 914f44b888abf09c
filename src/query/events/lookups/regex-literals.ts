// Extracts what an RE2 pattern requires of a matching text, as a trigram query: the literal
// strings every match must contain, combined with AND (sequence) and OR (alternation).
//
// Soundness is all that matters: the query may demand less than the pattern (then more
// candidates are verified with the real engine) but never more. So everything not understood
// below (classes, `.`, `\d`, `\pL`, octal escapes, lookbehinds…) is treated as an unknown piece
// that breaks the current literal run and demands nothing. The pattern has already been compiled
// by re2js, so it is known to be valid RE2 syntax.
//
// Case: the index holds folded text. For case-sensitive literals, text containing `x` has folded
// text containing fold(x) because folding is context-free. For case-insensitive literals (iregex,
// `(?i)`) RE2 also matches the other members of the character's case orbit; fold() maps a whole
// orbit to one string except for a few characters, which are then treated as unknown.
import { fold, foldSafeInCaseInsensitiveRegex } from '../../../store/format/fold.ts';
import { ALL, type TrigramQuery } from '../indexes/trigram.ts';

interface Flags {
  ci: boolean;
  multiline: boolean;
}

const CONTROL: Record<string, string> = { a: '\x07', f: '\f', t: '\t', n: '\n', r: '\r', v: '\v' };

class Parser {
  private i = 0;
  constructor(private readonly src: string) {}

  parse(flags: Flags): TrigramQuery {
    return this.alternation({ ...flags });
  }

  private peek(): string | undefined {
    return this.src[this.i];
  }

  /** `flags` is this group's own copy: as in RE2, `(?i)` in one branch holds for later branches. */
  private alternation(flags: Flags): TrigramQuery {
    const branches: TrigramQuery[] = [this.sequence(flags)];
    while (this.peek() === '|') {
      this.i++;
      branches.push(this.sequence(flags));
    }
    if (branches.length === 1) return branches[0];
    if (branches.some((b) => b.kind === 'all')) return ALL;
    return { kind: 'or', parts: branches };
  }

  /** A concatenation, up to `|`, `)` or the end. `flags` may be changed by `(?i)` inside it. */
  private sequence(flags: Flags): TrigramQuery {
    const parts: TrigramQuery[] = [];
    let run = '';
    let runAtStart = false;
    let pendingStart = false;
    const close = (atEnd = false) => {
      if (run !== '') parts.push({ kind: 'run', text: run, atStart: runAtStart, atEnd });
      run = '';
      runAtStart = false;
      pendingStart = false;
    };
    const append = (ch: string, ci: boolean): boolean => {
      if (ci && !foldSafeInCaseInsensitiveRegex(ch)) return false;
      if (run === '') {
        runAtStart = pendingStart;
        pendingStart = false;
      }
      run += fold(ch);
      return true;
    };

    while (this.i < this.src.length) {
      const c = this.peek()!;
      if (c === '|' || c === ')') break;

      // One atom: a literal character (string `lit`), a zero-width assertion, or something else
      // (`sub`, with what it requires when it occurs at least once).
      let lit: string | null = null;
      let sub: TrigramQuery | null = null;
      let litCi = flags.ci;
      if (c === '(') {
        const inner = this.group(flags);
        if (inner === 'flags') continue; // `(?i)`: changed `flags` for the rest of this sequence
        sub = inner;
      } else if (c === '[') {
        this.skipClass();
        sub = ALL;
      } else if (c === '\\') {
        const e = this.escape();
        if (e.kind === 'literal') lit = e.text;
        else if (e.kind === 'quoted') {
          // \Q…\E: literal characters; a quantifier after it applies to the last one only
          const chars = [...e.text];
          const last = chars.pop();
          for (const ch of chars) if (!append(ch, flags.ci)) close();
          if (last === undefined) {
            this.repetition();
            continue;
          }
          lit = last;
        } else if (e.kind === 'start' || e.kind === 'end' || e.kind === 'assertion') {
          // zero-width; RE2 even allows a quantifier on it (`\b?`), which voids the anchoring
          const anchored = this.repetition() === null;
          close(anchored && e.kind === 'end');
          pendingStart = anchored && e.kind === 'start';
          continue;
        } else sub = ALL;
      } else if (c === '^' || c === '$') {
        this.i++;
        const anchored = this.repetition() === null && !flags.multiline;
        close(anchored && c === '$');
        pendingStart = anchored && c === '^';
        continue;
      } else if (c === '.') {
        this.i++;
        sub = ALL;
      } else {
        const cp = this.src.codePointAt(this.i)!;
        lit = String.fromCodePoint(cp);
        this.i += lit.length;
      }

      const rep = this.repetition();
      if (lit !== null) {
        const min = rep ? rep.min : 1;
        const max = rep ? rep.max : 1;
        if (min === 0) {
          close();
          continue;
        }
        let ok = true;
        for (let k = 0; k < min && ok; k++) ok = append(lit, litCi);
        if (!ok) {
          close();
          continue;
        }
        if (max !== min) {
          // more copies may follow: what comes next is adjacent to one copy, not to this run
          close();
          append(lit, litCi);
        }
      } else {
        close();
        if (sub !== null && (!rep || rep.min > 0) && sub.kind !== 'all') parts.push(sub);
      }
    }
    close();
    if (parts.length === 0) return ALL;
    if (parts.length === 1) return parts[0];
    return { kind: 'and', parts };
  }

  /** `(…)`, `(?:…)`, `(?P<n>…)`, `(?<n>…)`, `(?flags:…)`, or `(?flags)` which returns 'flags'. */
  private group(flags: Flags): TrigramQuery | 'flags' {
    this.i++; // (
    let inner: Flags = { ...flags }; // flags changed inside a group end with it
    if (this.peek() === '?') {
      this.i++;
      const rest = this.src.slice(this.i);
      const named = /^(?:P?<[^>]*>)/.exec(rest);
      const flagged = /^([imsU]*)(?:-([imsU]*))?([:)])/.exec(rest);
      if (named) {
        this.i += named[0].length;
      } else if (flagged) {
        this.i += flagged[0].length;
        const next = applyFlags(flags, flagged[1], flagged[2] ?? '');
        if (flagged[3] === ')') {
          flags.ci = next.ci;
          flags.multiline = next.multiline;
          return 'flags';
        }
        inner = next;
      } else {
        // lookbehind or other extension: skip it, requiring nothing
        this.skipGroupBody();
        return ALL;
      }
    }
    const q = this.alternation(inner);
    if (this.peek() === ')') this.i++;
    return q;
  }

  private skipGroupBody(): void {
    let depth = 1;
    while (this.i < this.src.length && depth > 0) {
      const c = this.src[this.i];
      if (c === '\\') this.i += 2;
      else if (c === '[') this.skipClass();
      else {
        if (c === '(') depth++;
        else if (c === ')') depth--;
        this.i++;
      }
    }
  }

  private skipClass(): void {
    this.i++; // [
    if (this.peek() === '^') this.i++;
    if (this.peek() === ']') this.i++; // a leading ] is literal
    while (this.i < this.src.length) {
      const c = this.src[this.i];
      if (c === '\\') this.i += 2;
      else if (c === '[' && this.src[this.i + 1] === ':') {
        const end = this.src.indexOf(':]', this.i + 2);
        this.i = end < 0 ? this.i + 1 : end + 2;
      } else if (c === ']') {
        this.i++;
        return;
      } else this.i++;
    }
  }

  private escape():
    | { kind: 'literal'; text: string }
    | { kind: 'quoted'; text: string }
    | { kind: 'start' | 'end' | 'assertion' | 'other' } {
    this.i++; // backslash
    const c = this.src[this.i++] ?? '';
    if (c === 'Q') {
      const end = this.src.indexOf('\\E', this.i);
      const text = this.src.slice(this.i, end < 0 ? undefined : end);
      this.i = end < 0 ? this.src.length : end + 2;
      return { kind: 'quoted', text };
    }
    if (c === 'A') return { kind: 'start' };
    if (c === 'z') return { kind: 'end' };
    if (c === 'b' || c === 'B') return { kind: 'assertion' };
    if (c in CONTROL) return { kind: 'literal', text: CONTROL[c] };
    if (c === 'x') {
      const m = /^(?:\{([0-9a-fA-F]+)\}|([0-9a-fA-F]{2}))/.exec(this.src.slice(this.i));
      if (!m) return { kind: 'other' };
      this.i += m[0].length;
      const cp = parseInt(m[1] ?? m[2], 16);
      return cp <= 0x10ffff ? { kind: 'literal', text: String.fromCodePoint(cp) } : { kind: 'other' };
    }
    if (c === 'p' || c === 'P') {
      if (this.peek() === '{') {
        const end = this.src.indexOf('}', this.i);
        this.i = end < 0 ? this.src.length : end + 1;
      } else this.i++;
      return { kind: 'other' };
    }
    if (/^[0-7]$/.test(c)) {
      // octal: up to two more digits
      while (/^[0-7]$/.test(this.peek() ?? '') && this.i < this.src.length) this.i++;
      return { kind: 'other' };
    }
    // RE2 allows escaping any ASCII punctuation; letters and digits left are classes (\d, \w…)
    if (/^[!-\/:-@\[-`{-~]$/.test(c)) return { kind: 'literal', text: c };
    return { kind: 'other' };
  }

  /** A quantifier after an atom: *, +, ?, {n}, {n,}, {n,m}, each optionally followed by `?`. */
  private repetition(): { min: number; max: number } | null {
    const c = this.peek();
    let rep: { min: number; max: number } | null = null;
    if (c === '*') rep = { min: 0, max: Infinity };
    else if (c === '+') rep = { min: 1, max: Infinity };
    else if (c === '?') rep = { min: 0, max: 1 };
    if (rep) this.i++;
    else if (c === '{') {
      // a `{` that does not start a valid repeat is a literal in RE2 (e.g. `a{,3}`)
      const m = /^\{(\d+)(?:(,)(\d*))?\}/.exec(this.src.slice(this.i));
      if (!m) return null;
      this.i += m[0].length;
      const min = Number(m[1]);
      rep = { min, max: m[2] === undefined ? min : m[3] === '' ? Infinity : Number(m[3]) };
    } else return null;
    if (this.peek() === '?') this.i++;
    // RE2 rejects a repetition of a repetition (`a**`), so no second quantifier can follow
    return rep;
  }
}

function applyFlags(flags: Flags, on: string, off: string): Flags {
  const next = { ...flags };
  if (on.includes('i')) next.ci = true;
  if (on.includes('m')) next.multiline = true;
  if (off.includes('i')) next.ci = false;
  if (off.includes('m')) next.multiline = false;
  return next;
}

/**
 * A pattern that is nothing but literal alternatives, each optionally anchored (`kardio|neuro`,
 * `^Work`, `shop$`), as plain string tests; null for anything else. Such a pattern needs no regex
 * engine: for `regex` the tests run on the text itself; for `iregex` on the folded text, which
 * is exact where fold() and RE2 agree on what matches each character: for ASCII, except that
 * `ı` and `İ` fold to an `i` that RE2 does not pair them with (the caller checks texts holding
 * either with the engine when a pattern has an `i`).
 */
export function literalAlternatives(pattern: string, caseInsensitive: boolean): { text: string; atStart: boolean; atEnd: boolean }[] | null {
  if (pattern === '' || /[\\.*+?()[\]{}]/.test(pattern)) return null;
  if (caseInsensitive && !/^[\x00-\x7f]*$/.test(pattern)) return null;
  const out: { text: string; atStart: boolean; atEnd: boolean }[] = [];
  for (const branch of pattern.split('|')) {
    const m = /^(\^?)([^^$]*)(\$?)$/.exec(branch);
    if (!m) return null;
    out.push({ text: caseInsensitive ? fold(m[2]) : m[2], atStart: m[1] === '^', atEnd: m[3] === '$' });
  }
  return out;
}

/** What any text matched by `pattern` must contain (folded), for the trigram index. */
export function requiredLiterals(pattern: string, caseInsensitive: boolean): TrigramQuery {
  try {
    return new Parser(pattern).parse({ ci: caseInsensitive, multiline: false });
  } catch {
    return ALL;
  }
}

/** A branch of literalSequences: literals that must occur in this order, without overlapping. */
export interface LiteralSequence {
  parts: string[];
  atStart: boolean;
  atEnd: boolean;
}

/**
 * As literalAlternatives, for two more shapes people write: one group around the alternatives
 * with the anchors outside (`(Kurs|Seminar)$`, `^(?:herz|lunge)`), and literals joined by `.*`
 * (`und.*stoffwechsel`): with `.` matching everything (DOTALL, as the lookups compile), such a
 * branch matches exactly when its literals occur in order without overlapping, which leftmost
 * occurrences decide (see matchesSequence). Null for anything else.
 *
 * For `iregex` the test runs on folded text, which is exact for every pattern character whose
 * RE2 case orbit is exactly the characters folding to its fold: checked over the whole BMP
 * against re2js, that is every fold-safe character but `ı` (fold() pairs it with `i`, RE2 does
 * not), and `İ`, whose fold is two characters (`i` + U+0307, so U+0307 is refused as well);
 * texts holding `ı`/`İ` go to the engine when the pattern has an `i` (as for literalAlternatives).
 */
export function literalSequences(pattern: string, caseInsensitive: boolean): LiteralSequence[] | null {
  const group = /^(\^?)\((?:\?:)?([^()]*)\)(\$?)$/.exec(pattern);
  const body = group ? group[2] : pattern;
  if (body === '' || /[\\+?()[\]{}]/.test(body)) return null;
  if (caseInsensitive && !/^[\x00-\x7f]*$/.test(body)) {
    for (const ch of body) if (ch === '\u0131' || ch === '\u0307' || !foldSafeInCaseInsensitiveRegex(ch) || fold(ch).length !== 1) return null;
  }
  const out: LiteralSequence[] = [];
  for (const branch of body.split('|')) {
    const m = /^(\^?)([^]*?)(\$?)$/.exec(branch)!;
    // inside the group the anchors would bind to one branch only: leave those to the engine
    if (group && (m[1] !== '' || m[3] !== '')) return null;
    const parts = m[2].split('.*');
    if (parts.some((p) => p === '' || /[.*^$]/.test(p))) return null;
    out.push({
      parts: caseInsensitive ? parts.map(fold) : parts,
      atStart: group ? group[1] === '^' : m[1] === '^',
      atEnd: group ? group[3] === '$' : m[3] === '$',
    });
  }
  return out;
}

/** Whether `text` holds the sequence's literals in order, without overlapping, anchored as it says. */
export function matchesSequence(seq: LiteralSequence, text: string): boolean {
  const { parts, atStart, atEnd } = seq;
  let pos = 0;
  for (let i = 0; i < parts.length; i++) {
    const p = parts[i];
    if (i === parts.length - 1 && atEnd) {
      // the last literal ends the text and starts after the previous one
      const at = text.length - p.length;
      return at >= pos && text.endsWith(p) && (i > 0 || !atStart || at === 0);
    }
    if (i === 0 && atStart) {
      if (!text.startsWith(p)) return false;
      pos = p.length;
      continue;
    }
    // the leftmost occurrence leaves the most room for the rest
    const at = text.indexOf(p, pos);
    if (at < 0) return false;
    pos = at + p.length;
  }
  return true;
}
