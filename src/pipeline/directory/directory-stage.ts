// The directory as a stage: its objects handed to its job (directory-job.ts) under the key of its
// files' parse keys, as soon as they are read and checked (directoryOnPool): over an empty base
// always, over a prior where a directory file changed, came or went; else the previous dist's
// directory files stand (render/state-render.ts).
import { checkDirectory } from '../../content/directory.ts';
import { collect, compareDirectory } from '../../content/load.ts';
import type { FileIssue, Problem } from '../../content/problems.ts';
import type { Parsed } from '../../content/records.ts';
import type { DirectoryObject } from '../../model/types.ts';
import type { BuildOptions } from '../run.ts';
import { startDirectoryJob, type DirectoryJob } from './directory-job.ts';

/** Starts the directory's job on `objects`, its outputs kept under `key` (null: no cache). */
export function directoryJob(options: BuildOptions, key: Buffer | null, objects: readonly DirectoryObject[]): DirectoryJob {
  const cache = options.cache === undefined || key === null ? null : { dir: options.cache, content: options.content, key };
  return startDirectoryJob(objects, { minisearch: options.minisearch !== false, compress: options.precompress !== false, cache });
}

export type DirectoryStage = { job: DirectoryJob; count: number };

/**
 * The directory read: its files' parses (`parsed`, on the parse threads where there are some)
 * checked and, where nothing so far has a problem (`clean`), handed to its job (`key`: its inputs'
 * key once parsed, null: no cache) while the events are parsed: its records are not held beside
 * them (at 200k objects, ~150 MB), nor its parses (held only in this function's frame, which ends here).
 */
export async function directoryOnPool(options: BuildOptions, parsed: Promise<Parsed<unknown>[]>, key: () => Buffer | null, clean: boolean): Promise<{ stage: DirectoryStage | null; problems: Problem[]; issues: FileIssue[] }> {
  const problems: Problem[] = [];
  const records = collect((await parsed) as Parsed<DirectoryObject>[], problems);
  const issues: FileIssue[] = [];
  checkDirectory(records, issues);
  if (!clean || problems.length > 0 || issues.length > 0) return { stage: null, problems, issues };
  const job = directoryJob(options, key(), records.map((r) => r.value).sort(compareDirectory));
  return { stage: { job, count: records.length }, problems, issues };
}
