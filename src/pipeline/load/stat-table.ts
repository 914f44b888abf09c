// The content files' stats and parse keys as a load reaches them: the one record (the event state's,
// state/stat-fields.ts) tells which file is unchanged since a build parsed it, so its parse is taken
// from the build cache's pack by its recorded key without a read; and the stats and keys this load
// takes are put, as it reads and parses, into the next state's arrays (each kind's files in the
// listing's order, as the load over the prior lists them). The build cache itself is only the pack.
import type { BigIntStats } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type { ContentFiles } from '../../content/files.ts';
import type { ParseCache } from '../../content/load.ts';
import type { Parsed } from '../../content/records.ts';
import { parseKey, type BuildCache } from '../cache/build-cache.ts';
import { decodeParse } from '../cache/parse-payload.ts';
import { beginStats } from './stat-files.ts';
import { EVENTS_KIND, fileSystemNow, fileStat, freshStatAt, KEY_BYTES, MARGIN_NS, OTHER_KINDS, putStat, putStatText, STAT_FIELDS, type FileStats } from '../state/stat-fields.ts';

/** Content files' stats and keys (FileStats' arrays), and where each file is among them (made when first asked). */
export type StatRecord = Omit<FileStats, 'zone'> & { eventIndex?: Map<string, number>; otherIndex?: Map<string, number> };

const index = (files: readonly string[]) => new Map(files.map((f, i) => [f, i]));

/** Where a file's stat and key are in `r` (an event file's usual place: `at`); null where it has none. */
function slot(r: StatRecord, kind: string, file: string, at?: number): { stats: BigInt64Array; keys: Buffer; i: number } | null {
  if (!kind.startsWith(EVENTS_KIND)) {
    const i = (r.otherIndex ??= index(r.otherFiles)).get(`${kind}\0${file}`);
    return i === undefined ? null : { stats: r.otherStats, keys: r.otherKeys, i };
  }
  const i = at !== undefined && r.eventFiles[at] === file ? at : (r.eventIndex ??= index(r.eventFiles)).get(file);
  return i === undefined ? null : { stats: r.eventStats, keys: r.eventKeys, i };
}

/** A ParseCache over the pack (none: parses are only made) that the loader and the parse threads' pool take. */
export class StatTable implements ParseCache {
  /** files taken by their stat alone, without reading them */
  unread = 0;
  private readonly now = new BigInt64Array(STAT_FIELDS);
  /** the recorded event files' stats as this load took them (beginRecordedStats), in the record's order: unchanged() judges them by these (null: by a stat of its own) */
  current: BigInt64Array | null = null;

  /** `recorded`: the record files are judged by; `next`: this load's stats and keys, over the files listed (none: not kept). `margin`: tests set 0. */
  constructor(
    readonly cache: BuildCache | null,
    private recorded: (StatRecord & Pick<FileStats, 'zone'>) | null,
    readonly next: StatRecord | null,
    private readonly margin = MARGIN_NS,
  ) {}

  /**
   * Over the pack at `packPath`: `recorded` trusted and `files`' stats kept only where the cache
   * folder's time can be taken before any content file is stat'ed (`safe`, where it was taken
   * already: null, it could not be).
   */
  static open(cache: BuildCache, packPath: string, recorded: FileStats | null, files: ContentFiles | null, margin?: bigint, safe = fileSystemNow(dirname(packPath))): StatTable {
    const trusted = safe !== null && recorded !== null && !cache.stats.foreign ? recorded : null;
    return new StatTable(cache, trusted, safe !== null && files !== null ? nextStats(safe, files) : null, margin);
  }

  /** The cached parse of a file whose stat is as recorded, without reading it (`at`: its place among its kind's listed); undefined: read it and call parse(). */
  unchanged<T>(kind: string, file: string, path: string | Buffer, at?: number): Parsed<T> | undefined {
    const r = this.recorded;
    const was = r === null || (kind.startsWith(EVENTS_KIND) && kind !== `${EVENTS_KIND}${r.zone}`) ? null : slot(r, kind, file, at);
    const event = was?.stats === r?.eventStats && this.current !== null;
    const stat = was === null || event ? null : fileStat(path);
    if (was === null || (!event && stat === null)) return undefined;
    if (stat !== null) putStat(this.now, 0, stat);
    const [now, j] = event ? [this.current!, was.i] : [this.now, 0];
    if (!freshStatAt(was.stats, was.i, now, j, r!.safe, this.margin)) return undefined;
    const key = was.keys.toString('hex', was.i * KEY_BYTES, (was.i + 1) * KEY_BYTES);
    const value = this.cache?.take<T>(kind, file, key);
    if (value === undefined) return undefined;
    this.unread++;
    this.record(kind, file, now.subarray(j * STAT_FIELDS, (j + 1) * STAT_FIELDS), key, at);
    return value;
  }

  /** The pack's parse of `text`, or `parse()`'s, kept; its stat (taken before the read) recorded. */
  parse<T>(kind: string, file: string, text: string, parse: () => Parsed<T>, stat?: BigIntStats): Parsed<T> {
    const key = parseKey(kind, file, text);
    this.record(kind, file, stat, key.toString('hex'));
    return this.cache ? this.cache.parse(kind, file, key, parse) : parse();
  }

  /** A parse made on a parse thread, adopted into the pack; its stat recorded. */
  adopt<T>(kind: string, file: string, made: Parameters<BuildCache['adopt']>[2]): Parsed<T> {
    this.record(kind, file, made.stat, made.key);
    return this.cache ? this.cache.adopt(kind, file, made) : (decodeParse(made.payload, true) as Parsed<T>);
  }

  /** Puts a file's stat (none: it has none, size -1) and key among the next ones (`place`: as unchanged()'s `at`). */
  private record(kind: string, file: string, stat: BigIntStats | BigInt64Array | string | undefined, key: string, place?: number): void {
    const at = this.next && slot(this.next, kind, file, place);
    if (!at) return;
    if (stat instanceof BigInt64Array) at.stats.set(stat, at.i * STAT_FIELDS);
    else if (typeof stat === 'object') putStat(at.stats, at.i, stat);
    else if (stat === undefined || !putStatText(at.stats, at.i, stat)) return void putStat(at.stats, at.i, null);
    at.keys.write(key, at.i * KEY_BYTES, 'hex');
  }

  /** Lets go of the record and the pack's entries (after save). */
  release(): void {
    this.cache?.release();
    this.recorded = null;
    this.current = null;
  }
}

/** The recorded event files' stats (in their order; none recorded: null), taken after `safe`, the cache folder's time (null: not to be had). */
export type RecordedStats = { safe: bigint | null; finish: (() => Promise<BigInt64Array>) | null; abandon(): void };

/** Begins the stats of the recorded event files (none without a cache or a record) on the stat thread, once the cache folder's time is taken. */
export function beginRecordedStats(options: { content: string; cache?: string }, recorded: FileStats | null): RecordedStats {
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
