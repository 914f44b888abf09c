// The recorded event files' stats begun as `aula build` starts, before the build's code is loaded:
// a thread stats them (util/stat-many.ts) by the names at the head of the event state's
// file (util/shared-names.ts) while this thread loads the modules and reads the state whole. The
// build takes them where the state it reads holds the same names (readPrior's `namesRead`), else
// lets them go and stats again.
import { closeSync, fstatSync, readSync } from 'node:fs';
import { resolve, sep } from 'node:path';
import { openCacheFile, sealedStart } from '../pipeline/cache/cache-file.ts';
import { distCacheFile } from '../pipeline/cache/cache-folder.ts';
import type { EarlyStats } from '../pipeline/load/next-stats.ts';
import { beginStats } from '../util/stat-many.ts';
import { eventStateHead, eventStatePath } from '../pipeline/state/event-state.ts';
import { fileSystemNow } from '../pipeline/state/stat-fields.ts';
import { COUNTS, type Names } from '../util/shared-names.ts';

/** The stats of the event files the state of the build into `out` records, begun; none without a cache, a state, or a time for the stats. */
export function beginEarlyStats({ content, out, cache }: { content: string; out: string; cache?: string }): EarlyStats | undefined {
  if (cache === undefined) return undefined;
  const names = recordedNames(eventStatePath(distCacheFile(cache, content, out)), eventStateHead());
  // (taken before the first stat: the stats are judged against it)
  const safe = names === null ? null : fileSystemNow(resolve(cache));
  if (names === null || safe === null) return undefined;
  return { safe, names, stating: beginStats(names, undefined, undefined, `${resolve(content)}${sep}`) };
}

/**
 * The names part of the state file at `path` written under `head`, its text read into shared
 * memory, not checked (the whole file is, when the build reads it); null where the file holds none.
 */
function recordedNames(path: string, head: string): Names | null {
  const fd = openCacheFile(path);
  if (fd === null) return null;
  try {
    const start = sealedStart(head);
    const first = Buffer.alloc(start + COUNTS);
    if (readSync(fd, first, 0, first.length, 0) !== first.length || !first.subarray(0, Buffer.byteLength(head)).equals(Buffer.from(head))) return null;
    const length = first.readUInt32LE(start);
    const count = first.readUInt32LE(start + 4);
    if (start + COUNTS + length > fstatSync(fd).size) return null;
    const bytes = new Uint8Array(new SharedArrayBuffer(length));
    return readSync(fd, bytes, 0, length, start + COUNTS) === length ? { bytes, count } : null;
  } catch {
    return null;
  } finally {
    closeSync(fd);
  }
}
