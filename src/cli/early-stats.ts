// The recorded event files' stats begun as `aula build` starts, before the build's code is loaded:
// a thread stats them (util/stat-many.ts) by the names at the head of the event state's file
// (util/shared-names.ts), and the rest of the file is read on libuv's thread pool, while this
// thread loads the modules. The build takes both where the state proves (readPrior), else lets
// the stats go and stats again.
import { resolve, sep } from 'node:path';
import { distCacheFile } from '../pipeline/cache/cache-folder.ts';
import type { EarlyStats } from '../pipeline/load/next-stats.ts';
import { beginStats } from '../util/stat-many.ts';
import { eventStateHead, eventStatePath, stateMost } from '../pipeline/state/event-state.ts';
import { openCacheFile, sealedStart } from '../pipeline/cache/cache-file.ts';
import { beginNamesFile } from '../util/names-file.ts';
import { fileSystemNow } from '../pipeline/state/stat-fields.ts';

/** The stats of the event files the state of the build into `out` records, begun, and the rest of that state being read; none without a cache, a state, or a time for the stats. */
export function beginEarlyStats({ content, out, cache }: { content: string; out: string; cache?: string }): EarlyStats | undefined {
  if (cache === undefined) return undefined;
  const fd = openCacheFile(eventStatePath(distCacheFile(cache, content, out)));
  const begun = fd === null ? null : beginNamesFile(fd, sealedStart(eventStateHead()), stateMost);
  // (taken before the first stat: the stats are judged against it)
  const safe = begun === null ? null : fileSystemNow(resolve(cache));
  if (begun === null || safe === null) return undefined;
  return { safe, names: begun.names, state: begun.file, stating: beginStats(begun.names, undefined, undefined, `${resolve(content)}${sep}`) };
}
