// What a build that loads the content whole gives the next event state (event-state.ts): it watches
// the parse cache the loader calls (which file each event came from, the media records) and takes
// the events' list order and rows' hashes as they are rendered; the state is then recorded as
// every build records it (nextEventState).
import { stableJson } from '../../util/stable-json.ts';
import type { BigIntStats } from 'node:fs';
import { randomBytes } from 'node:crypto';
import type { ParseCache } from '../../content/load.ts';
import type { MediaSource } from '../../content/media.ts';
import type { Parsed, Sourced } from '../../content/records.ts';
import type { Event } from '../../model/types.ts';
import type { TextlessEvent } from '../../model/event-texts.ts';
import type { StatRecord } from '../cache/stat-index.ts';
import type { BuildCache, MadeParse } from '../cache/build-cache.ts';
import { KEY_BYTES, stateRows, type StateChanges, type StateRows } from './event-state.ts';
import { putStat, STAT_FIELDS } from './stat-fields.ts';

export const EVENTS_KIND = 'events in ';

/** A stat as statText writes it (size:mtimeNs:ctimeNs:ino:dev), and a parse's key in hex. */
const STAT_TEXT = /^([0-9]+):([0-9]+):([0-9]+):([0-9]+):([0-9]+)$/;
const HEX_KEY = /^[0-9a-f]{64}$/;

/**
 * The build's options as one string (every option but the callbacks): a build over the event
 * state is made only under the same. None is picked out as shaping the dist, so an option added later is in it already;
 * one that does not shape it (a lock's wait) costs, when changed, one full build.
 */
export function patchOptions(o: object): string {
  return stableJson(Object.fromEntries(Object.entries(o).filter(([, v]) => typeof v !== 'function' && v !== undefined)));
}

export class StateRecorder {
  /** each event's file, by the event's id: its number in `files` */
  private readonly fileOf = new Map<number, number>();
  /** the event files noted, and their parse keys (hex, as the cache has them): the events' sources */
  private files: string[] = [];
  private fileKeys: string[] = [];
  private mediaSources: Sourced<MediaSource>[] = [];
  private rows: StateRows | null = null;
  private rowFiles: string[] = [];

  /**
   * `cache` as the loader (and the parse threads' results) reach it, noting what the state needs
   * of each parse, and each event's source (sourceKeyOf).
   */
  wrap(cache: ParseCache & Pick<BuildCache, 'adopt' | 'lastKey'>): ParseCache & Pick<BuildCache, 'adopt'> {
    const note = <T>(kind: string, parsed: Parsed<T> | undefined): Parsed<T> | undefined => {
      if (parsed === undefined) return parsed;
      if (kind.startsWith(EVENTS_KIND)) {
        const records = parsed.records as Sourced<Event>[];
        if (records.length === 0) return parsed;
        const n = this.files.length;
        this.files.push(records[0].file);
        this.fileKeys.push(cache.lastKey());
        for (const r of records) this.fileOf.set(r.value.id, n);
      } else if (kind === 'media') this.mediaSources.push(...(parsed.records as Sourced<MediaSource>[]));
      return parsed;
    };
    return {
      parse: <T>(kind: string, file: string, text: string, parse: () => Parsed<T>, stat?: BigIntStats) => note(kind, cache.parse(kind, file, text, parse, stat))!,
      unchanged: <T>(kind: string, file: string, path: string | Buffer) => note(kind, cache.unchanged?.<T>(kind, file, path)),
      adopt: <T>(kind: string, file: string, made: MadeParse) => note(kind, cache.adopt<T>(kind, file, made))!,
    };
  }

  /**
   * The parse key of the file an event was read from (render-cache.ts: the source its row's key is
   * made of). An event the cache did not hand out (none should be) gets a key of its own that no
   * row in the cache has: its row is rendered, never taken for another's.
   */
  readonly sourceKeyOf = (e: TextlessEvent): Uint8Array => {
    const n = this.fileOf.get(e.id);
    return n === undefined ? randomBytes(KEY_BYTES) : Buffer.from(this.fileKeys[n], 'hex');
  };

  /** The events in list order with their rows' hashes (render-cache.ts rowHash, KEY_BYTES each), as they are rendered. */
  listOrder(events: readonly TextlessEvent[], hashes: Buffer): void {
    const n = events.length;
    const rows = stateRows(n);
    hashes.copy(rows.keys, 0, 0, n * KEY_BYTES);
    this.rowFiles = new Array(n);
    events.forEach((e, i) => {
      rows.id[i] = e.id;
      rows.start[i] = e.start;
      rows.end[i] = e.end;
      rows.lastModified[i] = e.last_modified;
      const n = this.fileOf.get(e.id);
      this.rowFiles[i] = n === undefined ? '' : this.files[n];
    });
    this.rows = rows;
    this.fileOf.clear();
    this.files = [];
    this.fileKeys = [];
  }

  /**
   * What this build read and rendered, as the next event state holds it (event-state.ts
   * nextEventState): `stats`, the build cache's records of this build (kind NUL file → stat, key)
   * and the time they are judged by, with the rows in list order; null without them or the rows
   * (no state is kept then: the next build loads the content whole).
   */
  changes(stats: { safe: bigint; records: ReadonlyMap<string, StatRecord> } | null, zone: string): StateChanges | null {
    const rows = this.rows;
    if (rows === null || stats === null || this.rowFiles.includes('')) return null;
    // One pass over the records (one per content file), each stat parsed by one match: this runs
    // at the end of every build with a cache, with nothing else left to run beside it, so it is
    // kept to one match per file rather than a split, tests and maps.
    const prefix = `${EVENTS_KIND}${zone}\0`;
    const others: string[] = [];
    const eventFiles: string[] = [];
    const eventStat: string[] = [];
    const eventKey: string[] = [];
    const index = new Map<string, number>();
    for (const [id, record] of stats.records) {
      if (!id.startsWith(prefix)) {
        others.push(id, record.stat, record.key);
        continue;
      }
      const file = id.slice(prefix.length);
      index.set(file, eventFiles.length);
      eventFiles.push(file);
      eventStat.push(record.stat);
      eventKey.push(record.key);
    }
    this.rowFiles.forEach((f, i) => {
      let at = index.get(f);
      if (at === undefined) {
        // an event file without a record: read again by the next build over the state
        index.set(f, (at = eventFiles.length));
        eventFiles.push(f);
        eventStat.push('');
        eventKey.push('');
      }
      rows.file[i] = at;
    });
    const eventStats = new BigInt64Array(eventFiles.length * STAT_FIELDS);
    const eventKeys = Buffer.alloc(eventFiles.length * KEY_BYTES);
    for (let i = 0; i < eventFiles.length; i++) {
      const stat = STAT_TEXT.exec(eventStat[i]);
      const key = eventKey[i];
      if (stat === null || !HEX_KEY.test(key)) {
        putStat(eventStats, i, null); // read again by the next build over the state
        continue;
      }
      eventKeys.write(key, i * KEY_BYTES, 'hex');
      putStat(eventStats, i, { size: BigInt(stat[1]), mtimeNs: BigInt(stat[2]), ctimeNs: BigInt(stat[3]), ino: BigInt(stat[4]), dev: BigInt(stat[5]) });
    }
    return { safe: stats.safe, others, eventFiles, eventStats, eventKeys, rows, mediaSources: this.mediaSources };
  }
}
