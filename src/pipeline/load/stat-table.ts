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
import { EVENTS_KIND, fileStat, fileSystemNow, freshStatAt, KEY_BYTES, MARGIN_NS, putStat, putStatText, statText, STAT_FIELDS, type FileStats } from '../state/stat-fields.ts';

/** This load's records: `kind NUL file` → statText (taken before the read) and key (hex). */
export type StatRecords = { safe: bigint; records: ReadonlyMap<string, { stat: string; key: string }> };

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
  private records = new Map<string, { stat: string; key: string }>();
  private readonly now = new BigInt64Array(STAT_FIELDS);

  /** `packPath`: the pack's, in the cache folder where the time is probed. `margin`: tests set 0. */
  constructor(
    readonly cache: BuildCache,
    packPath: string,
    recorded: FileStats | null,
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
    this.records.set(`${kind}\0${file}`, { stat: statText(stat), key });
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
    if (this.safe === null) return;
    if (stat === undefined) this.records.delete(`${kind}\0${file}`);
    else this.records.set(`${kind}\0${file}`, { stat, key });
  }

  /** This load's records and the time they are judged by; null when none are kept. */
  statRecords(): StatRecords | null {
    return this.safe === null ? null : { safe: this.safe, records: this.records };
  }

  /** Lets go of the record and the pack's entries (after save). */
  release(): void {
    this.cache.release();
    this.recorded = null;
    this.records = new Map();
  }
}

const HEX_KEY = /^[0-9a-f]{64}$/;

/**
 * A load's records as the state lists them (`kind`: the event files'), with each event's file
 * (`fileOf`, list order) as an index among them; null where an event's file is unknown (no state is
 * kept then).
 */
export function recordedFiles(stats: StatRecords, kind: string, fileOf: readonly (string | undefined)[]): (Omit<FileStats, 'zone'> & { freshFiles: number[] }) | null {
  if (fileOf.includes(undefined)) return null;
  const prefix = `${kind}\0`;
  const events: [string, string, string][] = [];
  const others: [string, string, string][] = [];
  const index = new Map<string, number>();
  for (const [id, { stat, key }] of stats.records) {
    if (!id.startsWith(prefix)) others.push([id, stat, key]);
    else index.set(id.slice(prefix.length), events.push([id.slice(prefix.length), stat, key]) - 1);
  }
  // an event file without a record: read again by the next build over the state
  const freshFiles = fileOf.map((f) => index.get(f!) ?? events.push([f!, '', '']) - 1);
  const [eventFiles, eventStats, eventKeys] = arrays(events);
  const [otherFiles, otherStats, otherKeys] = arrays(others);
  return { safe: stats.safe, eventFiles, eventStats, eventKeys, otherFiles, otherStats, otherKeys, freshFiles };
}

/** [file, statText, key] records as FileStats' arrays; a record of no stat or key has none (size -1). */
function arrays(records: readonly [string, string, string][]): [string[], BigInt64Array, Buffer] {
  const stats = new BigInt64Array(records.length * STAT_FIELDS);
  const keys = Buffer.alloc(records.length * KEY_BYTES);
  records.forEach(([, stat, key], i) => {
    if (HEX_KEY.test(key) && putStatText(stats, i, stat)) keys.write(key, i * KEY_BYTES, 'hex');
    else putStat(stats, i, null);
  });
  return [records.map(([file]) => file), stats, keys];
}
