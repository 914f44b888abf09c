// Loaded into a measured process with `node --import` (bench/peak-rss.ts): at exit it appends the
// process's own peak RSS (getrusage ru_maxrss, all threads, worker threads included) and CPU time
// to the file named by AULA_BENCH_RUSAGE, one JSON line per process. Sampling /proc from outside
// can miss a peak in the last moments before exit; the kernel's own figure cannot. Plain JS, so
// the measured process needs no TypeScript loader that would add its own memory.
//
// The main thread only: the preload runs in every worker thread too (they inherit --import), and a
// worker's process.resourceUsage() is the whole process's; one line per worker that exits summed
// the process's CPU as many times (a cold build's parse, directory and compression workers made
// 59 s of CPU read as 88 s).
import { appendFileSync } from 'node:fs';
import { isMainThread } from 'node:worker_threads';

const file = process.env.AULA_BENCH_RUSAGE;
if (file && isMainThread) {
  process.on('exit', () => {
    const u = process.resourceUsage();
    try {
      appendFileSync(file, `${JSON.stringify({ pid: process.pid, maxRssBytes: u.maxRSS * 1024, userUs: u.userCPUTime, systemUs: u.systemCPUTime })}\n`);
    } catch {
      // the bench reads what it finds; a missing line only loses this process's exact peak
    }
  });
}
