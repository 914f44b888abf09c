// Counts the work of one loop and charges it to the request's meter (work-budget.ts) in batches:
// a call into the meter per character or per candidate would cost more than the work it counts.
//
// A tally never lets its loop count past what the request has left: it charges as soon as its
// count goes beyond the request's remaining units (the charge throws WorkLimitExceeded), and a loop
// that counts a stretch of work itself (the regex automaton over a long text) asks `allowance`
// first and does no more than that before reporting.
import { activeMeter, type WorkMeter } from './work-budget.ts';

/** Units counted between two charges to the meter: about a millisecond of work. */
export const TALLY_BATCH = 1 << 20;

/** What a counting loop needs of a tally (the regex matcher takes any). */
export interface Work {
  /** Counts `units` more; throws WorkLimitExceeded once the request goes past its limit. */
  add(units: number): void;
  /** Units that may still be counted before `add` must charge the meter (Infinity outside a request). */
  readonly allowance: number;
}

/** Counts nothing: for callers outside a request that have no meter to charge. */
export const UNCOUNTED: Work = { add() {}, allowance: Infinity };

export class WorkTally implements Work {
  private pending = 0;
  private room: number;
  private readonly meter: WorkMeter | null;

  /** `what`: the query parameter the work is done for, as a refusal names it. */
  constructor(readonly what: string) {
    this.meter = activeMeter();
    this.room = this.meter === null ? Infinity : Math.min(TALLY_BATCH, this.meter.left);
  }

  add(units: number): void {
    this.pending += units;
    if (this.pending > this.room) this.settle();
  }

  get allowance(): number {
    return this.room - this.pending;
  }

  /** Units the request may still spend beyond what this tally counted (Infinity outside a request). */
  get left(): number {
    return this.meter === null ? Infinity : this.meter.left - this.pending;
  }

  /** Charges what was counted so far; a loop calls it when it ends, so the meter holds all of it. */
  settle(): void {
    const units = this.pending;
    this.pending = 0;
    if (this.meter === null) return;
    this.meter.charge(units, this.what);
    this.room = Math.min(TALLY_BATCH, this.meter.left);
  }
}
