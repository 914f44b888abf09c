// Runs the event rows' load check (store/read/rows-job.ts) on a worker thread, so that reading,
// hashing and offset-checking ~240 MB at 100k events takes the second core while the main thread
// parses the rest of the dist; the server awaits it before it listens. The thread reads its own
// descriptors, opened here right after the rows' own (on this thread, in the same synchronous
// load, so both are the same files short of a swap within microseconds); a size that differs
// from the manifest is refused here at once, without reading.
import { closeSync, fstatSync, openSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { DistError } from '../store/format/manifest.ts';
import { rowsJobKey, type RowsJob, type VerifyRows } from '../store/read/rows-job.ts';
import { ChecksumMismatch } from '../store/read/verified-source.ts';
import { checkRows, type RowsVerdict } from './rows-check.ts';

// A source checkout (tsx, vitest) has no loader for a .ts worker: there the check runs on this thread.
const COMPILED = !import.meta.url.endsWith('.ts');

/** Starts a thread that answers one message `{ fds, job }` with `{ verdict }` (rows-check-worker.ts). */
export type StartThread = () => Worker;

const compiledThread: StartThread = () => new Worker(new URL('./rows-check-worker.js', import.meta.url));

/** What tells one file from another (a rename swapping a new file in changes the inode). */
export interface FileIdentity {
  dev: number;
  ino: number;
  size: number;
  mtimeMs: number;
}

export interface RowsVerifierOptions {
  /** starts the check's thread (default: the compiled rows-check-worker.js); null: on this thread, between chunks */
  thread?: StartThread | null;
  /**
   * the identities of the rows' files another process has checked already (`aula serve --workers`:
   * the primary checks once for all); when they are the very files opened here, they are not
   * checked again. null (no answer): checked here.
   */
  vouched?: () => Promise<Vouch | null>;
}

/** A check passed elsewhere: of which job (rowsJobKey), over which files. */
export interface Vouch {
  key: string;
  files: readonly FileIdentity[];
}

export interface RowsVerifier {
  /** for readStore's options: starts the check */
  verifyRows: VerifyRows;
  /** resolves once the started check passed (at once when none was started); rejects with a DistError naming the file, or an Error when the check could not run */
  done(): Promise<void>;
  /** stops a check still running (the load failed elsewhere); done() then rejects */
  cancel(): void;
  /** what a passed check vouches for (to be given to other processes' `vouched`), once verifyRows ran */
  vouch(): Vouch;
}

const sameFiles = (a: readonly FileIdentity[], b: readonly FileIdentity[]) =>
  a.length === b.length && a.every((x, i) => x.dev === b[i].dev && x.ino === b[i].ino && x.size === b[i].size && x.mtimeMs === b[i].mtimeMs);

export function rowsVerifier(dir: string, options: RowsVerifierOptions = {}): RowsVerifier {
  const where = (rel: string) => join(dir, rel);
  const refused = (rel: string, problem: string) => `${where(rel)}: ${problem}; rebuild with \`aula build\``;
  const fds: number[] = [];
  const identities: FileIdentity[] = [];
  const closeAll = () => {
    for (const fd of fds.splice(0)) closeSync(fd);
  };
  let running: Promise<RowsVerdict> | undefined;
  let stop = () => {};
  let stopped = false;
  let job: RowsJob | undefined;

  const open = (job: RowsJob) => {
    for (const file of job.files) {
      let fd: number;
      try {
        fd = openSync(where(file.rel), 'r');
      } catch (e) {
        const code = (e as NodeJS.ErrnoException).code;
        throw new DistError(refused(file.rel, code === 'ENOENT' ? 'missing' : (e as Error).message));
      }
      fds.push(fd);
      const { dev, ino, size, mtimeMs } = fstatSync(fd);
      identities.push({ dev, ino, size, mtimeMs });
      // opened a moment after the loader's own descriptors: a dist swapped in between is other files
      const opened = job.opened?.[identities.length - 1];
      if (opened && (opened.dev !== dev || opened.ino !== ino)) throw new DistError(refused(file.rel, 'was replaced while it was being loaded'));
      if (size !== file.bytes) throw new ChecksumMismatch(refused(file.rel, `is ${size} bytes, manifest.json says ${file.bytes}`));
    }
  };

  const thread = options.thread === undefined ? (COMPILED ? compiledThread : null) : options.thread;
  /** the thread, started or failed to start, and what it answered */
  let started: { worker: Worker; answer: Promise<RowsVerdict> } | { error: Error } | undefined;
  const startThread = (start: StartThread) => {
    try {
      const worker = start();
      const answer = new Promise<RowsVerdict>((resolve, reject) => {
        worker.once('message', (m: { verdict: RowsVerdict }) => resolve(m.verdict));
        worker.once('error', (e) => reject(new Error(`the check of the event rows failed: ${e.message}`)));
        worker.once('exit', (code) => reject(new Error(`the check of the event rows stopped (exit code ${code}) before it answered`)));
      });
      answer.catch(() => {});
      // the descriptors are closed once the thread is gone, never under its reads
      worker.once('exit', closeAll);
      stop = () => void worker.terminate();
      started = { worker, answer };
    } catch (e) {
      started = { error: new Error(`the check of the event rows could not start: ${(e as Error).message}`) };
    }
  };
  // started now, so that it boots while this thread parses the manifest and opens the rows
  // (not when another process is to vouch for the rows: then it is usually not needed)
  if (thread && !options.vouched) startThread(thread);

  const onThread = (start: StartThread, job: RowsJob): Promise<RowsVerdict> => {
    if (!started) startThread(start);
    if ('error' in started!) {
      closeAll();
      return Promise.reject(started.error);
    }
    started!.worker.postMessage({ fds: fds.slice(), job });
    return started!.answer;
  };

  const inThread = (job: RowsJob): Promise<RowsVerdict> => {
    let cancelled = false;
    stop = () => {
      cancelled = true;
    };
    const pause = () => new Promise<void>((resolve, reject) => setImmediate(() => (cancelled ? reject(new Error('the check of the event rows was stopped')) : resolve())));
    const checked = checkRows(fds, job, pause);
    void checked.finally(closeAll).catch(() => {});
    return checked;
  };

  return {
    verifyRows(given) {
      if (running) throw new Error('rowsVerifier: one check per verifier');
      job = given;
      const key = rowsJobKey(given);
      try {
        open(given);
      } catch (e) {
        closeAll();
        stop();
        throw e;
      }
      const check = () => (thread ? onThread(thread, given) : inThread(given));
      const { vouched } = options;
      running = vouched
        ? vouched()
            .catch(() => null)
            .then((vouch) => {
              if (stopped || (vouch && vouch.key === key && sameFiles(vouch.files, identities))) {
                closeAll();
                if (stopped) throw new Error('the check of the event rows was stopped');
                return null;
              }
              return check();
            })
        : check();
      // a load that fails elsewhere cancels and may never await this
      running.catch(() => {});
    },
    async done() {
      const verdict = await running;
      if (!verdict) return;
      if (verdict.kind === 'offsets') throw new DistError(refused(verdict.rel, verdict.problem));
      throw new ChecksumMismatch(refused(verdict.rel, verdict.problem));
    },
    cancel() {
      stopped = true;
      stop();
    },
    vouch: () => ({ key: job ? rowsJobKey(job) : '', files: identities.slice() }),
  };
}
