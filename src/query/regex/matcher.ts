// Whether a text matches a program anywhere, with every step counted (costs.ts) and charged to a
// Work tally. The lazy DFA does the work; its cached transitions run in a tight loop over the
// characters below U+3000 that counts them in one go and never goes beyond what the tally allows. When the DFA
// builds states about as fast as it reads characters (a pattern like `(.{0,99}\pL){10}` makes a new
// state of hundreds of threads at almost every character) its cache fills; the rest of the request
// then runs the NFA, which takes the same steps without building states.
import { UNCOUNTED, type Work } from '../work-tally.ts';
import { COST } from './costs.ts';
import { DEAD, FIRST_STATE, FULL, LazyDfa, MATCHES, UNKNOWN } from './dfa.ts';
import type { Program } from './program.ts';
import { END, RuneClasses, TABLED } from './rune-classes.ts';
import { AT_BEGIN, MATCHED, Threads, contextAfter, contextMask, positionFlags } from './threads.ts';

/** Bytes one matcher's DFA cache may hold. */
export const DFA_CACHE_BYTES = 2 << 20;
/**
 * A full cache is cleared and the DFA goes on if it read at least this many characters per state
 * since it was last cleared; otherwise the NFA takes over (RE2 uses the same rule).
 */
const CHARACTERS_PER_STATE = 10;

export class Matcher {
  private readonly classes: RuneClasses;
  private readonly threads: Threads;
  private readonly dfa: LazyDfa;
  private readonly mask: number;
  private readonly initial: Int32Array;
  private readonly initialContext: number;
  /** the DFA's start state, where the literal prefix is searched for (-1: not searched) */
  private skipState = -1;
  private startState: number;
  /** characters the DFA read since its cache was cleared */
  private progress = 0;
  private nfaOnly = false;
  private bufferA: Int32Array | null = null;
  private bufferB: Int32Array | null = null;

  constructor(
    private readonly program: Program,
    cacheBytes = DFA_CACHE_BYTES,
  ) {
    this.classes = new RuneClasses(program);
    this.threads = new Threads(program);
    this.mask = contextMask(program);
    this.dfa = new LazyDfa(program, this.classes, this.threads, this.mask, cacheBytes);
    this.initial = program.anchored ? Int32Array.of(program.start) : new Int32Array(0);
    this.initialContext = AT_BEGIN & this.mask;
    this.startState = this.dfa.state(this.initial, this.initialContext, UNCOUNTED);
    this.markSkip();
  }

  /** Whether `text` has a match, counting the work into `work`. */
  test(text: string, work: Work): boolean {
    const program = this.program;
    work.add(COST.call);
    if (program.impossible) return false;
    if (this.nfaOnly) return this.nfa(text, 0, this.initial, this.initialContext, work);
    const dfa = this.dfa;
    const classes = this.classes;
    const classOf = classes.table;
    const n = text.length;
    let s = this.startState;
    let i = 0;
    for (;;) {
      // the cached transitions, up to what the tally allows
      const allowance = work.allowance;
      const stop = allowance >= (n - i) * COST.step ? n : i + Math.max(1, Math.floor(allowance / COST.step));
      const from = i;
      const table = dfa.table;
      const shift = dfa.shift;
      const skip = this.skipState;
      while (i < stop) {
        const c = text.charCodeAt(i);
        if (c >= TABLED || s === skip) break;
        const t = table[(s << shift) | classOf[c]];
        if (t < FIRST_STATE) break;
        s = t;
        i++;
      }
      work.add((i - from) * COST.step);
      this.progress += i - from;
      if (i >= n) break;
      if (i >= stop) continue;
      // one character the loop above could not take
      if (s === skip) {
        const at = text.indexOf(program.prefix, i);
        work.add(Math.ceil(((at < 0 ? n : at) - i) * COST.scanSixteenths / 16));
        if (at < 0) return false; // no match can begin anywhere further
        i = at;
      }
      // a surrogate pair is one character; a lone surrogate is one too, as re2js reads it
      const rune = text.codePointAt(i)!;
      const width = rune > 0xffff ? 2 : 1;
      const cls = classes.of(rune, work);
      let t = cls < 1 << dfa.shift ? dfa.table[(s << dfa.shift) | cls] : UNKNOWN;
      if (t === UNKNOWN) t = dfa.step(s, cls, work);
      if (t === FULL) {
        if (this.progress < CHARACTERS_PER_STATE * dfa.stateCount) {
          this.nfaOnly = true;
          const { threads, context } = dfa.threadsOf(s);
          return this.nfa(text, i, threads, context, work);
        }
        s = this.restart(s, work);
        continue;
      }
      if (t === MATCHES) return true;
      if (t === DEAD) return false;
      work.add(COST.slowStep);
      this.progress += width;
      s = t;
      i += width;
    }
    let t = dfa.table[(s << dfa.shift) | END];
    if (t === UNKNOWN) t = dfa.step(s, END, work);
    if (t === FULL) {
      s = this.restart(s, work);
      t = dfa.step(s, END, work);
    }
    return t === MATCHES;
  }

  /** Clears the DFA's cache, keeping state `s`; returns its new number. */
  private restart(s: number, work: Work): number {
    const kept = this.dfa.reset(s, work);
    this.startState = this.dfa.state(this.initial, this.initialContext, work);
    this.progress = 0;
    this.markSkip();
    return kept;
  }

  /**
   * The literal prefix is searched for with indexOf (an order of magnitude faster than stepping)
   * where no thread is alive: in the start state of an unanchored search whose states carry no
   * context, so that the state after the skipped text is that same state.
   */
  private markSkip(): void {
    const p = this.program;
    this.skipState = p.prefix !== '' && !p.anchored && this.mask === 0 ? this.startState : -1;
  }

  /** The rest of `text` from `i`, by NFA steps from the threads `pcs` after `context`. */
  private nfa(text: string, i: number, pcs: Int32Array, context: number, work: Work): boolean {
    const program = this.program;
    const classes = this.classes;
    const threads = this.threads;
    const withStart = !program.anchored;
    let current = (this.bufferA ??= new Int32Array(program.size));
    let next = (this.bufferB ??= new Int32Array(program.size));
    current.set(pcs);
    let count = pcs.length;
    const n = text.length;
    while (i < n) {
      // a surrogate pair is one character; a lone surrogate is one too, as re2js reads it
      const rune = text.codePointAt(i)!;
      const width = rune > 0xffff ? 2 : 1;
      const cls = classes.of(rune, work);
      const bits = classes.bits[cls];
      const k = threads.step(current, count, withStart, positionFlags(context, cls, bits), classes.accepts[cls], next);
      work.add(COST.nfaStep + threads.visited * COST.inst);
      if (k === MATCHED) return true;
      if (k === 0 && !withStart) return false;
      [current, next] = [next, current];
      count = k;
      context = contextAfter(bits) & this.mask;
      i += width;
    }
    const k = threads.step(current, count, withStart, positionFlags(context, END, 0), null, next);
    work.add(COST.nfaStep + threads.visited * COST.inst);
    return k === MATCHED;
  }
}
