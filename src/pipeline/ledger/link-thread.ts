// The thread module linkOnWorker (dist-ledger.ts) runs: the pairs in order, stopping at the first failure.
import { linkSync } from 'node:fs';
import { fsAnswer, type FsAnswer } from '../threads/fs-thread.ts';

export function answer(pairs: readonly string[]): FsAnswer {
  return fsAnswer(() => {
    for (let i = 0; i < pairs.length; i += 2) linkSync(pairs[i], pairs[i + 1]);
  });
}
