// The directory as a stage: its objects handed to its job (directory-job.ts) under the key of its
// files' parse keys. The load over an empty base hands them over as soon as they are read and
// checked (directoryOnPool); the load over the
// prior, where a directory file changed, came or went, reads them here (readDirectory) and, where
// they have no problem, starts the job (directoryStage); else the previous dist's directory files
// stand (render/state-render.ts).
import { resolve } from 'node:path';
import { checkDirectory, parseDirectoryFile } from '../../content/directory.ts';
import { readContentFile } from '../../content/files.ts';
import { collect, compareDirectory, locateProblems } from '../../content/load.ts';
import type { FileIssue, Problem } from '../../content/problems.ts';
import type { Parsed, Sourced } from '../../content/records.ts';
import type { DirectoryObject } from '../../model/types.ts';
import { inputsKeyOf, parseKey } from '../cache/build-cache.ts';
import type { BuildOptions } from '../run.ts';
import { startDirectoryJob, type DirectoryJob } from './directory-job.ts';

/** Starts the directory's job on `objects`, its outputs kept under `key` (null: no cache). */
export function directoryJob(options: BuildOptions, key: Buffer | null, objects: readonly DirectoryObject[]): DirectoryJob {
  const cache = options.cache === undefined || key === null ? null : { dir: options.cache, content: options.content, key };
  return startDirectoryJob(objects, { minisearch: options.minisearch !== false, compress: options.precompress !== false, cache });
}

export type DirectoryStage = { job: DirectoryJob; count: number; files: number };

/** The directory as read again: its records, the key of its texts, and its problems (the files' own, and the issues across them). */
export type DirectoryRead = { records: Sourced<DirectoryObject>[]; key: Buffer; problems: Problem[] };

/**
 * The directory read again over the prior: its `files` read, parsed and checked as a whole load
 * does, with their problems as it reports them (the directory's checks concern its own files
 * alone; raw names refused the load already). On this thread: a few hundred files, where the
 * parse threads' start and hand-back cost more CPU.
 */
export function readDirectory(options: BuildOptions, files: readonly string[]): DirectoryRead {
  const content = resolve(options.content);
  const inputs: string[] = [];
  const records: Sourced<DirectoryObject>[] = [];
  const problems: Problem[] = [];
  for (const file of files) {
    const read = readContentFile(content, file);
    const parsed = read.ok ? parseDirectoryFile(file, read.text) : { records: [], problems: [read.problem] };
    if (read.ok) inputs.push(`${file}\0${parseKey('directory', file, read.bytes).toString('hex')}`);
    for (const r of parsed.records) records.push(r);
    problems.push(...parsed.problems);
  }
  const issues: FileIssue[] = [];
  checkDirectory(records, issues);
  problems.push(...locateProblems(content, issues, new Map()));
  return { records, key: inputsKeyOf('directory', inputs), problems };
}

/** The job started on the directory read (`read`, with no problems) of `files` files, and the objects' count (the manifest's). */
export function directoryStage(options: BuildOptions, read: DirectoryRead, files: number): DirectoryStage {
  const job = directoryJob(options, read.key, read.records.map((r) => r.value).sort(compareDirectory));
  job.compressNow();
  return { job, count: read.records.length, files };
}

/**
 * The directory of a load over an empty prior: its files' parses (`parsed`, on the parse threads)
 * checked and, where nothing so far has a problem (`clean`), handed to its job (`key`: its inputs'
 * key, null: no cache) while the events are parsed: its records are not held beside them (at 200k
 * objects, ~150 MB), nor its parses (held only in this function's frame, which ends here).
 */
export async function directoryOnPool(options: BuildOptions, parsed: Promise<Parsed<unknown>[]>, key: Buffer | null, clean: boolean): Promise<{ stage: DirectoryStage | null; problems: Problem[]; issues: FileIssue[] }> {
  const problems: Problem[] = [];
  const records = collect((await parsed) as Parsed<DirectoryObject>[], problems);
  const issues: FileIssue[] = [];
  checkDirectory(records, issues);
  if (!clean || problems.length > 0 || issues.length > 0) return { stage: null, problems, issues };
  const job = directoryJob(options, key, records.map((r) => r.value).sort(compareDirectory));
  return { stage: { job, count: records.length, files: 0 }, problems, issues };
}
