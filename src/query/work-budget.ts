// The work one request may do. Every loop whose length a request's parameters decide (a regex
// automaton stepping over text, a substring scan over distinct values, rows rendered for an
// answer, autocomplete candidates, calendar entries) charges the units it does to the budget of
// the request being answered. A request that would go past its limit stops at once and is
// answered with a 400 naming what was too expensive, never with a partial result.
//
// The work is counted, not timed: the same request over the same data is answered the same way
// on every machine, every runtime and under any load, and a busy machine cannot turn a cheap
// request into a refused one. A unit is about a nanosecond of CPU on a current core (each site
// says how it counts), so the default limit bounds how long one request can keep the event loop
// busy.
//
// The API core runs each request inside `metered` (it is synchronous, so one request is charged
// at a time); code that runs outside a request (the build, tests) is charged to nothing.

/**
 * Units one request may spend unless the API is given another limit: about 20 ms of one core. A
 * request holds the event loop for that long at most, so a cheap request sent behind two of the
 * costliest waits ~40 ms; every realistic query at 100,000 events fits (a one-letter search
 * over every teaser, a 1,000-event page expanded: ~12-15 M).
 */
export const DEFAULT_WORK_LIMIT = 20_000_000;

/** Thrown by `charge` when the request being answered goes past its limit. */
export class WorkLimitExceeded extends Error {
  constructor(
    /** the query parameter whose work went past the limit, or a description of the work */
    readonly what: string,
    readonly limit: number,
  ) {
    super(`${what}: the request needs more than its limit of ${limit} units of work`);
    this.name = 'WorkLimitExceeded';
  }
}

/** Counts the units of one request. */
export class WorkMeter {
  used = 0;
  /** the meter that was active when this one was: it counts this one's units too */
  outer: WorkMeter | null = null;
  constructor(readonly limit: number) {}

  charge(units: number, what: string): void {
    this.used += units;
    if (this.used > this.limit) throw new WorkLimitExceeded(what, this.limit);
    this.outer?.charge(units, what);
  }

  /** The units left before the limit (never negative). */
  get left(): number {
    return Math.max(0, this.limit - this.used);
  }
}

let active: WorkMeter | null = null;

/**
 * Runs `work` with `meter` counting every charge made while it runs (and the meter active before,
 * if any, counting them too: a test or a bench can measure what the core spends); restores the
 * previous meter after.
 */
export function metered<T>(meter: WorkMeter, work: () => T): T {
  const outer = active;
  meter.outer = outer;
  active = meter;
  try {
    return work();
  } finally {
    active = outer;
    meter.outer = null;
  }
}

/** Runs `work` charged to no meter: what is done for a request already refused (its short answer). */
export function unmetered<T>(work: () => T): T {
  const outer = active;
  active = null;
  try {
    return work();
  } finally {
    active = outer;
  }
}

/** Charges `units` of work for `what` to the request being answered; a no-op outside a request. */
export function charge(units: number, what: string): void {
  if (active !== null) active.charge(units, what);
}

/** The meter of the request being answered, or null outside a request. */
export function activeMeter(): WorkMeter | null {
  return active;
}
