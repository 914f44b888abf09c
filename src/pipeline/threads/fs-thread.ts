// A short file-system job run on a thread of its own while the build's own thread goes on: the
// pages' links (ledger/link-thread.ts), a share of the stats (load/stat-thread.ts). Each is a thread module whose
// `answer` does the job and gives null, or the error as plain fields (fsAnswer): an error crossing
// threads would lose its code and paths, which the one line the CLI prints names.
import { runOnThread } from '../../util/start-thread.ts';

/** What an fs thread answers: null when the job is done, else the error's fields. */
export type FsAnswer = null | { message: string; code?: string; path?: string; dest?: string; syscall?: string };

/** Runs `job` as a thread module's `answer` does: null, or what it threw as plain fields. */
export function fsAnswer(job: () => void): FsAnswer {
  try {
    job();
    return null;
  } catch (e) {
    const error = e as NodeJS.ErrnoException & { dest?: string };
    return { message: String(error?.message), code: error?.code, path: error?.path, dest: error?.dest, syscall: error?.syscall };
  }
}

/** Runs the thread module at `module` (threadModule) on `job`; rejects with its error, or `stopped` if it ended without a word. */
export async function runFsThread(module: URL, job: unknown, options: { stopped: string; path?: string }): Promise<void> {
  const m = await runOnThread<FsAnswer>(module, job, options.stopped);
  if (m !== null) throw Object.assign(new Error(m.message), { code: m.code, path: m.path ?? options.path, dest: m.dest, syscall: m.syscall });
}
