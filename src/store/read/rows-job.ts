// The event rows' load check handed to whoever can run it off the main thread (the server: a
// worker thread). The check is the same as readStore's own: every file's size and checksum against
// the manifest, then the offsets against the rows, which are the files' bytes in order (one
// events.jsonl, or its parts). The node-only part lives in src/server, so that the edge bundle,
// which has no worker threads, never loads it: readStore only describes the job.
import type { FileDigest } from '../format/manifest.ts';

export interface RowsJobFile extends FileDigest {
  /** path under dist/, as the manifest lists it */
  rel: string;
}

export interface RowsJob {
  /** the files holding the rows, in order; their bytes end to end are the rows */
  files: readonly RowsJobFile[];
  /** the per-field offsets (each part's offsets file, end to end, already checked against the manifest) */
  starts: Uint32Array | Uint16Array;
  /** how a problem with the offsets is named: each part's offsets file (a row's is that of its part), and what they must match */
  offsetsRels: readonly string[];
  /** each part's first row, then the rows' count (dist-paths.ts partFirsts) */
  firsts: readonly number[];
  /** the offsets files' SHA-256 in the manifest (what makes two jobs the same check) */
  offsetsSha256: readonly string[];
  rowsName: string;
  /** device and inode of each file as the loader opened it: the check must read those very files */
  opened?: readonly { dev: number; ino: number }[];
}

/**
 * Starts the check of `job`, to be awaited by the caller before anything is served; may throw a
 * DistError at once for what it can tell without reading (a file missing or of the wrong size).
 */
export type VerifyRows = (job: RowsJob) => void;

/** Two jobs with the same key check the same bytes, given the same files (see rows-verifier.ts). */
export function rowsJobKey(job: RowsJob): string {
  return JSON.stringify([job.files.map((f) => [f.rel, f.sha256, f.bytes]), job.offsetsRels, job.firsts, job.offsetsSha256]);
}
