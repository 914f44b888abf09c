// How long it takes to create a file where a build is about to create its ~15,000 (100k events),
// probed just before the build. On ext4 (Linux 6.18 here) a file created within a minute or more
// of many deletions in the same block group costs ~0.5 ms instead of ~15 µs: the kernel steps over
// each recently freed inode (recently_deleted, in a perf profile of open()), as system time. A
// cold build's system time then went from ~5 to ~15 s, its wall time by up to 7 s, with the same
// work: the bench says so beside the figure rather than report the host's state as aula's.
//
// The probe's files are left where they are: deleting them would slow the creates after them.
import { closeSync, mkdirSync, openSync, writeSync } from 'node:fs';
import { join } from 'node:path';

/** Files the probe creates: enough for a stable median, few enough to take ~20 ms when nothing slows them. */
export const PROBE_FILES = 400;

/** Above this, creating a file is slowed (the normal figure is ~15-25 µs on this host). */
export const SLOW_CREATE_MICROS = 100;

/**
 * The median time (µs) to create, write (4 KB) and close one new file in a new folder `dir`
 * (made here, left with the files in it).
 */
export function probeFileCreation(dir: string, files = PROBE_FILES): number {
  mkdirSync(dir, { recursive: true });
  const block = Buffer.alloc(4096, 0x61);
  const times: number[] = [];
  for (let i = 0; i < files; i++) {
    const start = process.hrtime.bigint();
    const fd = openSync(join(dir, `${i}.json`), 'wx');
    try {
      writeSync(fd, block);
    } finally {
      closeSync(fd);
    }
    times.push(Number(process.hrtime.bigint() - start) / 1000);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)];
}
