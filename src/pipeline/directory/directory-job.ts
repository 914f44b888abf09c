// The directory as a stage: its objects, once read and checked (directoryOnPool), handed to its
// job over an empty base always, over a prior where a directory file changed, came or went (else
// the previous dist's directory files stand: render/state-render.ts). The job makes its files
// (directory-make.ts) on a thread of their own while the main thread renders the events: they
// depend on the directory alone. What the worker makes waits in an unlinked scratch file
// (directory-worker.ts), not in a heap, until the build asks for it once the events have left the
// heap, so it is no part of the build's peak; its large files are compressed there on a second
// thread once the main thread works alone (compressNow).
import { checkDirectory } from '../../content/directory.ts';
import { collect, compareDirectory } from '../../content/load.ts';
import type { FileIssue, Problem } from '../../content/problems.ts';
import type { Parsed } from '../../content/records.ts';
import type { BuildOptions } from '../run.ts';
import type { DirectoryObject } from '../../model/types.ts';
import type { Precompressed } from '../../deploy/precompress.ts';
import { AUTOCOMPLETE_DIR } from '../../store/format/dist-paths.ts';
import { ScratchFile } from '../../util/scratch-file.ts';
import { readMade, readTwins, type DirectoryMade, type DirectoryMessage, type MadeLayout, type WorkerAnswer } from './directory-worker.ts';
import type { DirectoryFiles, DirectoryRequest } from './directory-make.ts';
import { ThreadPool, threadModule } from '../../util/start-thread.ts';

/** MiniSearch's files too, and the large files compressed on the worker too. */
export type DirectoryJobOptions = DirectoryRequest;

export interface DirectoryJob {
  // Each is read when first asked for (not when the worker ends): ask for them where they are needed.
  /** autocomplete/'s own index and module, by name under dist/autocomplete/ */
  autocomplete: Promise<DirectoryFiles>;
  /** minisearch.json and its options module; an empty record when not asked for */
  minisearch: Promise<DirectoryFiles>;
  /** the compressed twins made on the way, by path under dist/ (for compressionPool's `ready`) */
  compressed: Promise<Map<string, Precompressed>>;
  /** stops the worker (a build that failed elsewhere) */
  cancel(): void;
  /**
   * The large files may be compressed now (the build's main thread works alone for a while):
   * until then they wait uncompressed in the scratch file, once made. Asking for any file says so too.
   */
  compressNow(): void;
}

export type DirectoryStage = { job: DirectoryJob; count: number };

/**
 * The directory read: its files' parses (`parsed`, on the parse threads where there are some)
 * checked and, where nothing so far has a problem (`clean`), handed to its job while the events
 * are parsed: its records are not held beside them (at 200k objects, ~150 MB), nor its parses
 * (held only in this function's frame, which ends here).
 */
export async function directoryOnPool(options: BuildOptions, parsed: Promise<Parsed<unknown>[]>, clean: boolean): Promise<{ stage: DirectoryStage | null; problems: Problem[]; issues: FileIssue[] }> {
  const problems: Problem[] = [];
  const records = collect((await parsed) as Parsed<DirectoryObject>[], problems);
  const issues: FileIssue[] = [];
  checkDirectory(records, issues);
  if (!clean || problems.length > 0 || issues.length > 0) return { stage: null, problems, issues };
  const job = startDirectoryJob(records.map((r) => r.value).sort(compareDirectory), { minisearch: options.minisearch !== false, compress: options.precompress !== false });
  return { stage: { job, count: records.length }, problems, issues };
}

export function startDirectoryJob(objects: readonly DirectoryObject[], options: DirectoryJobOptions): DirectoryJob {
  const work = onWorker(objects, options);
  return {
    get autocomplete() {
      return work.made().then((m) => m.autocomplete!);
    },
    get minisearch() {
      return work.made().then((m) => m.minisearch ?? {});
    },
    get compressed() {
      return work.withTwins().then((m) => new Map(Object.entries(m.compressed).map(([name, c]) => [`${AUTOCOMPLETE_DIR}/${name}`, c])));
    },
    cancel: work.cancel,
    compressNow: work.compressNow,
  };
}

/**
 * The directory's files made on a worker thread, its large files' twins on another once asked
 * for (compressNow), read back from its scratch file when first asked for (made, withTwins).
 */
function onWorker(objects: readonly DirectoryObject[], request: DirectoryRequest): { made: () => Promise<DirectoryMade>; withTwins: () => Promise<DirectoryMade>; compressNow: () => void; cancel: () => void } {
  const scratch = ScratchFile.create('directory');
  const threads = new ThreadPool<DirectoryMessage, WorkerAnswer | MadeLayout['twins']>(threadModule(import.meta.url, 'directory-worker'), { once: true, stopped: 'the directory worker stopped before it answered' });
  let answer: WorkerAnswer | null = null;
  // the large files' twins, once asked for (compressNow) and the worker has answered: none when
  // it left none to compress. The compressing thread is started at once, in the call or as the
  // answer is heard: a promise's callback from compressNow would wait for this thread's next
  // await, which "render data" reaches only seconds later.
  let twinsWanted = false;
  let compressing = false;
  let cancelled = false;
  let twinsMade: (twins: MadeLayout['twins']) => void = () => {};
  const twins = new Promise<MadeLayout['twins']>((resolve) => (twinsMade = resolve));
  const compress = () => {
    if (!twinsWanted || answer === null || compressing) return;
    compressing = true;
    const { deferred, layout, end } = answer;
    if (deferred.length === 0 || scratch === null || cancelled) return twinsMade([]);
    const files = layout.files.filter((f) => deferred.includes(f.name));
    // the layout entries of the twins the thread wrote; none when it failed (a full temp folder):
    // the build's own pool then compresses those files, as it does any other
    void threads.ask<MadeLayout['twins']>({ compress: { fd: scratch.fd, files, at: end } }).then(twinsMade, () => twinsMade([]));
  };
  // (the scratch file is closed only once the threads are done: a descriptor number closed under
  // a thread still writing could be reused by the next open, and its write land there)
  const answered = threads.ask<WorkerAnswer>({ make: { objects, request, scratch: scratch?.fd ?? null } }).then(
    (made) => ((answer = made), compress(), made),
    (e: unknown) => threads.end().then(() => (scratch?.close(), Promise.reject(e))),
  );
  // a build that fails before it asks for the files must not leave an unhandled rejection behind
  answered.catch(() => {});
  const compressNow = () => {
    twinsWanted = true;
    compress();
  };
  const cancel = () => {
    cancelled = true;
    void threads.end(new Error('the directory job was cancelled')).then(() => scratch?.close());
  };
  // (the files read once the worker has answered: the build uses them while their twins are made)
  let read: Promise<DirectoryMade> | undefined;
  let readWithTwins: Promise<DirectoryMade> | undefined;
  const made = () => {
    compressNow();
    read ??= answered.then((answer) => readMade(scratch?.fd ?? null, { ...answer.layout, twins: [] }, answer.rest));
    return read;
  };
  const withTwins = () => {
    readWithTwins ??= Promise.all([made(), answered, twins])
      .then(([files, answer, more]) => readTwins(scratch?.fd ?? null, [...answer.layout.twins, ...more], files))
      // (never under the compressing thread: a cancelled ask settles before its thread has stopped)
      .finally(() => void twins.then(() => threads.end()).then(() => scratch?.close()));
    return readWithTwins;
  };
  return { made, withTwins, compressNow, cancel };
}
