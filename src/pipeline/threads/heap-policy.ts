// How far V8 lets a build process's heaps grow past their live data before it collects them.
//
// Left to itself, V8 grows a heap up to 4× its live data when collecting is cheap beside the work
// between, and a large build's heaps (the main thread's, the directory worker's, the parse
// threads') then stand at twice what they hold, together past the 1 GB a build may take. Bounded
// at 100 % growth, a cold build peaks well under that and spends less CPU than at a tighter bound
// (more full collections); at 200 % its peak comes near the bound. The measurements behind the
// figure are in bench/results.md ("Heap growth of a build").
//
// Set by `aula build` (cli/main.ts) for its own process, whose threads share V8's flags; build()
// itself leaves a host process's heaps alone. (`aula serve` sets its own bound: server/cluster.ts.)
import { boundHeapGrowth } from '../../util/heap-growth.ts';

export const HEAP_GROWING_PERCENT = 100;

export function boundBuildHeap(): void {
  boundHeapGrowth(HEAP_GROWING_PERCENT);
}
