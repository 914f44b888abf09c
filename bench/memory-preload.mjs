// Loaded into `aula serve` by the bench with `node --import` (cluster workers inherit it): every
// 250 ms the process writes its process.memoryUsage() to <AULA_BENCH_MEMORY>/<pid>.json, so the
// report can say what an RSS figure is made of (V8's heap, ArrayBuffers and other memory outside
// the heap, the rest: code, stacks, malloc) for each process of a pass. Plain JS, main thread
// only, the timer unref'd: it never keeps a server alive.
//
// The file is opened once and each sample written over the last one in place, padded to one
// length: rewriting it whole (open with O_TRUNC) frees its block each time, and on this host's
// ext4 (mounted `discard`) that open waits on the journal and the device for milliseconds, on the
// server's main thread, four times a second: a stall of every answer in flight, which the load
// passes' p99 would count as the server's. JSON.parse reads the padding as whitespace.
import { openSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { isMainThread } from 'node:worker_threads';

/** bytes of every sample written (a memoryUsage() record is ~150) */
const RECORD_BYTES = 512;

const dir = process.env.AULA_BENCH_MEMORY;
if (dir && isMainThread) {
  let fd = -1;
  try {
    fd = openSync(join(dir, `${process.pid}.json`), 'w');
  } catch {
    // the report reads what it finds
  }
  const write = () => {
    try {
      writeSync(fd, JSON.stringify({ pid: process.pid, at: Date.now(), ...process.memoryUsage() }).padEnd(RECORD_BYTES), 0, 'utf8');
    } catch {
      // the report reads what it finds
    }
  };
  if (fd >= 0) {
    write();
    setInterval(write, 250).unref();
  }
}
