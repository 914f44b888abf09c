// A lazy DFA over a program (RE2's design): a state is a set of threads (instruction indices,
// sorted) plus the context of the character before; its transition on a character class is
// computed by one Threads step the first time it is needed and cached in a flat table. The
// cache is bounded in bytes: when a new state would not fit, the caller either clears it and goes
// on, or, when states are being built about as fast as characters are read, leaves the rest of the
// text to the NFA (matcher.ts).
import { COST } from './costs.ts';
import type { Program } from './program.ts';
import { END, type RuneClasses } from './rune-classes.ts';
import { MATCHED, contextAfter, positionFlags, type Threads } from './threads.ts';
import type { Work } from '../work-tally.ts';

/** Table entries: not computed yet, no thread left (anchored search only), the text matches. */
export const UNKNOWN = 0;
export const DEAD = 1;
export const MATCHES = 2;
/** The first real state's number; `next` answers FULL when the cache has no room for a new state. */
export const FIRST_STATE = 3;
export const FULL = -1;

/** Bytes a state costs besides its threads and table row (objects, map entry). */
const STATE_OVERHEAD = 96;
const NO_THREADS = new Int32Array(0);

export class LazyDfa {
  /** transitions: table[(state << shift) | class] */
  table: Int32Array;
  shift: number;
  /** per state: its threads and context */
  private kernels: Int32Array[] = [];
  private contexts: number[] = [];
  private readonly byHash = new Map<number, number | number[]>();
  private bytes = 0;
  private readonly next: Int32Array;
  private readonly withStart: boolean;

  constructor(
    private readonly program: Program,
    private readonly classes: RuneClasses,
    private readonly threads: Threads,
    private readonly contextMask: number,
    private readonly maxBytes: number,
  ) {
    this.next = new Int32Array(program.size);
    this.withStart = !program.anchored;
    this.shift = strideShift(classes.count);
    this.table = new Int32Array(64 << this.shift);
    this.clear();
  }

  /** states built since the cache was last cleared */
  get stateCount(): number {
    return this.kernels.length - FIRST_STATE;
  }

  /** The state with threads `kernel` (sorted, owned by the DFA from now on) after `context`; FULL if it does not fit. */
  state(kernel: Int32Array, context: number, work: Work): number {
    context &= this.contextMask;
    work.add(kernel.length * COST.kernel);
    let h = Math.imul(context ^ 0x811c9dc5, 16777619);
    for (let i = 0; i < kernel.length; i++) h = Math.imul(h ^ kernel[i], 16777619);
    const found = this.byHash.get(h);
    if (found !== undefined) {
      if (typeof found === 'number') {
        if (this.isState(found, kernel, context)) return found;
      } else {
        for (const s of found) if (this.isState(s, kernel, context)) return s;
      }
    }
    const stride = 1 << this.shift;
    const size = STATE_OVERHEAD + 4 * (kernel.length + stride);
    if (this.bytes + size > this.maxBytes && this.stateCount > 0) return FULL;
    work.add(COST.state + stride * COST.stateRow);
    this.bytes += size;
    const s = this.kernels.length;
    this.kernels.push(kernel);
    this.contexts.push(context);
    if (found === undefined) this.byHash.set(h, s);
    else if (typeof found === 'number') this.byHash.set(h, [found, s]);
    else found.push(s);
    if ((s + 1) << this.shift > this.table.length) this.grow(this.shift, (s + 1) * 2, work);
    return s;
  }

  /** The state after `s` over a character of class `cls` (END: the end of the text), computed and cached. */
  step(s: number, cls: number, work: Work): number {
    if (cls >= 1 << this.shift) this.grow(strideShift(this.classes.count), this.table.length >> this.shift, work);
    const classes = this.classes;
    const classBits = classes.bits[cls];
    const kernel = this.kernels[s];
    const flags = positionFlags(this.contexts[s], cls, classBits);
    const n = this.threads.step(kernel, kernel.length, this.withStart, flags, cls === END ? null : classes.accepts[cls], this.next);
    work.add(COST.transition + this.threads.visited * COST.inst);
    let t: number;
    if (n === MATCHED) t = MATCHES;
    else if (cls === END || (n === 0 && !this.withStart)) t = DEAD;
    else {
      const threads = n === 0 ? NO_THREADS : this.next.slice(0, n).sort();
      t = this.state(threads, contextAfter(classBits), work);
      if (t === FULL) return FULL;
    }
    this.table[(s << this.shift) | cls] = t;
    return t;
  }

  /** Empties the cache, keeping state `s` (which gets a new number, returned). */
  reset(s: number, work: Work): number {
    const kernel = this.kernels[s];
    const context = this.contexts[s];
    work.add(this.table.length * COST.tableEntry);
    this.clear();
    return this.state(kernel, context, work);
  }

  /** The threads and context of state `s`, for the NFA to go on from. */
  threadsOf(s: number): { threads: Int32Array; context: number } {
    return { threads: this.kernels[s], context: this.contexts[s] };
  }

  private clear(): void {
    this.kernels = [NO_THREADS, NO_THREADS, NO_THREADS];
    this.contexts = [0, 0, 0];
    this.byHash.clear();
    this.bytes = 0;
    this.table.fill(0);
  }

  private isState(s: number, kernel: Int32Array, context: number): boolean {
    if (this.contexts[s] !== context) return false;
    const k = this.kernels[s];
    if (k.length !== kernel.length) return false;
    for (let i = 0; i < k.length; i++) if (k[i] !== kernel[i]) return false;
    return true;
  }

  /** Re-lays the table for `shift` (more classes) and room for `states` states. */
  private grow(shift: number, states: number, work: Work): void {
    work.add((states << shift) * COST.tableEntry);
    const old = this.table;
    const oldShift = this.shift;
    const table = new Int32Array(states << shift);
    const rows = Math.min(old.length >> oldShift, states);
    const width = 1 << oldShift;
    for (let s = 0; s < rows; s++) table.set(old.subarray(s << oldShift, (s << oldShift) + width), s << shift);
    if (shift !== oldShift) this.bytes += 4 * this.kernels.length * ((1 << shift) - width);
    this.table = table;
    this.shift = shift;
  }
}

/** log2 of the table's row width: a power of two that holds `classes` classes, with room to grow. */
function strideShift(classes: number): number {
  return Math.max(3, 32 - Math.clz32(classes + 3));
}
