// One full garbage collection at a phase boundary of a large build: rendering the events leaves
// dead strings and buffers of several times the rows' size, which V8 collects only once its heap
// must grow past them, in a large build amid the directory indexing, whose peak they then join.
// (--expose-gc is set only for the moment it takes to get the function, as node's docs show for
// v8.setFlagsFromString.)
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

let gc: (() => void) | null | undefined;

/** Runs a full collection when the heap is large enough for it to matter (a small build pays nothing). */
export function collectGarbage(minHeapBytes = 256 * 1024 * 1024): void {
  if (process.memoryUsage().heapUsed + process.memoryUsage().arrayBuffers < minHeapBytes) return;
  if (gc === undefined) {
    try {
      setFlagsFromString('--expose-gc');
      gc = runInNewContext('gc') as () => void;
    } catch {
      gc = null;
    }
  }
  gc?.();
}
