// The thread module fs-thread.ts runs: does the job it is given and answers null or the error (FsAnswer).
import { linkSync } from 'node:fs';
import type { FsAnswer, FsJob } from './fs-thread.ts';
import { statShares } from '../patch/stat-files.ts';
import { removeMade } from '../out-folder/user-files.ts';

function run(job: FsJob): void {
  if (job.job === 'remove') removeMade(job.dir, job.made);
  // the pairs in order, stopping at the first failure
  else if (job.job === 'link') for (let i = 0; i < job.pairs.length; i += 2) linkSync(job.pairs[i], job.pairs[i + 1]);
  else statShares(new BigInt64Array(job.shared), job.paths, new Int32Array(job.counter), job.size);
}

export function answer(job: FsJob): FsAnswer {
  try {
    run(job);
    return null;
  } catch (e) {
    const error = e as NodeJS.ErrnoException & { dest?: string };
    return { message: String(error?.message), code: error?.code, path: error?.path, dest: error?.dest, syscall: error?.syscall };
  }
}
