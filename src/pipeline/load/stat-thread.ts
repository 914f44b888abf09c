// The thread module beginStats (stat-files.ts) runs: stat shares taken beside the build's thread.
import { fsAnswer, type FsAnswer } from '../threads/fs-thread.ts';
import { statShares } from './stat-files.ts';

export function answer({ paths, shared, counter, size }: { paths: readonly string[]; shared: SharedArrayBuffer; counter: SharedArrayBuffer; size: number }): FsAnswer {
  return fsAnswer(() => statShares(new BigInt64Array(shared), paths, new Int32Array(counter), size));
}
