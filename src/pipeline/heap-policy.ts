// How far V8 lets a build process's heaps grow past their live data before it collects them.
//
// V8 grows a heap by a factor of its own choosing after each full collection, up to 4× the live
// data when collecting is cheap beside the work between: at 100k events / 200k directory objects
// the directory worker's heap stood at ~420 MB around ~180 MB of live data, and the main thread's
// at ~460 MB around ~260 MB, while the parse threads added theirs. Cold builds of that size on two
// cores (VmHWM, two runs each, alternated): V8's own choice 980 / 987 MiB; at most 100 % growth
// 942 / 902; 50 % 883 / 887; 30 % 874 / 850 MiB. The load phase took 16.5 / 16.8 s, and 17.6 /
// 18.7 s at 50 % (~1 s more, the host's noise about as large): 50 % keeps the build under 1 GB
// with room for the noise, for the least time.
//
// Set by `aula build` (cli/main.ts) for its own process, whose threads share V8's flags; build()
// itself leaves a host process's heaps alone. (`aula serve` sets its own bound: server/cluster.ts.)
import { boundHeapGrowth } from '../util/heap-growth.ts';

export const HEAP_GROWING_PERCENT = 50;

export function boundBuildHeap(): void {
  boundHeapGrowth(HEAP_GROWING_PERCENT);
}
