// The content files' stats and parse keys a load takes, put as it reads and parses into the next
// event state's arrays (each kind's files in the listing's order): what the next build over this
// one judges each file by (state/stat-fields.ts).
import type { BigIntStats } from 'node:fs';
import { resolve, sep } from 'node:path';
import type { ContentFiles } from '../../content/files.ts';
import { folderStats } from '../../content/listed-folders.ts';
import type { ParseRecorder } from '../../content/load.ts';
import { parseKey } from '../cache/keys.ts';
import { beginStats, type Stating } from '../../util/stat-many.ts';
import type { Names } from '../../util/shared-names.ts';
import type { NamesFile } from '../../util/names-file.ts';
import { EVENTS_KIND, fileSystemNow, KEY_BYTES, OTHER_KINDS, putStat, putStatText, STAT_FIELDS, type FileStats } from '../state/stat-fields.ts';

/** Puts each file parsed, here or on a parse thread, among the next stats and keys. */
export class NextStats implements ParseRecorder {
  private index?: Map<string, number>;

  constructor(readonly next: FileStats) {}

  /** A file read and parsed here: its key made of its text, its stat (taken before the read) recorded. */
  parsed(kind: string, file: string, text: string, stat?: BigIntStats): void {
    this.record(kind, file, stat, parseKey(kind, file, text));
  }

  /** A file parsed on a parse thread: its key (hex) and stat (statText) as the thread made them; none: it has no stat (size -1). */
  record(kind: string, file: string, stat: BigIntStats | string | undefined, key: Buffer | string): void {
    const { stats, keys, files } = this.next;
    const i = (this.index ??= new Map(files.map((f, i) => [f, i]))).get(kind.startsWith(EVENTS_KIND) ? file : `${kind}\0${file}`);
    if (i === undefined) return;
    if (typeof stat === 'object') putStat(stats, i, stat);
    else if (stat === undefined || !putStatText(stats, i, stat)) return void putStat(stats, i, null);
    if (typeof key === 'string') keys.write(key, i * KEY_BYTES, 'hex');
    else key.copy(keys, i * KEY_BYTES);
  }
}

/** The recorded event files' stats (in their order; none recorded: null), taken after `safe`, the cache folder's time (null: not to be had). */
export type RecordedStats = { safe: bigint | null; stating: Stating | null };

/** Those begun as the command started, by the `names` the state's file begins with, and that file being read (cli/early-stats.ts). */
export type EarlyStats = { safe: bigint; stating: Stating; names: Names; state: Promise<NamesFile | null> };

/**
 * Begins the stats of the recorded event files (none without a cache or a record) on the stat
 * thread, once the cache folder's time is taken; takes those begun `early` instead where they are
 * of the recorded names (`namesRead`), else lets them go.
 */
export function beginRecordedStats(options: { content: string; cache?: string }, recorded: FileStats | null, early?: EarlyStats, namesRead = false): RecordedStats {
  if (early !== undefined && recorded !== null && namesRead) return { safe: early.safe, stating: early.stating };
  early?.stating.abandon();
  const safe = options.cache === undefined ? null : fileSystemNow(resolve(options.cache));
  const content = resolve(options.content);
  return { safe, stating: safe === null || recorded === null ? null : beginStats(recorded.files.slice(0, recorded.eventCount), undefined, undefined, `${content}${sep}`) };
}

/** Every file listed, as yet with no stat (size -1) nor key, and the folders listed with their stats. */
export function nextStats(safe: bigint, files: ContentFiles, content?: string): FileStats {
  const all = files.events.concat(OTHER_KINDS.flatMap((kind) => files[kind].map((file) => `${kind}\0${file}`)));
  const folders = content === undefined ? null : folderStats(content, files);
  return { safe, files: all, eventCount: files.events.length, stats: new BigInt64Array(all.length * STAT_FIELDS).fill(-1n), keys: Buffer.alloc(all.length * KEY_BYTES), folders };
}
