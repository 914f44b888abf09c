// One step of the automaton over a program: the threads waiting at some instructions follow the
// empty-width instructions the current position satisfies, and those at a character set that
// accepts the next character move past it. This is a Pike VM step without captures or thread
// order (a yes/no match needs neither); the lazy DFA (dfa.ts) caches its results per state and
// class, and the matcher runs it directly when the DFA would build states faster than it uses them.
import { ALT, BEGIN_LINE, BEGIN_TEXT, EMPTY, END_LINE, END_TEXT, MATCH, NO_WORD_BOUNDARY, NOP, RUNE, WORD_BOUNDARY, type Program } from './program.ts';
import { END, NEWLINE, WORD } from './rune-classes.ts';

/** What `step` returns when a thread reached the match instruction: the text matches. */
export const MATCHED = -1;

/** Context carried from the character before a position (masked to what the program tests). */
export const AT_BEGIN = 1;
export const AFTER_NEWLINE = 2;
export const AFTER_WORD = 4;

/** The context bits a program can tell apart: the rest are dropped, so that states do not split on them. */
export function contextMask(program: Program): number {
  const needs = program.needs;
  return (
    (needs & (BEGIN_TEXT | BEGIN_LINE) ? AT_BEGIN : 0) |
    (needs & BEGIN_LINE ? AFTER_NEWLINE : 0) |
    (needs & (WORD_BOUNDARY | NO_WORD_BOUNDARY) ? AFTER_WORD : 0)
  );
}

/** The empty-width flags of the position between a character (`context`) and the next one (its class and class bits). */
export function positionFlags(context: number, cls: number, classBits: number): number {
  let flags = 0;
  if (context & AT_BEGIN) flags |= BEGIN_TEXT | BEGIN_LINE;
  if (context & AFTER_NEWLINE) flags |= BEGIN_LINE;
  let wordNext = false;
  if (cls === END) flags |= END_TEXT | END_LINE;
  else {
    if (classBits & NEWLINE) flags |= END_LINE;
    wordNext = (classBits & WORD) !== 0;
  }
  return flags | (((context & AFTER_WORD) !== 0) === wordNext ? NO_WORD_BOUNDARY : WORD_BOUNDARY);
}

/** The context after a character of a class with `classBits`. */
export function contextAfter(classBits: number): number {
  return (classBits & NEWLINE ? AFTER_NEWLINE : 0) | (classBits & WORD ? AFTER_WORD : 0);
}

export class Threads {
  private readonly stack: Int32Array;
  /** generation stamps: an instruction visited in this step, a thread already in `next` */
  private readonly seen: Uint32Array;
  private readonly taken: Uint32Array;
  private generation = 0;
  /** instructions visited by the last step: its work */
  visited = 0;

  constructor(private readonly program: Program) {
    this.stack = new Int32Array(program.size + 1);
    this.seen = new Uint32Array(program.size);
    this.taken = new Uint32Array(program.size);
  }

  /**
   * Steps the threads at `pcs[0 .. count)`, plus a new one at the program's start when
   * `withStart` (an unanchored search starts one at every position), over a position with empty-width
   * `flags`, then over a character of the class whose accepted sets are `accepts` (null: the end of
   * the text, where nothing moves on). Writes the threads after the character into `next` and
   * returns their number, or MATCHED.
   */
  step(pcs: ArrayLike<number>, count: number, withStart: boolean, flags: number, accepts: Uint8Array | null, next: Int32Array): number {
    const { op, out, arg } = this.program;
    const stack = this.stack;
    const seen = this.seen;
    const taken = this.taken;
    if (++this.generation === 0xffffffff) {
      seen.fill(0);
      taken.fill(0);
      this.generation = 1;
    }
    const g = this.generation;
    let sp = 0;
    for (let k = 0; k < count; k++) {
      const pc = pcs[k];
      if (seen[pc] !== g) {
        seen[pc] = g;
        stack[sp++] = pc;
      }
    }
    if (withStart) {
      const pc = this.program.start;
      if (seen[pc] !== g) {
        seen[pc] = g;
        stack[sp++] = pc;
      }
    }
    let visited = 0;
    let n = 0;
    while (sp > 0) {
      const pc = stack[--sp];
      visited++;
      switch (op[pc]) {
        case RUNE:
          if (accepts !== null && accepts[arg[pc]] === 1) {
            const to = out[pc];
            if (taken[to] !== g) {
              taken[to] = g;
              next[n++] = to;
            }
          }
          break;
        case ALT: {
          const a = out[pc];
          if (seen[a] !== g) {
            seen[a] = g;
            stack[sp++] = a;
          }
          const b = arg[pc];
          if (seen[b] !== g) {
            seen[b] = g;
            stack[sp++] = b;
          }
          break;
        }
        case NOP: {
          const a = out[pc];
          if (seen[a] !== g) {
            seen[a] = g;
            stack[sp++] = a;
          }
          break;
        }
        case EMPTY:
          if ((arg[pc] & ~flags) === 0) {
            const a = out[pc];
            if (seen[a] !== g) {
              seen[a] = g;
              stack[sp++] = a;
            }
          }
          break;
        case MATCH:
          this.visited = visited;
          return MATCHED;
        // FAIL: the thread ends
      }
    }
    this.visited = visited;
    return n;
  }
}
