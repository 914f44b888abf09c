// The content files' stats and parse keys as a load over an empty prior reaches them: the one record
// (the event state's, state/stat-fields.ts) tells which file is unchanged since a build parsed it,
// so its parse is taken from the build cache's pack by its recorded key without a read; and this
// load's own stats and keys are kept beside it, of which the next state's are made. The build
// cache itself is only the pack: parses by key.
import type { BigIntStats } from 'node:fs';
import { dirname } from 'node:path';
import type { ParseCache } from '../../content/load.ts';
import type { Parsed } from '../../content/records.ts';
import { makeFolders } from '../../util/make-folders.ts';
import { parseKey, type BuildCache } from '../cache/build-cache.ts';
import { EVENTS_KIND, fileStat, OTHER_KINDS, fileSystemNow, freshStatAt, KEY_BYTES, MARGIN_NS, putStat, putStatText, statText, STAT_FIELDS, type FileStats } from '../state/stat-fields.ts';
import type { ContentFiles } from '../../content/files.ts';

/** The content files listed, as the next state lists them (each kind's files in the listing's order, state-load.ts), with this load's stats and keys. */
export type NextStats = Omit<FileStats, 'zone'> & { eventIndex: ReadonlyMap<string, number> };

/** The recorded stats and keys, and where each file is among them. */
class Recorded {
  readonly events: Map<string, number>;
  readonly others: Map<string, number>;
  constructor(readonly stats: FileStats) {
    const index = (files: string[]) => new Map(files.map((f, i) => [f, i]));
    this.events = index(stats.eventFiles);
    this.others = index(stats.otherFiles);
  }
}

/** The pack (`cache`) reached through the stat record (`recorded`): a ParseCache the loader and the parse threads' pool take. */
export class StatTable implements ParseCache {
  /** files taken by their stat alone, without reading them */
  unread = 0;
  private recorded: Recorded | null;
  /** the file-system time this load's stats are judged by (null: none are kept, nor trusted) */
  private readonly safe: bigint | null;
  /** this load's stats and keys, over the files listed (none: not kept) */
  private next: (NextStats & { otherIndex: Map<string, number> }) | null = null;
  private readonly now = new BigInt64Array(STAT_FIELDS);

  /** `packPath`: the pack's, in the cache folder where the time is probed; `files`: the listing, whose stats are kept (none: no stats are). `margin`: tests set 0. */
  constructor(
    readonly cache: BuildCache,
    packPath: string,
    recorded: FileStats | null,
    files: ContentFiles | null,
    private readonly margin = MARGIN_NS,
  ) {
    let safe: bigint | null;
    try {
      makeFolders(dirname(packPath));
      // taken before any content file is stat'ed: what this load records is judged against it
      safe = fileSystemNow(dirname(packPath));
    } catch {
      safe = null;
    }
    this.safe = safe;
    this.recorded = recorded && !cache.stats.foreign ? new Recorded(recorded) : null;
    if (safe !== null && files !== null) this.next = nextStats(safe, files);
  }

  /** The cached parse of a file whose stat is as recorded, without reading it; undefined: read it and call parse(). */
  unchanged<T>(kind: string, file: string, path: string | Buffer): Parsed<T> | undefined {
    const recorded = this.recorded;
    if (recorded === null || this.safe === null) return undefined;
    const { stats } = recorded;
    const event = kind === `${EVENTS_KIND}${stats.zone}`;
    const i = event ? recorded.events.get(file) : recorded.others.get(`${kind}\0${file}`);
    const stat = i === undefined ? null : fileStat(path);
    if (i === undefined || stat === null) return undefined;
    putStat(this.now, 0, stat);
    if (!freshStatAt(event ? stats.eventStats : stats.otherStats, i, this.now, 0, stats.safe, this.margin)) return undefined;
    const key = (event ? stats.eventKeys : stats.otherKeys).toString('hex', i * KEY_BYTES, (i + 1) * KEY_BYTES);
    const value = this.cache.take<T>(kind, file, key);
    if (value === undefined) return undefined;
    this.unread++;
    const at = this.at(kind, file);
    if (at !== null) {
      putStat(at.stats, at.i, stat);
      at.keys.write(key, at.i * KEY_BYTES, 'hex');
    }
    return value;
  }

  /** The pack's parse of `text`, or `parse()`'s, kept; its stat (taken before the read) recorded. */
  parse<T>(kind: string, file: string, text: string, parse: () => Parsed<T>, stat?: BigIntStats): Parsed<T> {
    const key = parseKey(kind, file, text);
    this.record(kind, file, stat && statText(stat), key.toString('hex'));
    return this.cache.parseKeyed(kind, file, key, parse);
  }

  /** A parse made on a parse thread, adopted into the pack; its stat recorded. */
  adopt<T>(kind: string, file: string, made: Parameters<BuildCache['adopt']>[2]): Parsed<T> {
    this.record(kind, file, made.stat, made.key);
    return this.cache.adopt(kind, file, made);
  }

  private record(kind: string, file: string, stat: string | undefined, key: string): void {
    const at = this.at(kind, file);
    if (at === null) return;
    if (stat !== undefined && putStatText(at.stats, at.i, stat)) at.keys.write(key, at.i * KEY_BYTES, 'hex');
    else putStat(at.stats, at.i, null);
  }

  /** Where a file's stat and key go among the next ones; null where none are kept. */
  private at(kind: string, file: string): { stats: BigInt64Array; keys: Buffer; i: number } | null {
    const next = this.next;
    if (next === null) return null;
    const event = kind.startsWith(EVENTS_KIND);
    const i = event ? next.eventIndex.get(file) : next.otherIndex.get(`${kind}\0${file}`);
    return i === undefined ? null : event ? { stats: next.eventStats, keys: next.eventKeys, i } : { stats: next.otherStats, keys: next.otherKeys, i };
  }

  /** This load's stats and keys, over the files listed; null when none are kept. */
  nextStats(): NextStats | null {
    return this.next;
  }

  /** Lets go of the record and the pack's entries (after save). */
  release(): void {
    this.cache.release();
    this.recorded = null;
  }
}

/** Every file listed, as yet with no stat (size -1) nor key. */
function nextStats(safe: bigint, files: ContentFiles): NextStats & { otherIndex: Map<string, number> } {
  const otherFiles = OTHER_KINDS.flatMap((kind) => files[kind].map((file) => `${kind}\0${file}`));
  const none = (n: number) => new BigInt64Array(n * STAT_FIELDS).fill(-1n);
  const index = (list: readonly string[]) => new Map(list.map((f, i) => [f, i]));
  const { events } = files;
  return {
    safe, eventFiles: events, eventStats: none(events.length), eventKeys: Buffer.alloc(events.length * KEY_BYTES), eventIndex: index(events),
    otherFiles, otherStats: none(otherFiles.length), otherKeys: Buffer.alloc(otherFiles.length * KEY_BYTES), otherIndex: index(otherFiles),
  };
}
