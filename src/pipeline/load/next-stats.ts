// The content files' stats and parse keys a load takes, put as it reads and parses into the next
// event state's arrays (each kind's files in the listing's order, as the load over the prior lists
// them): what the next build over this one judges each file by (state/stat-fields.ts).
import type { BigIntStats } from 'node:fs';
import { join, resolve } from 'node:path';
import type { ContentFiles } from '../../content/files.ts';
import type { ParseRecorder } from '../../content/load.ts';
import { parseKey } from '../cache/keys.ts';
import { beginStats } from './stat-files.ts';
import { EVENTS_KIND, fileSystemNow, KEY_BYTES, OTHER_KINDS, putStat, putStatText, STAT_FIELDS, type FileStats } from '../state/stat-fields.ts';

/** Content files' stats and keys (FileStats' arrays), and where each file is among them (made when first asked). */
export type StatRecord = Omit<FileStats, 'zone'> & { eventIndex?: Map<string, number>; otherIndex?: Map<string, number> };

const index = (files: readonly string[]) => new Map(files.map((f, i) => [f, i]));

/** Where a file's stat and key are in `r`; null where it has none. */
function slot(r: StatRecord, kind: string, file: string): { stats: BigInt64Array; keys: Buffer; i: number } | null {
  if (!kind.startsWith(EVENTS_KIND)) {
    const i = (r.otherIndex ??= index(r.otherFiles)).get(`${kind}\0${file}`);
    return i === undefined ? null : { stats: r.otherStats, keys: r.otherKeys, i };
  }
  const i = (r.eventIndex ??= index(r.eventFiles)).get(file);
  return i === undefined ? null : { stats: r.eventStats, keys: r.eventKeys, i };
}

/** Puts each file parsed, here or on a parse thread, among the next stats and keys. */
export class NextStats implements ParseRecorder {
  constructor(readonly next: StatRecord) {}

  /** A file read and parsed here: its key made of its text, its stat (taken before the read) recorded. */
  parsed(kind: string, file: string, text: string, stat?: BigIntStats): void {
    this.record(kind, file, stat, parseKey(kind, file, text));
  }

  /** A file parsed on a parse thread: its key (hex) and stat (statText) as the thread made them; none: it has no stat (size -1). */
  record(kind: string, file: string, stat: BigIntStats | string | undefined, key: Buffer | string): void {
    const at = slot(this.next, kind, file);
    if (!at) return;
    if (typeof stat === 'object') putStat(at.stats, at.i, stat);
    else if (stat === undefined || !putStatText(at.stats, at.i, stat)) return void putStat(at.stats, at.i, null);
    if (typeof key === 'string') at.keys.write(key, at.i * KEY_BYTES, 'hex');
    else key.copy(at.keys, at.i * KEY_BYTES);
  }
}

/** The recorded event files' stats (in their order; none recorded: null), taken after `safe`, the cache folder's time (null: not to be had). */
export type RecordedStats = { safe: bigint | null; finish: (() => Promise<BigInt64Array>) | null; abandon(): void };

/** Begins the stats of the recorded event files (none without a cache or a record) on the stat thread, once the cache folder's time is taken. */
export function beginRecordedStats(options: { content: string; cache?: string }, recorded: Pick<FileStats, 'eventFiles'> | null): RecordedStats {
  const safe = options.cache === undefined ? null : fileSystemNow(resolve(options.cache));
  if (safe === null || recorded === null) return { safe, finish: null, abandon: () => {} };
  const stating = beginStats(recorded.eventFiles.map((file) => join(resolve(options.content), file)));
  let finished: Promise<BigInt64Array> | undefined;
  return { safe, finish: () => (finished ??= stating.finish()), abandon: () => stating.abandon() };
}

/** Every file listed, as yet with no stat (size -1) nor key. */
export function nextStats(safe: bigint, files: ContentFiles): StatRecord {
  const otherFiles = OTHER_KINDS.flatMap((kind) => files[kind].map((file) => `${kind}\0${file}`));
  const none = (n: number) => new BigInt64Array(n * STAT_FIELDS).fill(-1n);
  const { events } = files;
  return { safe, eventFiles: events, eventStats: none(events.length), eventKeys: Buffer.alloc(events.length * KEY_BYTES), otherFiles, otherStats: none(otherFiles.length), otherKeys: Buffer.alloc(otherFiles.length * KEY_BYTES) };
}
