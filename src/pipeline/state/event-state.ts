// The event state: what a build over the previous one (load/state-load.ts, render/state-render.ts)
// needs of the last build into an out folder, kept in the build cache beside the dist ledger, so a
// build after an edit to a few event files need not load the whole model. Per event in list order:
// its id, the times it is sorted by, its last_modified (the manifest's built_at), the file it came
// from and its row's hash (rows/render-cache.ts rowHash); per content file its stat when read (and for the non-event files the key of
// their parse); and the small parts of the model the events are checked and rendered against
// (site, page tree, category ids, media with their sources).
//
// It is bound to one dist: the SHA-256 of the manifest.json that build wrote. Any other dist in
// --out (a build without cache, a hand edit) and the state is not used.
//
// File: AULAEVENTS1\n <identity>\n <SHA-256 of the payload, hex>\n <payload: v8.serialize>
// A damaged, foreign (other aula, dist format, V8) or misshapen state is ignored: the build is
// then a full one, never a wrong one.
import { deserialize, serialize } from 'node:v8';
import type { MediaSource } from '../../content/media.ts';
import type { Sourced } from '../../content/records.ts';
import type { Media, PageNode, Site } from '../../model/types.ts';
import { sha256Hex } from '../../store/format/manifest.ts';
import { cacheIdentity } from '../cache/build-cache.ts';
import { putStat, STAT_FIELDS } from './stat-fields.ts';
import { readSealed, unlinkQuietly, writeSealed } from '../cache/cache-file.ts';

const MAGIC = 'AULAEVENTS1\n';

/** The events in list order, one entry per row of the event rows (data/events/). */
export interface StateRows {
  id: Float64Array;
  start: Float64Array;
  end: Float64Array;
  lastModified: Float64Array;
  /** index into `eventFiles` */
  file: Uint32Array;
  /** the rows' hashes (render-cache.ts rowHash: of their bytes), 32 bytes each: the pages' keys are made of them */
  keys: Buffer;
}

/** Rows for `count` events, to be filled. */
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

/** What a build read and rendered, of which the next state is made: the content files' stats and keys, the media records as resolved, and the rows in list order. */
export type StateChanges = Pick<EventState, 'safe' | 'others' | 'eventFiles' | 'eventStats' | 'eventKeys' | 'rows' | 'mediaSources'>;

/**
 * The state every build leaves, bound to the manifest it wrote: `base`, the content it was built
 * against (the prior's state, or the model loaded whole), with what it read and rendered.
 */
export function nextEventState(base: Omit<EventState, keyof StateChanges | 'manifestSha'>, changed: StateChanges, manifestJson: string): EventState {
  return { ...base, ...changed, manifestSha: manifestShaOf(manifestJson) };
}

/** The SHA-256 (hex) a state is bound to: of the manifest.json text as written, and as read back. */
export function manifestShaOf(manifest: string | Uint8Array): string {
  return sha256Hex(typeof manifest === 'string' ? Buffer.from(manifest) : manifest);
}

export interface EventState {
  content: string;
  out: string;
  /** the build options a dist depends on (patchOptions), as JSON */
  options: string;
  /** SHA-256 (hex) of the manifest.json written with this state */
  manifestSha: string;
  /** the zone event files were read in (their cache kind is `events in <zone>`) */
  zone: string;
  /** file-system time before the stats were taken (stat-index.ts) */
  safe: bigint;
  /** every other content file: kind NUL file, its stat, its parse's key — flat */
  others: string[];
  /** every event file, and its stat when read: STAT_FIELDS numbers each (size -1: none recorded, it is read again) */
  eventFiles: string[];
  eventStats: BigInt64Array;
  /** and the key of its parse (build-cache.ts parseKey), 32 bytes each (meaningless where no stat is) */
  eventKeys: Buffer;
  site: Site;
  pages: Map<number, PageNode>;
  categoryIds: number[];
  media: Map<number, Media>;
  /** the media records as read and resolved (a build over the state resolves them again, to see that nothing moved) */
  mediaSources: Sourced<MediaSource>[];
  rows: StateRows;
}

export const KEY_BYTES = 32;

/** Where the state of one content folder built into one out folder lives: beside its ledger. */
export function eventStatePath(ledgerFile: string): string {
  return ledgerFile.replace(/\.json$/, '') + '.events';
}

const identityLine = () => `${cacheIdentity()} events\n`;

/** Writes the state beside and then over `path`; a failure leaves no state (the next build is a full one). */
export function writeEventState(path: string, state: EventState): void {
  if (!writeSealed(path, `${MAGIC}${identityLine()}`, [serialize(state)])) unlinkQuietly(path);
}

/** The state at `path` when it is intact, of this aula, of `content` built into `out`, and at most `most` bytes; else null. */
export function readEventState(path: string, content: string, out: string, most: number): EventState | null {
  const payload = readSealed(path, `${MAGIC}${identityLine()}`, most);
  if (payload === null) return null;
  let state: EventState;
  try {
    state = deserialize(payload) as EventState;
  } catch {
    return null;
  }
  return wellFormed(state) && state.content === content && state.out === out ? state : null;
}

const strings = (v: unknown): v is string[] => Array.isArray(v) && v.every((s) => typeof s === 'string');

/** A checksum that matches over a state of the wrong shape: written by something else. */
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

/** A stat as statText writes it (size:mtimeNs:ctimeNs:ino:dev), and a parse's key in hex. */
const STAT_TEXT = /^([0-9]+):([0-9]+):([0-9]+):([0-9]+):([0-9]+)$/;
const HEX_KEY = /^[0-9a-f]{64}$/;

/**
 * The content files as a whole load read them, as the state lists them: from the build cache's
 * records of this build (kind NUL file → stat, key; `kind`: the event files') the other files'
 * records, and the event files' stats and keys, with each fresh event's file (`fileOf`, in list
 * order) as an index among them; null where an event's file is not known (no state is kept then).
 */
export function recordedFiles(stats: { safe: bigint; records: ReadonlyMap<string, { stat: string; key: string }> }, kind: string, fileOf: readonly (string | undefined)[]): Pick<EventState, 'safe' | 'others' | 'eventFiles' | 'eventStats' | 'eventKeys'> & { freshFiles: number[] } | null {
  if (fileOf.includes(undefined)) return null;
  // one pass over the records (one per content file), each stat parsed by one match
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
