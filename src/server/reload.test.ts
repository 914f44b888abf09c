import { describe, expect, it } from 'vitest';
import { EVENTUALLY } from '../../test/helpers.ts';
import { reloader } from './reload.ts';

/** A clock the test turns by hand: what the reloader scheduled, with its delay, until cancelled or run. */
function handClock() {
  const pending: { run: () => void; ms: number; cancelled: boolean }[] = [];
  return {
    schedule(run: () => void, ms: number) {
      const entry = { run, ms, cancelled: false };
      pending.push(entry);
      return () => void (entry.cancelled = true);
    },
    /** delays of the retries scheduled so far, cancelled ones too */
    get delays() {
      return pending.map((p) => p.ms);
    },
    /** runs the next retry that is still due; false when there is none */
    next(): boolean {
      const due = pending.find((p) => !p.cancelled);
      if (!due) return false;
      due.cancelled = true;
      due.run();
      return true;
    },
  };
}

describe('reloader', () => {
  it('retries a failed load with backoff until it succeeds; not ready meanwhile; one log line per problem', () => {
    let failures = 3;
    let attempts = 0;
    const logged: string[] = [];
    const clock = handClock();
    const r = reloader({
      load() {
        attempts++;
        if (failures-- > 0) throw new Error('data/events.jsonl: does not match');
      },
      log: (line) => logged.push(line),
      firstRetryMs: 20,
      schedule: clock.schedule,
    });
    expect(r.ready).toBe(true);
    expect(r.reload()).toBe(false);
    expect(r.ready).toBe(false);
    const readyAfter: boolean[] = [];
    while (clock.next()) readyAfter.push(r.ready);
    expect(readyAfter).toEqual([false, false, true]);
    expect(attempts).toBe(4);
    // doubling, from the first delay
    expect(clock.delays).toEqual([20, 40, 80]);
    expect(logged).toEqual(['kept serving the previous data: data/events.jsonl: does not match (retrying until the dist is complete)']);
  });

  it('doubles up to its bound, and starts from the first delay again at an outside reload', () => {
    const clock = handClock();
    const logged: string[] = [];
    let problem = 'a';
    const r = reloader({
      load() {
        throw new Error(problem);
      },
      log: (line) => logged.push(line),
      firstRetryMs: 100,
      maxRetryMs: 500,
      schedule: clock.schedule,
    });
    r.reload();
    for (let i = 0; i < 4; i++) clock.next();
    expect(clock.delays).toEqual([100, 200, 400, 500, 500]);
    // a manifest changed meanwhile: the pending retry gives way to a fresh backoff
    problem = 'b';
    r.reload();
    expect(clock.delays.slice(5)).toEqual([100]);
    expect(clock.next()).toBe(true);
    expect(clock.next()).toBe(true);
    expect(clock.delays.slice(5)).toEqual([100, 200, 400]);
    // one line per new problem, not one per retry
    expect(logged.map((l) => l.split(': ')[1])).toEqual(['a (retrying until the dist is complete)', 'b (retrying until the dist is complete)']);
    r.stop();
  });

  it('stops retrying when stopped', () => {
    let attempts = 0;
    const clock = handClock();
    const r = reloader({
      load() {
        attempts++;
        throw new Error('broken');
      },
      log: () => {},
      firstRetryMs: 10,
      schedule: clock.schedule,
    });
    r.reload();
    expect(clock.delays).toEqual([10]);
    r.stop();
    // the retry it had scheduled is cancelled, and nothing more is scheduled
    expect(clock.next()).toBe(false);
    expect(attempts).toBe(1);
    expect(r.ready).toBe(false);
  });

  it('retries on a timer of its own by default', async () => {
    let attempts = 0;
    const r = reloader({
      load() {
        if (++attempts < 3) throw new Error('broken');
      },
      log: () => {},
      firstRetryMs: 1,
    });
    r.reload();
    await expect.poll(() => r.ready, EVENTUALLY).toBe(true);
    expect(attempts).toBe(3);
  });
});
