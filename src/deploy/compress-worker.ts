// The thread module of the compression pool (precompress.ts): compresses each batch it is sent, and writes
// the twins itself when told where (TwinSink), answering each file's twins, or that they were
// written, or why they could not be.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { compressTwins, type Job } from './precompress.ts';

/** One file's answer. */
export type TwinAnswer =
  | { path: string; gz: Uint8Array; br: Uint8Array }
  | { path: string; written: true }
  | { path: string; failed: { message: string; code?: string; path: string } };

function writeTwins(dir: string, path: string, twins: [string, Uint8Array][]): TwinAnswer {
  for (const [twin, bytes] of twins) {
    const file = join(dir, twin);
    try {
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, bytes);
    } catch (e) {
      const error = e as NodeJS.ErrnoException;
      return { path, failed: { message: error.message, code: error.code, path: file } };
    }
  }
  return { path, written: true };
}

export function answer({ jobs, dir }: { jobs: Job[]; dir: string | null }): TwinAnswer[] {
  const out: TwinAnswer[] = [];
  for (const { path, content, gzip, brotli } of jobs) {
    const { gz, br } = compressTwins(content, { gzip, brotli });
    out.push(dir === null ? { path, gz, br } : writeTwins(dir, path, [[`${path}.gz`, gz], [`${path}.br`, br]]));
  }
  return out;
}
