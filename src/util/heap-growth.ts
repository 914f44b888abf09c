// How far V8 lets a process's heaps grow past what their last full collection kept before it
// collects again. V8's own factor is 1.1–4×, larger the faster the program allocates; a process
// that knows its memory matters more than a little GC time sets a bound of its own. V8 reads it
// at each full collection, so setting it once the process runs takes effect, for every thread.
// (It also changes V8's cachedDataVersionTag(), which hashes the flags: nothing that must agree
// across processes may be keyed by that tag.)
import { setFlagsFromString } from 'node:v8';

/** The V8 flag, as `node --v8-options` lists it. */
export const HEAP_GROWING_FLAG = '--heap-growing-percent';

/** Heaps grow by at most `percent` % past their live data from now on. */
export function boundHeapGrowth(percent: number): void {
  setFlagsFromString(`${HEAP_GROWING_FLAG}=${percent}`);
}
