// The thread module removeOnWorker (swap.ts) runs: removes what aula made of a former dist.
import { fsAnswer, type FsAnswer } from '../threads/fs-thread.ts';
import { removeMade } from './user-files.ts';

export function answer({ dir, made }: { dir: string; made: readonly string[] | null }): FsAnswer {
  return fsAnswer(() => removeMade(dir, made));
}
