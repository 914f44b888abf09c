// A regex/iregex pattern: parsed and compiled by re2js (so its syntax and meaning are RE2's),
// matched by our own counting automaton (matcher.ts). One per request: the automaton's DFA cache
// fills as the request's texts are matched and goes with the request, so what a request costs
// never depends on what came before it.
import { RE2JS } from 're2js';
import { charge } from '../work-budget.ts';
import type { Work } from '../work-tally.ts';
import { COST } from './costs.ts';
import { Matcher } from './matcher.ts';
import { programOf, type Program } from './program.ts';
import { countInstructions, type CountedSize } from './program-size.ts';

export class Regex {
  private matcher: Matcher | null = null;

  constructor(
    readonly re: RE2JS,
    readonly program: Program,
  ) {}

  /** Whether `text` has a match anywhere, counting the work into `work`. */
  test(text: string, work: Work): boolean {
    return (this.matcher ??= new Matcher(this.program)).test(text, work);
  }
}

/** The flags aula compiles with: `.` matches a newline, `^`/`$` are the ends of the whole text. */
export function regexFlags(caseInsensitive: boolean): number {
  return RE2JS.DOTALL | (caseInsensitive ? RE2JS.CASE_INSENSITIVE : 0);
}

/**
 * Compiles `pattern` (throws re2js's syntax errors) and charges the request `what` is part of
 * for it. Compiling runs before it can be counted; the callers bound it first (the pattern's
 * length, and its size counted from its text: program-size.ts), and the parser's work the
 * program does not show (folded class ranges, Unicode tables) is charged before it runs.
 * `counted`: the pattern's countInstructions with the same case folding, where the caller has it.
 */
export function compileRegex(pattern: string, caseInsensitive: boolean, what: string, counted = countInstructions(pattern, caseInsensitive)): Regex {
  charge(parseCost(counted), what);
  const re = RE2JS.compile(pattern, regexFlags(caseInsensitive));
  const program = programOf(re);
  charge(compileCost(pattern.length, program), what);
  return new Regex(re, program);
}

/** Units for what re2js's parser does with a pattern beyond what its program shows (`counted` from its text: program-size.ts). */
function parseCost(counted: CountedSize): number {
  return counted.foldedRunes * COST.foldedRune + counted.tables * (counted.folds ? COST.foldedTable : COST.table);
}

/** Units for compiling a pattern of `length` characters to `program`: re2js's parser and compiler are linear in these. */
export function compileCost(length: number, program: Program): number {
  return COST.compile + length * COST.compilePerCharacter + program.size * COST.compilePerInstruction + program.runeCount * COST.compilePerRange;
}
