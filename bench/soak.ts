// The soak of issue 7: one server under a steady mix of queries for minutes. What matters here is
// not speed but that nothing fails and memory does not creep (a leak in a cache or an index
// would show as RSS growth between the start and the end).
import type { LoadGenerator } from './generator.ts';
import type { LoadResult } from './load.ts';
import { treeRss } from './processes.ts';
import type { QueryKind } from './queries.ts';

export interface SoakResult {
  load: LoadResult;
  rssStart: number;
  rssEnd: number;
  rssMax: number;
  /** RSS every tenth of the soak: tells a plateau (caches filled) from a steady climb (a leak) */
  rssTimeline: number[];
  warmupS: number;
  kinds: string[];
}

/** Distinct values of every kind, interleaved, so each connection sees the whole mix all the time. */
export function mixedPaths(kinds: readonly QueryKind[], limit = 200_000): string[] {
  const out: string[] = [];
  const longest = Math.max(...kinds.map((k) => k.distinct.length));
  for (let i = 0; i < longest && out.length < limit; i++) {
    for (const k of kinds) out.push(k.distinct[i % k.distinct.length]);
  }
  return out;
}

export async function runSoak(options: {
  baseUrl: string;
  generator: LoadGenerator;
  serverPid: number;
  kinds: readonly QueryKind[];
  seconds: number;
  connections: number;
  log?: (line: string) => void;
}): Promise<SoakResult> {
  const { baseUrl, generator, serverPid, kinds, seconds, connections, log = () => {} } = options;
  const paths = mixedPaths(kinds);
  // RSS "start" after a warm-up: the first requests build lazy indexes and grow the heap to its
  // working size, which is not growth over time.
  const warmupS = Math.min(30, Math.max(1, Math.round(seconds * 0.1)));
  log(`soak: ${warmupS} s warm-up`);
  await generator.run({ baseUrl, paths, durationS: warmupS, warmupS: 0 });
  const rssStart = treeRss(serverPid).bytes;
  let rssMax = rssStart;
  const sampler = setInterval(() => {
    rssMax = Math.max(rssMax, treeRss(serverPid).bytes);
  }, 1000);
  const rssTimeline: number[] = [];
  const timeline = setInterval(() => rssTimeline.push(treeRss(serverPid).bytes), Math.max(1000, (seconds * 1000) / 10));
  const progress = setInterval(() => log(`soak: running, RSS ${(treeRss(serverPid).bytes / 1024 ** 2).toFixed(0)} MiB`), 30_000);
  try {
    log(`soak: ${seconds} s, ${connections} connections, ${kinds.length} kinds`);
    const load = await generator.run({ baseUrl, paths, durationS: seconds, warmupS: 0 });
    const rssEnd = treeRss(serverPid).bytes;
    return { load, rssStart, rssEnd, rssMax: Math.max(rssMax, rssEnd), rssTimeline, warmupS, kinds: kinds.map((k) => k.key) };
  } finally {
    clearInterval(sampler);
    clearInterval(timeline);
    clearInterval(progress);
  }
}
