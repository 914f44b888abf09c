// The thread module beginStats (stat-files.ts) runs: stat shares taken beside the build's thread.
// An error thrown here reaches the caller with its code and paths (a worker's error crosses as an
// Error with its own fields).
import { statShares } from './stat-files.ts';

export function answer({ paths, shared, counter, size }: { paths: readonly string[]; shared: SharedArrayBuffer; counter: SharedArrayBuffer; size: number }): null {
  statShares(new BigInt64Array(shared), paths, new Int32Array(counter), size);
  return null;
}
