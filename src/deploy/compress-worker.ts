// The thread module of the compression pool (precompress.ts): compresses each batch it is sent, and writes
// the twins (and a file placed with them, `own`) itself when told where (TwinSink), answering each
// file's twins, or that they were written, or why they could not be.
import { createHash } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { writeOver, type Spare } from '../util/spare-files.ts';
import { compressTwins, type Job } from './precompress.ts';

/** One file's answer. */
export type TwinAnswer =
  | { path: string; gz: Uint8Array; br: Uint8Array }
  | { path: string; written: true; sha?: string }
  | { path: string; failed: { message: string; code?: string; path: string } };

/** `files` written under `dir`, their folders made (once each of a batch: `made`). */
function writeAll(dir: string, path: string, files: [string, string | Uint8Array][], made: Set<string>, sha?: string, into?: Spare): TwinAnswer {
  for (const [rel, bytes] of files) {
    const file = join(dir, rel);
    try {
      const folder = dirname(file);
      if (!made.has(folder)) {
        mkdirSync(folder, { recursive: true });
        made.add(folder);
      }
      writeOver(file, bytes, rel === path ? into : undefined);
    } catch (e) {
      const error = e as NodeJS.ErrnoException;
      return { path, failed: { message: error.message, code: error.code, path: file } };
    }
  }
  return sha === undefined ? { path, written: true } : { path, written: true, sha };
}

export function answer({ jobs, dir }: { jobs: Job[]; dir: string | null }): TwinAnswer[] {
  const out: TwinAnswer[] = [];
  const made = new Set<string>();
  for (const { path, content, gzip, brotli, own, hash, into } of jobs) {
    const files: [string, string | Uint8Array][] = own ? [[path, content]] : [];
    if (gzip !== null && brotli !== null) {
      const { gz, br } = compressTwins(content, { gzip, brotli });
      if (dir === null) {
        out.push({ path, gz, br });
        continue;
      }
      files.push([`${path}.gz`, gz], [`${path}.br`, br]);
    }
    const sha = hash ? createHash('sha256').update(content).digest('hex') : undefined;
    out.push(dir === null ? { path, written: true } : writeAll(dir, path, files, made, sha, into));
  }
  return out;
}
