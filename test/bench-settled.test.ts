// bench/processes.ts `settled`: the bench waits for a started server to finish any background work
// before a pass is measured.
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { childPids, SERVER_QUIET_MS, settled, treeCpuTicks } from '../bench/processes.ts';

describe('settled', () => {
  it('waits while the process tree is busy (here a child), and resolves once it is idle', async () => {
    // a parent that idles and a child that spins for 1.5 s of CPU, then idles too
    const script = `require('child_process').spawn(process.execPath, ['-e', 'const t=Date.now(); while (Date.now()-t<1500); setInterval(()=>{}, 1000)'], { stdio: 'ignore' }); setInterval(()=>{}, 1000);`;
    const parent = spawn(process.execPath, ['-e', script], { stdio: 'ignore' });
    try {
      await new Promise((r) => setTimeout(r, 300));
      const started = Date.now();
      expect(await settled(parent.pid!, 500, 20_000)).toBe(true);
      // the child's spin is counted: settling took at least most of the spin
      expect(Date.now() - started).toBeGreaterThan(900);
      expect(treeCpuTicks(parent.pid!)).toBeGreaterThan(50); // ≥ 0.5 s of CPU in the tree
    } finally {
      for (const child of childPids(parent.pid!)) process.kill(child, 'SIGKILL');
      parent.kill('SIGKILL');
    }
  }, 30_000);

  it('waits out work that starts after a quiet spell when asked to be quiet for longer than the spell', async () => {
    // quiet for 1 s after start, then 1 s of CPU, then quiet again
    const script = 'setTimeout(() => { const t = Date.now(); while (Date.now() - t < 1000); }, 1000); setInterval(() => {}, 1000);';
    for (const [quietMs, waitsOut] of [[500, false], [SERVER_QUIET_MS, true]] as const) {
      const server = spawn(process.execPath, ['-e', script], { stdio: 'ignore' });
      try {
        const started = Date.now();
        expect(await settled(server.pid!, quietMs, 20_000)).toBe(true);
        // the spin ends ~2 s after the start; a short quiet spell is over well before that
        expect(Date.now() - started > 2000).toBe(waitsOut);
      } finally {
        server.kill('SIGKILL');
      }
    }
  }, 30_000);

  it('gives up after its bound when the tree never idles', async () => {
    const busy = spawn(process.execPath, ['-e', 'for(;;);'], { stdio: 'ignore' });
    try {
      expect(await settled(busy.pid!, 500, 1_500)).toBe(false);
    } finally {
      busy.kill('SIGKILL');
    }
  }, 10_000);
});
