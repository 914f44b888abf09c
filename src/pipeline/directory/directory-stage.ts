// The directory as a stage of its own: its objects handed to its job (directory-job.ts), whose
// outputs are kept under the directory records' key (inputsKeyOf: the parse keys of its files),
// so that indexes made by any build are found by the next with the same directory. A whole load
// hands it the objects as soon as they are read (load-stage.ts); the load over the prior, where a
// directory file changed, came or went, reads them here (directoryStage). Else the previous
// dist's autocomplete files are taken as they are (render/state-render.ts).
import { resolve } from 'node:path';
import { checkDirectory } from '../../content/directory.ts';
import { compareDirectory } from '../../content/load.ts';
import type { FileIssue } from '../../content/problems.ts';
import type { Sourced } from '../../content/records.ts';
import type { DirectoryObject } from '../../model/types.ts';
import { inputsKeyOf } from '../cache/build-cache.ts';
import { ParsePool } from '../load/parse-pool.ts';
import type { BuildOptions } from '../run.ts';
import { refuse } from '../state/no-patch.ts';
import { startDirectoryJob, type DirectoryJob } from './directory-job.ts';
import { outputsPath } from './directory-outputs.ts';

/** Starts the directory's job on `objects`, its outputs kept under `key` (null: no cache). */
export function directoryJob(options: BuildOptions, key: Buffer | null, objects: readonly DirectoryObject[]): DirectoryJob {
  const kept = (index: string) => (options.cache === undefined ? null : outputsPath(options.cache, options.content, index));
  return startDirectoryJob(objects, { minisearch: options.minisearch !== false, compress: options.precompress !== false, kept, key });
}

export type DirectoryStage = { job: DirectoryJob; count: number };

/**
 * The directory read again over the prior: `files` (`file NUL parse key`, hex, each) parsed and
 * checked as a whole load does, its job started, and the objects' count (the manifest's). A
 * problem refuses (NoPatch): the whole load reports it, as ever.
 */
export async function directoryStage(options: BuildOptions, files: readonly string[]): Promise<DirectoryStage> {
  const parsing = new ParsePool(resolve(options.content), undefined, { threads: options.parseThreads });
  const names = files.map((input) => input.slice(0, input.indexOf('\0')));
  const parsed = await parsing.parseMany('directory', 'directory', 'UTC', names, new Map()).finally(() => parsing.close());
  if (parsed.some((p) => p.problems.length > 0)) refuse('a directory file has problems');
  const records = parsed.flatMap((p) => p.records as Sourced<DirectoryObject>[]);
  const issues: FileIssue[] = [];
  checkDirectory(records, issues);
  if (issues.length > 0) refuse('the directory has problems');
  const job = directoryJob(options, inputsKeyOf('directory', files), records.map((r) => r.value).sort(compareDirectory));
  job.compressNow();
  return { job, count: records.length };
}
