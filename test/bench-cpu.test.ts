// bench/start-up.ts's CPU reading of a process tree: a thread's own counters go with it when it
// ends, and the start-up figures subtract one reading from a later one, so the reading must keep
// an ended thread's CPU and never fall.
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { afterEach, describe, expect, it } from 'vitest';
import { treeCpuNs, treeSchedNs } from '../bench/start-up.ts';

const children: ReturnType<typeof spawn>[] = [];
afterEach(() => {
  for (const c of children.splice(0)) c.kill('SIGKILL');
});

// a worker thread does a fixed amount of work (some 0.2–0.5 s of CPU) and ends; the process then idles
const PROGRAM = `
const { Worker } = require('node:worker_threads');
const w = new Worker("let x = 0; for (let i = 0; i < 4e8; i++) x = (x + i) | 0; require('node:worker_threads').parentPort.postMessage(x);", { eval: true });
w.on('message', () => console.log('worked'));
w.on('exit', () => { console.log('ended'); setInterval(() => {}, 1000); });
`;

describe('treeCpuNs', () => {
  it("keeps an ended thread's CPU, and never reads less than before", async () => {
    const child = spawn(process.execPath, ['-e', PROGRAM], { stdio: ['ignore', 'pipe', 'inherit'] });
    children.push(child);
    const readings: Record<string, number> = {};
    for await (const line of createInterface({ input: child.stdout! })) {
      readings[line] = treeCpuNs(child.pid!);
      if (line === 'ended') break;
    }
    expect(readings.ended).toBeGreaterThanOrEqual(readings.worked);
    // the live threads' counters alone have lost the worker's work: at least 100 ms of it is still counted
    expect(readings.ended - treeSchedNs(child.pid!).run).toBeGreaterThan(100e6);
  });
});
