// How far V8 lets a build's heaps grow past their live data before collecting. Left to itself it
// grows a heap up to 4× when collecting is cheap, and a large build's heaps together pass the
// memory a build may take; a tighter bound costs CPU in full collections (bench/results.md, "Heap
// growth of a build"). Set by `aula build` for its own process (threads share V8's flags);
// build() leaves a host process's heaps alone.
import { boundHeapGrowth } from '../util/heap-growth.ts';

export const HEAP_GROWING_PERCENT = 100;

export function boundBuildHeap(): void {
  boundHeapGrowth(HEAP_GROWING_PERCENT);
}
