// Units of work the regex matcher counts, weighted so that a unit is about a nanosecond of CPU
// (bench/work-units.ts measures ns per unit for each; see work-budget.ts for why work is counted,
// not timed).
export const COST = {
  /** a call of the matcher on one text */
  call: 80,
  /** a character through a cached DFA transition */
  step: 4,
  /** a character taken outside the DFA's fast loop (beyond its table, half a surrogate pair, a transition to compute) */
  slowStep: 40,
  /** a character of text searched for the program's literal prefix (indexOf), in 1/16 units */
  scanSixteenths: 2,
  /** computing a transition, besides the instructions it visits */
  transition: 200,
  /** each instruction visited while computing a transition or taking an NFA step */
  inst: 8,
  /** each thread of a DFA state looked up or built (sorting, hashing, comparing) */
  kernel: 20,
  /** a DFA state built: allocation and its row of the transition table, per class */
  state: 400,
  stateRow: 2,
  /** an entry of the transition table allocated, copied or cleared (when it grows, or the cache is cleared) */
  tableEntry: 0.25,
  /** an NFA step over one character, besides the instructions it visits */
  nfaStep: 60,
  /** classifying a character new to the matcher, and per character set asked */
  classify: 150,
  classifyPerSet: 10,
  /** compiling a pattern with re2js: per call, per character, per instruction, per number of its classes' ranges */
  compile: 2000,
  compilePerCharacter: 50,
  compilePerInstruction: 1000,
  compilePerRange: 30,
  /** re2js's parser, before compiling: a code point of a class range folded one by one, and a Unicode table copied (folded: with its fold table) */
  foldedRune: 30,
  table: 60_000,
  foldedTable: 200_000,
} as const;
