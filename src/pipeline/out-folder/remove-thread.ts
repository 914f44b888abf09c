// The thread module removeOnWorker (swap.ts) runs: removes what aula made of a former dist.
import { fsAnswer, type FsAnswer } from '../threads/fs-thread.ts';
import { removeMade, type MadeList } from './user-files.ts';

export function answer({ dir, made }: { dir: string; made: MadeList }): FsAnswer {
  return fsAnswer(() => removeMade(dir, made));
}
