// bench/processes.ts `settled`: the bench waits for a started server to finish any background work
// before a pass is measured. Its rule runs
// here on a clock the test turns (a process tree's CPU ticks scripted against time), so no result
// depends on how busy the machine is; one real process tree shows what it reads is that tree's.
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { childPids, SERVER_QUIET_MS, settled, treeCpuTicks, type SettleClock } from '../bench/processes.ts';

/**
 * A clock whose time moves only when `settled` sleeps, and a process tree that has spent
 * `ticksAt(ms)` clock ticks of CPU by then; `at` is when `settled` ended.
 */
function scripted(ticksAt: (ms: number) => number) {
  let now = 0;
  const clock: SettleClock = {
    now: () => now,
    sleep: async (ms) => void (now += ms),
  };
  return {
    clock,
    cpuTicks: () => ticksAt(now),
    get at() {
      return now;
    },
  };
}

/** 10 ticks per 100 ms (a core's worth) between `from` and `to`, none before or after. */
const busyBetween = (from: number, to: number) => (ms: number) => Math.max(0, Math.min(ms, to) - from) / 10;

describe('settled', () => {
  it('waits while the process tree is busy, and resolves once it has been idle for the quiet time', async () => {
    const tree = scripted(busyBetween(0, 1_500));
    expect(await settled(1, 500, 20_000, 2, tree.clock, tree.cpuTicks)).toBe(true);
    expect(tree.at).toBeGreaterThanOrEqual(2_000);
    expect(tree.at).toBeLessThanOrEqual(2_100);
  });

  it("waits out work that starts after a quiet second when asked for the server's quiet time", async () => {
    // quiet for 1 s after start, then 1 s of CPU, then quiet again
    const late = busyBetween(1_000, 2_000);
    const short = scripted(late);
    expect(await settled(1, 500, 20_000, 2, short.clock, short.cpuTicks)).toBe(true);
    expect(short.at).toBeLessThan(1_000);
    const long = scripted(late);
    expect(await settled(1, SERVER_QUIET_MS, 20_000, 2, long.clock, long.cpuTicks)).toBe(true);
    expect(long.at).toBeGreaterThanOrEqual(2_000 + SERVER_QUIET_MS);
  });

  it('tolerates the few ticks an idle server spends on timers', async () => {
    // one tick every 300 ms
    const tree = scripted((ms) => Math.floor(ms / 300));
    expect(await settled(1, 500, 20_000, 2, tree.clock, tree.cpuTicks)).toBe(true);
  });

  it('gives up after its bound when the tree never idles', async () => {
    const tree = scripted((ms) => ms / 10);
    expect(await settled(1, 500, 1_500, 2, tree.clock, tree.cpuTicks)).toBe(false);
    expect(tree.at).toBeGreaterThanOrEqual(1_500);
  });

  it("reads a real process tree's CPU, its children's too, and resolves once the tree is idle", async () => {
    // a parent that idles, and a child that spins for 0.6 s of its own CPU, says so, then idles
    const child = [
      'const t = process.cpuUsage();',
      'const spent = () => { const u = process.cpuUsage(t); return u.user + u.system; };',
      'let x = 0;',
      'while (spent() < 600000) for (let i = 0; i < 1e6; i++) x += i;',
      "console.log('spun', x > 0);",
      'setInterval(() => {}, 1000);',
    ].join(' ');
    const script = `require('child_process').spawn(process.execPath, ['-e', ${JSON.stringify(child)}], { stdio: 'inherit' }); setInterval(() => {}, 1000);`;
    const parent = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'ignore'] });
    try {
      await new Promise((spun) => parent.stdout!.once('data', spun));
      expect(treeCpuTicks(parent.pid!)).toBeGreaterThanOrEqual(55);
      expect(await settled(parent.pid!, 500, 100_000)).toBe(true);
    } finally {
      for (const c of childPids(parent.pid!)) process.kill(c, 'SIGKILL');
      parent.kill('SIGKILL');
    }
  });
});
