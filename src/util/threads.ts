// How many worker threads a build's pools start by default: one per core, at most 4 (beyond that
// the main thread, which feeds them, is the limit on the machines we measured).
import { availableParallelism } from 'node:os';

export function defaultThreads(): number {
  return Math.max(1, Math.min(4, availableParallelism()));
}
