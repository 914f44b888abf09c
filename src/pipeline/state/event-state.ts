// The event state: what a build over the previous one (load/state-load.ts) needs of it, so an edit
// to a few event files does not load the whole model. Per event in list order its id, sort times,
// last_modified, file and row hash; per content file its stat (and parse key); and the small parts
// of the model events are checked and rendered against. It is bound to the SHA-256 of the
// manifest.json its build wrote: any other dist in --out and it is not used.
//
// File: writeSealed(AULAEVENTS1\n <identity>\n, v8.serialize(state)). Damaged, foreign or
// misshapen, it is ignored: the build is then a whole one, never a wrong one.
import { serialize } from 'node:v8';
import type { MediaSource } from '../../content/media.ts';
import type { Sourced } from '../../content/records.ts';
import type { Media, PageNode, Site } from '../../model/types.ts';
import { sha256Hex } from '../../store/format/manifest.ts';
import { cacheIdentity } from '../cache/build-cache.ts';
import { putStat, STAT_FIELDS } from './stat-fields.ts';
import { readSealedValue, unlinkQuietly, writeSealed } from '../cache/cache-file.ts';

const MAGIC = 'AULAEVENTS1\n';

/** The events in list order, one entry per row of the event rows (data/events/). */
export interface StateRows {
  id: Float64Array;
  start: Float64Array;
  end: Float64Array;
  lastModified: Float64Array;
  /** index into `eventFiles` */
  file: Uint32Array;
  /** the rows' hashes (rowHash) end to end */
  keys: Buffer;
}

export function stateRows(count: number): StateRows {
  return {
    id: new Float64Array(count),
    start: new Float64Array(count),
    end: new Float64Array(count),
    lastModified: new Float64Array(count),
    file: new Uint32Array(count),
    keys: Buffer.allocUnsafe(count * KEY_BYTES),
  };
}

/** What a build read and rendered, of which the next state is made. */
type StateChanges = Pick<EventState, 'safe' | 'others' | 'eventFiles' | 'eventStats' | 'eventKeys' | 'rows' | 'mediaSources'>;

/** The state a build leaves: `base` (the prior's state, or the model loaded whole) with what it read and rendered. */
export function nextEventState(base: Omit<EventState, keyof StateChanges | 'manifestSha'>, changed: StateChanges, manifestJson: string): EventState {
  return { ...base, ...changed, manifestSha: manifestShaOf(manifestJson) };
}

/** The SHA-256 (hex) a state is bound to. */
export function manifestShaOf(manifest: string | Uint8Array): string {
  return sha256Hex(typeof manifest === 'string' ? Buffer.from(manifest) : manifest);
}

export interface EventState {
  content: string;
  out: string;
  /** patchOptions */
  options: string;
  manifestSha: string;
  /** the zone event files were read in (their cache kind is `events in <zone>`) */
  zone: string;
  /** stat-index.ts */
  safe: bigint;
  /** every other content file, flat: kind NUL file, stat, parse key */
  others: string[];
  /** every event file, its stat (STAT_FIELDS each; size -1: none) and parse key (32 bytes each) */
  eventFiles: string[];
  eventStats: BigInt64Array;
  eventKeys: Buffer;
  site: Site;
  pages: Map<number, PageNode>;
  categoryIds: number[];
  media: Map<number, Media>;
  /** resolved again by a build over the state, to see that nothing moved */
  mediaSources: Sourced<MediaSource>[];
  rows: StateRows;
}

export const KEY_BYTES = 32;

export function eventStatePath(ledgerFile: string): string {
  return ledgerFile.replace(/\.json$/, '') + '.events';
}

const identityLine = () => `${cacheIdentity()} events\n`;

/** A failure leaves no state (the next build is a whole one). */
export function writeEventState(path: string, state: EventState): void {
  if (!writeSealed(path, `${MAGIC}${identityLine()}`, [serialize(state)])) unlinkQuietly(path);
}

/** The state at `path` when intact, this aula's, of `content` built into `out`, at most `most` bytes; else null. */
export function readEventState(path: string, content: string, out: string, most: number): EventState | null {
  const state = readSealedValue(path, `${MAGIC}${identityLine()}`, most) as EventState | null;
  return state !== null && wellFormed(state) && state.content === content && state.out === out ? state : null;
}

const strings = (v: unknown): v is string[] => Array.isArray(v) && v.every((s) => typeof s === 'string');

/** A wrong shape under a good checksum: written by something else. */
function wellFormed(s: EventState): boolean {
  if (typeof s !== 'object' || s === null) return false;
  if (typeof s.content !== 'string' || typeof s.out !== 'string' || typeof s.options !== 'string' || typeof s.manifestSha !== 'string') return false;
  if (typeof s.zone !== 'string' || typeof s.safe !== 'bigint' || !strings(s.others) || s.others.length % 3 !== 0) return false;
  if (!strings(s.eventFiles) || !(s.eventStats instanceof BigInt64Array) || s.eventFiles.length * STAT_FIELDS !== s.eventStats.length) return false;
  if (!(s.eventKeys instanceof Uint8Array) || s.eventKeys.length !== s.eventFiles.length * KEY_BYTES) return false;
  s.eventKeys = Buffer.from(s.eventKeys.buffer, s.eventKeys.byteOffset, s.eventKeys.byteLength);
  if (typeof s.site !== 'object' || s.site === null || !(s.pages instanceof Map) || !(s.media instanceof Map)) return false;
  if (!Array.isArray(s.categoryIds) || !Array.isArray(s.mediaSources)) return false;
  const r = s.rows;
  if (typeof r !== 'object' || r === null) return false;
  const n = r.id instanceof Float64Array ? r.id.length : -1;
  if (n < 0 || !(r.start instanceof Float64Array) || !(r.end instanceof Float64Array) || !(r.lastModified instanceof Float64Array)) return false;
  if (r.start.length !== n || r.end.length !== n || r.lastModified.length !== n) return false;
  if (!(r.file instanceof Uint32Array) || r.file.length !== n || !(r.keys instanceof Uint8Array) || r.keys.length !== n * KEY_BYTES) return false;
  for (const f of r.file) if (f >= s.eventFiles.length) return false;
  r.keys = Buffer.from(r.keys.buffer, r.keys.byteOffset, r.keys.byteLength);
  return true;
}

/** The cache kind of event files, before their zone. */
export const EVENTS_KIND = 'events in ';

/** statText's (size:mtimeNs:ctimeNs:ino:dev). */
const STAT_TEXT = /^([0-9]+):([0-9]+):([0-9]+):([0-9]+):([0-9]+)$/;
const HEX_KEY = /^[0-9a-f]{64}$/;

/**
 * The content files a whole load read, as the state lists them, from the build cache's stat
 * records (`kind`: the event files'), with each event's file (`fileOf`, list order) as an index
 * among them; null where an event's file is unknown (no state is kept then).
 */
export function recordedFiles(stats: { safe: bigint; records: ReadonlyMap<string, { stat: string; key: string }> }, kind: string, fileOf: readonly (string | undefined)[]): Pick<EventState, 'safe' | 'others' | 'eventFiles' | 'eventStats' | 'eventKeys'> & { freshFiles: number[] } | null {
  if (fileOf.includes(undefined)) return null;
  const prefix = `${kind}\0`;
  const others: string[] = [];
  const eventFiles: string[] = [];
  const eventStat: string[] = [];
  const eventKey: string[] = [];
  const index = new Map<string, number>();
  const add = (file: string, stat: string, key: string) => {
    index.set(file, eventFiles.length);
    eventFiles.push(file);
    eventStat.push(stat);
    eventKey.push(key);
  };
  for (const [id, record] of stats.records) {
    if (id.startsWith(prefix)) add(id.slice(prefix.length), record.stat, record.key);
    else others.push(id, record.stat, record.key);
  }
  // an event file without a record: read again by the next build over the state
  const freshFiles = fileOf.map((f) => index.get(f!) ?? (add(f!, '', ''), eventFiles.length - 1));
  const eventStats = new BigInt64Array(eventFiles.length * STAT_FIELDS);
  const eventKeys = Buffer.alloc(eventFiles.length * KEY_BYTES);
  for (let i = 0; i < eventFiles.length; i++) {
    const stat = STAT_TEXT.exec(eventStat[i]);
    if (stat === null || !HEX_KEY.test(eventKey[i])) {
      putStat(eventStats, i, null);
      continue;
    }
    eventKeys.write(eventKey[i], i * KEY_BYTES, 'hex');
    putStat(eventStats, i, { size: BigInt(stat[1]), mtimeNs: BigInt(stat[2]), ctimeNs: BigInt(stat[3]), ino: BigInt(stat[4]), dev: BigInt(stat[5]) });
  }
  return { safe: stats.safe, others, eventFiles, eventStats, eventKeys, freshFiles };
}
