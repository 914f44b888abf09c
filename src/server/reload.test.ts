import { describe, expect, it } from 'vitest';
import { EVENTUALLY } from '../../test/helpers.ts';
import { reloader } from './reload.ts';

/** A clock the test turns by hand: what the reloader scheduled, with its delay, until cancelled or run. */
function handClock() {
  const pending: { run: () => Promise<boolean>; ms: number; cancelled: boolean }[] = [];
  return {
    schedule(run: () => Promise<boolean>, ms: number) {
      const entry = { run, ms, cancelled: false };
      pending.push(entry);
      return () => void (entry.cancelled = true);
    },
    /** delays of the retries scheduled so far, cancelled ones too */
    get delays() {
      return pending.map((p) => p.ms);
    },
    /** runs the next retry that is still due, to its end; false when there is none */
    async next(): Promise<boolean> {
      const due = pending.find((p) => !p.cancelled);
      if (!due) return false;
      due.cancelled = true;
      await due.run();
      return true;
    },
  };
}

describe('reloader', () => {
  it('retries a failed load with backoff until it succeeds; not ready meanwhile; one log line per problem', async () => {
    let failures = 3;
    let attempts = 0;
    const logged: string[] = [];
    const clock = handClock();
    const r = reloader({
      async load() {
        attempts++;
        if (failures-- > 0) throw new Error('data/events.jsonl: does not match');
      },
      log: (line) => logged.push(line),
      firstRetryMs: 20,
      schedule: clock.schedule,
    });
    expect(r.ready).toBe(true);
    expect(await r.reload()).toBe(false);
    expect(r.ready).toBe(false);
    const readyAfter: boolean[] = [];
    while (await clock.next()) readyAfter.push(r.ready);
    expect(readyAfter).toEqual([false, false, true]);
    expect(attempts).toBe(4);
    // doubling, from the first delay
    expect(clock.delays).toEqual([20, 40, 80]);
    expect(logged).toEqual(['kept serving the previous data: data/events.jsonl: does not match (retrying until the dist is complete)']);
  });

  it('doubles up to its bound, and starts from the first delay again at an outside reload', async () => {
    const clock = handClock();
    const logged: string[] = [];
    let problem = 'a';
    const r = reloader({
      async load() {
        throw new Error(problem);
      },
      log: (line) => logged.push(line),
      firstRetryMs: 100,
      maxRetryMs: 500,
      schedule: clock.schedule,
    });
    await r.reload();
    for (let i = 0; i < 4; i++) await clock.next();
    expect(clock.delays).toEqual([100, 200, 400, 500, 500]);
    // a manifest changed meanwhile: the pending retry gives way to a fresh backoff
    problem = 'b';
    await r.reload();
    expect(clock.delays.slice(5)).toEqual([100]);
    expect(await clock.next()).toBe(true);
    expect(await clock.next()).toBe(true);
    expect(clock.delays.slice(5)).toEqual([100, 200, 400]);
    // one line per new problem, not one per retry
    expect(logged.map((l) => l.split(': ')[1])).toEqual(['a (retrying until the dist is complete)', 'b (retrying until the dist is complete)']);
    r.stop();
  });

  it('stops retrying when stopped', async () => {
    let attempts = 0;
    const clock = handClock();
    const r = reloader({
      async load() {
        attempts++;
        throw new Error('broken');
      },
      log: () => {},
      firstRetryMs: 10,
      schedule: clock.schedule,
    });
    await r.reload();
    expect(clock.delays).toEqual([10]);
    r.stop();
    // the retry it had scheduled is cancelled, and nothing more is scheduled
    expect(await clock.next()).toBe(false);
    expect(attempts).toBe(1);
    expect(r.ready).toBe(false);
  });

  it('retries on a timer of its own by default', async () => {
    let attempts = 0;
    const r = reloader({
      async load() {
        if (++attempts < 3) throw new Error('broken');
      },
      log: () => {},
      firstRetryMs: 1,
    });
    await r.reload();
    await expect.poll(() => r.ready, EVENTUALLY).toBe(true);
    expect(attempts).toBe(3);
  });

  /** loads that end when the test says: how many started, how many ran at once at most */
  function heldLoads(fail = () => false) {
    const held: (() => void)[] = [];
    const counts = { started: 0, running: 0, most: 0 };
    const load = () =>
      new Promise<void>((done, refuse) => {
        counts.started++;
        counts.most = Math.max(counts.most, ++counts.running);
        held.push(() => {
          counts.running--;
          if (fail()) refuse(new Error('broken'));
          else done();
        });
      });
    return { load, counts, end: () => held.shift()!() };
  }

  it('runs one load at a time: triggers during a load load once more after it, not once each', async () => {
    const loads = heldLoads();
    const r = reloader({ load: loads.load, log: () => {} });
    const first = r.reload();
    const during = [r.reload(), r.reload(), r.reload()];
    expect(loads.counts.started).toBe(1);
    // every trigger during the load is answered by the one load after it
    expect(new Set(during).size).toBe(1);
    loads.end();
    expect(await first).toBe(true);
    await new Promise(setImmediate);
    expect(loads.counts.started).toBe(2);
    loads.end();
    expect(await during[0]).toBe(true);
    expect(loads.counts).toEqual({ started: 2, running: 0, most: 1 });
  });

  it('a trigger during a failing load replaces its retry with a fresh load; stopped, it loads nothing more', async () => {
    let failing = true;
    const loads = heldLoads(() => failing);
    const clock = handClock();
    const r = reloader({ load: loads.load, log: () => {}, firstRetryMs: 10, schedule: clock.schedule });
    const first = r.reload();
    const again = r.reload();
    loads.end();
    expect(await first).toBe(false);
    await new Promise(setImmediate);
    // the retry the failure scheduled gave way to the load asked for meanwhile
    expect(await clock.next()).toBe(false);
    expect(loads.counts.started).toBe(2);
    failing = false;
    loads.end();
    expect(await again).toBe(true);
    expect(r.ready).toBe(true);
    const third = r.reload();
    const fourth = r.reload();
    r.stop();
    loads.end();
    // a load that finishes after stop swapped nothing (live-data drops what it loaded)
    expect(await third).toBe(false);
    expect(await fourth).toBe(false);
    expect(loads.counts.started).toBe(3);
  });

  it('stopped, starts nothing: a reload (a SIGHUP during the drain) resolves false at once', async () => {
    let started = 0;
    const r = reloader({ load: async () => void started++, log: () => {} });
    r.stop();
    expect(await r.reload()).toBe(false);
    expect(started).toBe(0);
  });

  it('a load that swapped nothing on purpose (its data replaced meanwhile) resolves false and is not retried', async () => {
    const clock = handClock();
    const r = reloader({ load: async () => false, log: () => {}, schedule: clock.schedule });
    expect(await r.reload()).toBe(false);
    expect(r.ready).toBe(true);
    expect(clock.delays).toEqual([]);
  });

  it('replaced (aula dev swapped its own data in): the retries pending are cancelled, and it is ready again', async () => {
    const clock = handClock();
    let attempts = 0;
    const r = reloader({
      async load() {
        attempts++;
        throw new Error('broken');
      },
      log: () => {},
      schedule: clock.schedule,
    });
    expect(await r.reload()).toBe(false);
    expect(r.ready).toBe(false);
    r.replaced();
    expect(r.ready).toBe(true);
    expect(await clock.next()).toBe(false);
    expect(attempts).toBe(1);
  });
});
