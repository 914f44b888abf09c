import { describe, expect, it } from 'vitest';
import { reloader } from './reload.ts';

describe('reloader', () => {
  it('retries a failed load with backoff until it succeeds; not ready meanwhile; one log line per problem', async () => {
    let failures = 3;
    const attempts: number[] = [];
    const logged: string[] = [];
    const r = reloader({
      load() {
        attempts.push(Date.now());
        if (failures-- > 0) throw new Error('data/events.jsonl: does not match');
      },
      log: (line) => logged.push(line),
      firstRetryMs: 20,
    });
    expect(r.ready).toBe(true);
    expect(r.reload()).toBe(false);
    expect(r.ready).toBe(false);
    await expect.poll(() => r.ready, { timeout: 2_000, interval: 5 }).toBe(true);
    expect(attempts).toHaveLength(4);
    // doubling: each wait at least the one before
    const waits = attempts.slice(1).map((t, i) => t - attempts[i]);
    expect(waits[1]).toBeGreaterThanOrEqual(waits[0] - 5);
    expect(waits[2]).toBeGreaterThanOrEqual(waits[1] - 5);
    expect(logged).toEqual(['kept serving the previous data: data/events.jsonl: does not match (retrying until the dist is complete)']);
  });

  it('stops retrying when stopped', async () => {
    let attempts = 0;
    const r = reloader({
      load() {
        attempts++;
        throw new Error('broken');
      },
      log: () => {},
      firstRetryMs: 10,
    });
    r.reload();
    r.stop();
    await new Promise((ok) => setTimeout(ok, 100));
    expect(attempts).toBe(1);
    expect(r.ready).toBe(false);
  });
});
