// The directory as a stage: its objects handed to its job (directory-job.ts) under the key of its
// files' parse keys. A whole load hands them over as soon as they are read; the load over the
// prior, where a directory file changed, came or went, reads them here (directoryStage); else the
// previous dist's directory files stand (render/state-render.ts).
import { resolve } from 'node:path';
import { checkDirectory, parseDirectoryFile } from '../../content/directory.ts';
import { readContentFile } from '../../content/files.ts';
import { compareDirectory } from '../../content/load.ts';
import type { FileIssue } from '../../content/problems.ts';
import type { Sourced } from '../../content/records.ts';
import type { DirectoryObject } from '../../model/types.ts';
import { inputsKeyOf, parseKey } from '../cache/build-cache.ts';
import type { BuildOptions } from '../run.ts';
import { refuse } from '../state/no-patch.ts';
import { startDirectoryJob, type DirectoryJob } from './directory-job.ts';

/** Starts the directory's job on `objects`, its outputs kept under `key` (null: no cache). */
export function directoryJob(options: BuildOptions, key: Buffer | null, objects: readonly DirectoryObject[]): DirectoryJob {
  const cache = options.cache === undefined || key === null ? null : { dir: options.cache, content: options.content, key };
  return startDirectoryJob(objects, { minisearch: options.minisearch !== false, compress: options.precompress !== false, cache });
}

export type DirectoryStage = { job: DirectoryJob; count: number; files: number };

/**
 * The directory read again over the prior: its `files` parsed and checked as a whole load does,
 * its job started under the key of the texts parsed here, and the objects' count (the
 * manifest's). A problem refuses (NoPatch): the whole load reports it, as ever. (On this thread:
 * a few hundred files, where the parse threads' start and hand-back cost more CPU.)
 */
export function directoryStage(options: BuildOptions, files: readonly string[]): DirectoryStage {
  const content = resolve(options.content);
  const inputs: string[] = [];
  const records: Sourced<DirectoryObject>[] = [];
  for (const file of files) {
    const read = readContentFile(content, file);
    const parsed = read.ok ? parseDirectoryFile(file, read.text) : null;
    if (!read.ok || parsed === null || parsed.problems.length > 0) refuse('a directory file has problems');
    inputs.push(`${file}\0${parseKey('directory', file, read.bytes).toString('hex')}`);
    for (const r of parsed.records) records.push(r);
  }
  const issues: FileIssue[] = [];
  checkDirectory(records, issues);
  if (issues.length > 0) refuse('the directory has problems');
  const job = directoryJob(options, inputsKeyOf('directory', inputs), records.map((r) => r.value).sort(compareDirectory));
  job.compressNow();
  return { job, count: records.length, files: files.length };
}
