// How far V8 lets a build process's heaps grow past their live data before it collects them.
//
// V8 grows a heap by a factor of its own choosing after each full collection, up to 4× the live
// data when collecting is cheap beside the work between: at 100k events / 200k directory objects
// the directory worker's heap stood at ~420 MB around ~180 MB of live data, and the main thread's
// at ~460 MB around ~260 MB, while the parse threads added theirs. Cold builds of that size on two
// cores (VmHWM, two runs each, alternated): V8's own choice 980 / 987 MiB; at most 100 % growth
// 942 / 902; 50 % 883 / 887; 30 % 874 / 850 MiB. 50 % was chosen then.
//
// Since, the main thread no longer holds the directory while it reads the events (~80 MB, content/
// load.ts) nor the events' texts (pipeline/parse-payload.ts), and the peak at 50 % fell to 784–863
// MiB. Measured again (three pairs of cold builds, alternated, 2026-11-27): at 100 % the peaks
// were 784–813 MiB against 784–863 at 50 %, and the build took ~1.1 s less user CPU (31.6–32.7 s
// against 33.4–34.2 s), with 66 full collections in all against 77 (--trace-gc; the main
// thread's 14 against 18). At 200 % the peak reached 876–915 MiB, too near the 1 GB bound for
// ~0.4 s more.
//
// Set by `aula build` (cli/main.ts) for its own process, whose threads share V8's flags; build()
// itself leaves a host process's heaps alone. (`aula serve` sets its own bound: server/cluster.ts.)
import { boundHeapGrowth } from '../util/heap-growth.ts';

export const HEAP_GROWING_PERCENT = 100;

export function boundBuildHeap(): void {
  boundHeapGrowth(HEAP_GROWING_PERCENT);
}
