// Characters that no instruction of a program tells apart share a class, and the automaton steps
// per class: `\d{4}` has two (digits, the rest), so its DFA computes two transitions per state,
// not one per character of the text. A class is known by what it does: which of the program's
// character sets accept it, whether it is a newline (for `(?m)^`, `$`) and whether it is a word
// character (for `\b`). Characters are classified as the text brings them, by asking re2js's own
// matchRune of each set, so a class is exactly what re2js would decide for each of its characters.
import { BEGIN_LINE, END_LINE, NO_WORD_BOUNDARY, WORD_BOUNDARY, type Program } from './program.ts';
import type { Work } from '../work-tally.ts';
import { COST } from './costs.ts';

/** Class 0: not classified yet (a transition on it is never cached, so the automaton asks). */
export const UNCLASSIFIED = 0;
/** Class 1: the end of the text. */
export const END = 1;

/** Bits of a class besides its sets. */
export const NEWLINE = 1;
export const WORD = 2;

/**
 * Characters below this have their class in a table the automaton's fast loop reads (Latin,
 * Greek, Cyrillic, punctuation such as “ ” – €: 24 KB); the others are looked up in a map.
 */
export const TABLED = 0x3000;
/** At most this many characters beyond the table keep their class in a map; the rest are classified each time. */
const REMEMBERED_OTHERS = 8192;

export class RuneClasses {
  /** the class of each character below TABLED, UNCLASSIFIED until first seen */
  readonly table = new Uint16Array(TABLED);
  /** per class: 1 for each set of the program that accepts it */
  readonly accepts: Uint8Array[];
  /** per class: NEWLINE, WORD */
  readonly bits: number[] = [0, 0];
  private readonly others = new Map<number, number>();
  private readonly bySignature = new Map<string, number>();
  private readonly bitMask: number;

  constructor(private readonly program: Program) {
    const none = new Uint8Array(program.sets.length);
    this.accepts = [none, none];
    this.bitMask = (program.needs & (BEGIN_LINE | END_LINE) ? NEWLINE : 0) | (program.needs & (WORD_BOUNDARY | NO_WORD_BOUNDARY) ? WORD : 0);
  }

  /** number of classes, UNCLASSIFIED and END included */
  get count(): number {
    return this.accepts.length;
  }

  /** The class of `rune`, classifying it (counted) when it is new. */
  of(rune: number, work: Work): number {
    if (rune < TABLED) {
      const c = this.table[rune];
      if (c !== UNCLASSIFIED) return c;
    } else {
      const c = this.others.get(rune);
      if (c !== undefined) return c;
    }
    return this.classify(rune, work);
  }

  private classify(rune: number, work: Work): number {
    const sets = this.program.sets;
    work.add(COST.classify + sets.length * COST.classifyPerSet);
    const accepts = new Uint8Array(sets.length);
    const bits = ((rune === 10 ? NEWLINE : 0) | (isWordRune(rune) ? WORD : 0)) & this.bitMask;
    let signature = `${bits}:`;
    for (let s = 0; s < sets.length; s++) {
      if (sets[s].any || sets[s].matches(rune)) {
        accepts[s] = 1;
        signature += `${s},`;
      }
    }
    let c = this.bySignature.get(signature);
    if (c === undefined) {
      c = this.accepts.push(accepts) - 1;
      this.bits.push(bits);
      this.bySignature.set(signature, c);
    }
    if (rune < TABLED) {
      if (c <= 0xffff) this.table[rune] = c;
    } else if (this.others.size < REMEMBERED_OTHERS) this.others.set(rune, c);
    return c;
  }
}

/** RE2's word characters for `\b`: ASCII letters, digits and `_` only. */
function isWordRune(r: number): boolean {
  return (r >= 0x61 && r <= 0x7a) || (r >= 0x41 && r <= 0x5a) || (r >= 0x30 && r <= 0x39) || r === 0x5f;
}
