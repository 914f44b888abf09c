// Loaded into `aula serve` by the bench with `node --import` (cluster workers inherit it): every
// 250 ms the process writes its process.memoryUsage() to <AULA_BENCH_MEMORY>/<pid>.json, so the
// report can say what an RSS figure is made of (V8's heap, ArrayBuffers and other memory outside
// the heap, the rest: code, stacks, malloc) for each process of a pass. Plain JS, main thread
// only, the timer unref'd: it never keeps a server alive and costs it next to nothing.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isMainThread } from 'node:worker_threads';

const dir = process.env.AULA_BENCH_MEMORY;
if (dir && isMainThread) {
  const file = join(dir, `${process.pid}.json`);
  const write = () => {
    try {
      writeFileSync(file, JSON.stringify({ pid: process.pid, at: Date.now(), ...process.memoryUsage() }));
    } catch {
      // the report reads what it finds
    }
  };
  write();
  setInterval(write, 250).unref();
}
