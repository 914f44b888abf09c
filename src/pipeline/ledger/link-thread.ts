// The thread module linkOnWorker (dist-ledger.ts) runs: the pairs in order, stopping at the first
// failure, which reaches the caller with its code and paths (a worker's error crosses as an Error
// with its own fields).
import { linkSync } from 'node:fs';

export function answer(pairs: readonly string[]): null {
  for (let i = 0; i < pairs.length; i += 2) linkSync(pairs[i], pairs[i + 1]);
  return null;
}
