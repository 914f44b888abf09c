// A short file-system job run on a thread of its own (fs-worker.ts) while the build's own thread goes
// on: the patch's page links, the former dist's removal, a share of the stats. The thread answers
// null, or its error as plain fields: an error crossing threads would lose its code and paths,
// which the one line the CLI prints names.
import { runOnThread, threadModule } from '../../util/start-thread.ts';

/** The jobs fs-worker.ts knows. */
export type FsJob =
  | { job: 'remove'; dir: string; made: readonly string[] | null }
  | { job: 'link'; pairs: readonly string[] }
  | { job: 'stat'; paths: readonly string[]; shared: SharedArrayBuffer; counter: SharedArrayBuffer; size: number };

/** What fs-worker.ts posts: null when the job is done, else the error's fields. */
export type FsAnswer = null | { message: string; code?: string; path?: string; dest?: string; syscall?: string };

export async function runFsThread(job: FsJob, options: { stopped: string; path?: string }): Promise<void> {
  const m = await runOnThread<FsAnswer>(threadModule(import.meta.url, 'fs-worker'), job, options.stopped);
  if (m !== null) throw Object.assign(new Error(m.message), { code: m.code, path: m.path ?? options.path, dest: m.dest, syscall: m.syscall });
}
