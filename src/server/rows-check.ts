// The event rows' load check itself (see store/read/rows-job.ts): each file read once in chunks,
// hashed, its bytes fed on to the offsets check. Runs on the check's worker thread, or on the
// main thread where there is no compiled worker (a source checkout), yielding between chunks.
import { readSync } from 'node:fs';
import { crc32Hasher, sha256Hasher } from '../store/format/manifest.ts';
import type { RowsJob } from '../store/read/rows-job.ts';
import { RowOffsetsCheck } from '../store/read/row-offsets.ts';
import { partOfRow } from '../store/format/dist-paths.ts';

/** one buffer for every chunk: small enough to stay in the processor's cache while it is hashed and checked */
const CHUNK = 256 * 1024;

/** null: the rows are what the manifest lists and the offsets fit them; else what is wrong, and where. */
export type RowsVerdict = null | { rel: string; kind: 'size' | 'checksum' | 'offsets'; problem: string };

/** Checks `job` reading the open descriptors `fds` (one per file, in order); `pause` between chunks. */
export async function checkRows(fds: readonly number[], job: RowsJob, pause?: () => Promise<void>): Promise<RowsVerdict> {
  const total = job.files.reduce((sum, f) => sum + f.bytes, 0);
  const offsets = new RowOffsetsCheck(job.starts, total);
  const chunk = Buffer.allocUnsafe(Math.min(CHUNK, Math.max(total, 1)));
  // a file damaged in place is named for its checksum first, as readStore does; the offsets after
  let digestVerdict: RowsVerdict = null;
  for (let i = 0; i < job.files.length; i++) {
    const file = job.files[i];
    // by its CRC-32 where the manifest lists one (FileDigest.crc32): the rows are read from this machine's disk
    const crc = file.crc32 === undefined ? null : crc32Hasher();
    const hash = crc ?? sha256Hasher();
    let at = 0;
    for (;;) {
      const n = readSync(fds[i], chunk, 0, chunk.length, at);
      if (n === 0) break;
      at += n;
      const bytes = chunk.subarray(0, n);
      hash.update(bytes);
      offsets.feed(bytes);
      if (pause) await pause();
    }
    if (at !== file.bytes) digestVerdict ??= { rel: file.rel, kind: 'size', problem: `is ${at} bytes, manifest.json says ${file.bytes}` };
    else if (hash.hex() !== (crc !== null ? file.crc32 : file.sha256)) {
      digestVerdict ??= { rel: file.rel, kind: 'checksum', problem: `does not match its ${crc !== null ? 'CRC-32' : 'SHA-256'} in manifest.json` };
    }
  }
  if (digestVerdict) return digestVerdict;
  const problem = offsets.finish();
  if (problem === null) return null;
  const rel = job.offsetsRels[partOfRow(job.firsts, offsets.failedRow)];
  return { rel, kind: 'offsets', problem: `does not match ${job.rowsName} (${problem})` };
}
