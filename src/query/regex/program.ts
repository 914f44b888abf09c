// The compiled program of an RE2 pattern, read out of re2js into flat arrays for our own automaton
// (automaton.ts). re2js parses and compiles, so the syntax and its meaning stay exactly RE2's; we
// only run the program differently: counting every step, and caring only whether the text
// matches anywhere (no positions, no groups, so no thread priorities either).
//
// This reads re2js internals (`re2Input.prog`: instructions with op/out/arg/runes and matchRune),
// which is why package.json pins re2js to one exact version, and program.test.ts fails loudly
// if the shape read here changes.
import type { RE2JS } from 're2js';

/** Instructions, reduced to what a yes/no match needs. */
export const NOP = 0; // also a capture: no effect on whether the text matches
export const ALT = 1; // out, and arg: two threads
export const EMPTY = 2; // out if the position satisfies every flag in arg (EMPTY_* below)
export const RUNE = 3; // out if the next character is in rune set arg
export const MATCH = 4;
export const FAIL = 5;

/** re2js's empty-width flags (Utils.EMPTY_*), as the instructions carry them. */
export const BEGIN_LINE = 1;
export const END_LINE = 2;
export const BEGIN_TEXT = 4;
export const END_TEXT = 8;
export const WORD_BOUNDARY = 16;
export const NO_WORD_BOUNDARY = 32;

/** One character class of the program, as re2js matches it. */
export interface RuneSet {
  /** true for `.` under DOTALL: no need to ask */
  readonly any: boolean;
  matches(rune: number): boolean;
}

export interface Program {
  /** number of instructions */
  readonly size: number;
  readonly op: Uint8Array;
  readonly out: Int32Array;
  /** ALT: the second thread; EMPTY: its flags; RUNE: index into `sets` */
  readonly arg: Int32Array;
  /** the distinct character classes of the rune instructions */
  readonly sets: readonly RuneSet[];
  readonly start: number;
  /** every match begins at the start of the text (`^…` without MULTILINE) */
  readonly anchored: boolean;
  /** no text can match (the pattern compiled to a failure) */
  readonly impossible: boolean;
  /** the empty-width flags any instruction tests */
  readonly needs: number;
  /** characters every match begins with, matched case-sensitively ('' if none) */
  readonly prefix: string;
  /** numbers in the ranges of the distinct classes: what compiling them cost (a repeated class is one) */
  readonly runeCount: number;
}

// re2js's Inst op codes (re2js 2.10.0, Inst.ALT … Inst.LB_CHECK)
const RE2JS_OP = { ALT: 1, ALT_MATCH: 2, CAPTURE: 3, EMPTY_WIDTH: 4, FAIL: 5, MATCH: 6, NOP: 7, RUNE: 8, RUNE1: 9, RUNE_ANY: 10, RUNE_ANY_NOT_NL: 11 } as const;
const FOLD_CASE = 1; // RE2Flags.FOLD_CASE in a RUNE instruction's arg

/** What this module reads of re2js. */
interface Re2jsInst {
  op: number;
  out: number;
  arg: number;
  runes: Int32Array;
  matchRune(rune: number): boolean;
}
interface Re2jsInternals {
  re2Input: { prog: { inst: Re2jsInst[]; start: number }; prefix: string | null };
}

/** Thrown when re2js no longer looks as this module expects: a failure of ours, never of the pattern. */
export class Re2jsShapeError extends Error {
  constructor(what: string) {
    super(`re2js internals changed (${what}); program.ts reads re2js 2.10.0 exactly`);
    this.name = 'Re2jsShapeError';
  }
}

const ANY: RuneSet = { any: true, matches: () => true };
const NOT_NEWLINE: RuneSet = { any: false, matches: (r) => r !== 10 };

/** Reads the compiled program of `re`. Linear in its size. */
export function programOf(re: RE2JS): Program {
  const internals = re as unknown as Re2jsInternals;
  const prog = internals.re2Input?.prog;
  if (!prog || !Array.isArray(prog.inst) || typeof prog.start !== 'number') throw new Re2jsShapeError('re2Input.prog');
  const insts = prog.inst;
  const size = insts.length;
  const op = new Uint8Array(size);
  const out = new Int32Array(size);
  const arg = new Int32Array(size);
  const sets: RuneSet[] = [];
  // one set per distinct class: re2js shares the rune array of a literal or a repeated class
  const setOf = [new Map<Int32Array, number>(), new Map<Int32Array, number>()];
  let anyIndex = -1;
  let notNewlineIndex = -1;
  let needs = 0;
  let runeCount = 0;
  for (let pc = 0; pc < size; pc++) {
    const inst = insts[pc];
    if (typeof inst?.op !== 'number' || typeof inst.out !== 'number' || typeof inst.arg !== 'number') throw new Re2jsShapeError(`instruction ${pc}`);
    out[pc] = inst.out;
    switch (inst.op) {
      case RE2JS_OP.NOP:
      case RE2JS_OP.CAPTURE:
        op[pc] = NOP;
        break;
      case RE2JS_OP.ALT:
      case RE2JS_OP.ALT_MATCH:
        op[pc] = ALT;
        arg[pc] = inst.arg;
        break;
      case RE2JS_OP.EMPTY_WIDTH:
        op[pc] = EMPTY;
        arg[pc] = inst.arg;
        needs |= inst.arg;
        break;
      case RE2JS_OP.MATCH:
        op[pc] = MATCH;
        break;
      case RE2JS_OP.FAIL:
        op[pc] = FAIL;
        break;
      case RE2JS_OP.RUNE_ANY:
        op[pc] = RUNE;
        arg[pc] = anyIndex < 0 ? (anyIndex = sets.push(ANY) - 1) : anyIndex;
        break;
      case RE2JS_OP.RUNE_ANY_NOT_NL:
        op[pc] = RUNE;
        arg[pc] = notNewlineIndex < 0 ? (notNewlineIndex = sets.push(NOT_NEWLINE) - 1) : notNewlineIndex;
        break;
      case RE2JS_OP.RUNE:
      case RE2JS_OP.RUNE1: {
        if (!(inst.runes instanceof Int32Array) || typeof inst.matchRune !== 'function') throw new Re2jsShapeError(`runes of instruction ${pc}`);
        const byRunes = setOf[inst.arg & FOLD_CASE];
        let index = byRunes.get(inst.runes);
        if (index === undefined) {
          runeCount += inst.runes.length;
          index = sets.push({ any: false, matches: (r) => inst.matchRune(r) }) - 1;
          byRunes.set(inst.runes, index);
        }
        op[pc] = RUNE;
        arg[pc] = index;
        break;
      }
      default:
        // lookbehinds (LB_WRITE, LB_CHECK) exist only with the LOOKBEHINDS flag, which aula never sets
        throw new Re2jsShapeError(`op ${inst.op} of instruction ${pc}`);
    }
  }
  const prefix = internals.re2Input.prefix;
  if (typeof prefix !== 'string') throw new Re2jsShapeError('re2Input.prefix');
  const startFlags = flagsAtStart(op, out, arg, prog.start);
  return {
    size, op, out, arg, sets,
    start: prog.start,
    anchored: startFlags >= 0 && (startFlags & BEGIN_TEXT) !== 0,
    impossible: startFlags < 0,
    needs,
    prefix,
    runeCount,
  };
}

/** The empty-width flags every thread tests before its first character; -1 if it fails at once. */
function flagsAtStart(op: Uint8Array, out: Int32Array, arg: Int32Array, start: number): number {
  let flags = 0;
  for (let pc = start, steps = 0; steps < op.length; steps++) {
    if (op[pc] === EMPTY) flags |= arg[pc];
    else if (op[pc] === FAIL) return -1;
    else if (op[pc] !== NOP) return flags;
    pc = out[pc];
  }
  return flags;
}
