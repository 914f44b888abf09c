// The directory as a stage: its objects, once read and checked (directoryOnPool), handed to its
// job over an empty base always, over a prior where a directory file changed, came or went (else
// the previous dist's directory files stand: render/state-render.ts). The job makes its files
// (directory-worker.ts) on a thread of their own while the main thread renders the events: they
// depend on the directory alone. What the thread makes waits in an unlinked scratch file, not in a
// heap, until the build asks for it once the events have left the heap; its large files are
// compressed there on a second thread once the main thread works alone (compressNow), while the
// other core would be idle.
import { checkDirectoryKeys, type DirectoryParse } from '../../content/directory.ts';
import type { FileIssue, Problem } from '../../content/problems.ts';
import type { BuildOptions } from '../run.ts';
import type { DirectoryObject } from '../../model/types.ts';
import type { Precompressed } from '../../deploy/precompress.ts';
import { AUTOCOMPLETE_DIR } from '../../store/format/dist-paths.ts';
import { ScratchFile } from '../../util/scratch-file.ts';
import { readRun, type DirectoryFiles, type MakeRequest, type DirectoryMessage, type Group, type MadeFile, type MadeTwins, type Run, type Stored } from './directory-worker.ts';
import { ThreadPool, threadModule } from '../../util/start-thread.ts';

/** MiniSearch's files too (autocomplete/'s own index and module are always made); the large files' twins too. */
export type DirectoryJobOptions = { minisearch: boolean; compress: boolean };

export type DirectoryJob = ReturnType<typeof startDirectoryJob>;
export type DirectoryStage = { job: DirectoryJob; count: number };

/**
 * The directory read: its files' parses (`parsed`, on the parse threads where there are some)
 * checked by their records' keys and, where nothing so far has a problem (`clean`), handed to its
 * job unread while the events are parsed: this thread never makes a record of the directory,
 * its job reads them from the parses.
 */
export async function directoryOnPool(options: BuildOptions, parsed: Promise<DirectoryParse>, clean: boolean): Promise<{ stage: DirectoryStage | null; problems: Problem[]; issues: FileIssue[] }> {
  const { parses, keys, files, problems } = await parsed;
  const issues: FileIssue[] = [];
  checkDirectoryKeys(keys, files, issues);
  if (!clean || problems.length > 0 || issues.length > 0) return { stage: null, problems, issues };
  const job = startDirectoryJob({ parses }, { minisearch: options.minisearch !== false, compress: options.precompress !== false });
  return { stage: { job, count: keys.id.length }, problems, issues };
}

export function startDirectoryJob(objects: NonNullable<MakeRequest['objects']>, { minisearch, compress }: DirectoryJobOptions) {
  const scratch = ScratchFile.create('directory');
  const threads = new ThreadPool<DirectoryMessage, MadeFile[] | MadeTwins[]>(threadModule(import.meta.url, 'directory-worker'), { once: true, stopped: 'the directory worker stopped before it answered' });
  // (the scratch file is closed only once the threads are done: a descriptor number closed under
  // a thread still writing could be reused by the next open, and its write land there)
  const end = (failure?: Error) => void threads.end(failure).then(() => scratch?.close());
  const read = (run: Run) => readRun(scratch!.fd, run);
  // The twins' thread starts in compressNow itself or as the answer is heard: a promise's callback
  // from compressNow would wait for this thread's next await, seconds later. Files not in the
  // scratch file, and those whose twins fail, are compressed by the build's own pool.
  let answer: MadeFile[] | null = null;
  let wanted = false;
  let twinsMade: ((twins: Promise<MadeTwins[]>) => void) | null = null;
  const twins = new Promise<MadeTwins[]>((resolve) => (twinsMade = resolve));
  const twinsNow = (files: MadeFile[] | null, want: boolean) => {
    answer ??= files;
    wanted ||= want;
    if (!wanted || answer === null || twinsMade === null) return;
    const large = answer.filter((f): f is Stored => compress && f.large && 'run' in f);
    twinsMade(large.length === 0 ? Promise.resolve([]) : threads.ask<MadeTwins[]>({ compress: { fd: scratch!.fd, files: large } }).catch(() => []));
    twinsMade = null;
  };
  const made = threads.ask<MadeFile[]>({ make: { objects, minisearch, fd: scratch?.fd ?? null } });
  // a build that fails before it asks for the files must not leave an unhandled rejection behind
  made.then((files) => twinsNow(files, false), () => end());
  const compressNow = () => twinsNow(null, true);
  let groups: Promise<Record<Group, DirectoryFiles>> | undefined;
  let compressed: Promise<Map<string, Precompressed>> | undefined;
  return {
    /**
     * autocomplete/'s own index and module, and minisearch.json and its options module (none when
     * not asked for), by name under dist/autocomplete/: read when first asked for (not when the
     * worker ends), so ask for them where they are needed.
     */
    get files(): Promise<Record<Group, DirectoryFiles>> {
      compressNow();
      return (groups ??= made.then((answer) => {
        const files: Record<Group, DirectoryFiles> = { autocomplete: {}, minisearch: {} };
        for (const f of answer) files[f.group][f.name] = 'run' in f ? read(f.run) : f.content;
        return files;
      }));
    },
    /** the large files' twins, by path under dist/ (for compressionPool's `ready`) */
    get compressed(): Promise<Map<string, Precompressed>> {
      const bytes = (run: Run) => read(run) as Buffer;
      return (compressed ??= Promise.all([this.files, twins])
        .then(([{ autocomplete, minisearch }, twins]) => new Map(twins.map(({ name, gzip, brotli, gz, br }) => [`${AUTOCOMPLETE_DIR}/${name}`, { content: autocomplete[name] ?? minisearch[name], gzip, brotli, gz: bytes(gz), br: bytes(br) }])))
        .finally(() => end()));
    },
    /** stops the worker (a build that failed elsewhere) */
    cancel: () => {
      twinsMade = null;
      end(new Error('the directory job was cancelled'));
    },
    /** The large files may be compressed now (the build's main thread works alone for a while). Asking for any file says so too. */
    compressNow,
  };
}
