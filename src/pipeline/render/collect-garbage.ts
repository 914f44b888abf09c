// One full garbage collection at a phase boundary of a large build. Rendering the events leaves
// dead strings and buffers of several times the rows' size (the rows as made, the events'
// records); V8 collects them only once its heap must grow past them, which in a large build is in
// the middle of the directory indexing — and the peak RSS of the build is that garbage plus the index. Collected at the
// boundary, it is never part of a peak. (--expose-gc is set for the moment it takes to get the
// function: what node's own docs show for v8.setFlagsFromString; nothing else depends on it.)
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
