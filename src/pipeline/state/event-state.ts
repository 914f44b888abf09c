// The event state: what a build over the previous one (load/state-load.ts) needs of it, so an edit
// to a few event files does not load the whole model. Per event in list order its id, sort times,
// last_modified, file and row hash; per content file its stat and parse key (stat-fields.ts); the
// small parts of the model events are checked and rendered against. It is bound to the SHA-256 of
// the manifest.json its build wrote. File: writeSealed(MAGIC, identity, the event files' names
// (util/shared-names.ts), v8.serialize(the rest of the state)); damaged, foreign or misshapen, it is
// ignored and the build is a whole one, never a wrong one.
import { deserialize, serialize } from 'node:v8';
import type { MediaSource } from '../../content/media.ts';
import type { Sourced } from '../../content/records.ts';
import type { Media, PageNode, Site } from '../../model/types.ts';
import { sha256Hex } from '../../store/format/manifest.ts';
import { cacheIdentity } from '../cache/keys.ts';
import { isFolderStats } from '../../content/listed-folders.ts';
import { KEY_BYTES, NO_STATS, STAT_FIELDS, type FileStats } from './stat-fields.ts';
import { readSealed, unlinkQuietly, writeSealed } from '../cache/cache-file.ts';
import { namesOf, namesPart } from '../../util/shared-names.ts';

/**
 * The events in list order, one entry per row of the event rows (data/events/): `file` an index
 * into `files` (an event file's), `keys` the rows' hashes (rowHash) end to end.
 */
export const stateRows = (n: number) =>
  ({ id: new Float64Array(n), start: new Float64Array(n), end: new Float64Array(n), lastModified: new Float64Array(n), file: new Uint32Array(n), keys: Buffer.allocUnsafe(n * KEY_BYTES) });
export type StateRows = ReturnType<typeof stateRows>;

/** A state with no rows, no files and no context but the `parts` given: an empty base's. */
export function emptyState(parts: Partial<EventState>): EventState {
  const none = { content: '', out: '', options: '', manifestSha: '', site: null as never, pages: new Map(), media: new Map(), categoryIds: [], mediaSources: [] };
  return { ...NO_STATS, ...none, rows: stateRows(0), ...parts };
}

/** The state a build leaves: its base's context (the prior's, or as read) with the stats and keys its load took (picked out of the plan) and the rows it rendered. */
export function nextEventState(base: EventState, { safe, files, eventCount, stats, keys, folders }: FileStats, rows: StateRows, manifestJson: string): EventState {
  return { ...base, safe, files, eventCount, stats, keys, folders, rows, manifestSha: manifestShaOf(manifestJson) };
}

/** The SHA-256 (hex) a state is bound to. */
export function manifestShaOf(manifest: string | Uint8Array): string {
  return sha256Hex(typeof manifest === 'string' ? Buffer.from(manifest) : manifest);
}

export interface EventState extends FileStats {
  content: string;
  out: string;
  /** patchOptions */
  options: string;
  manifestSha: string;
  site: Site;
  pages: Map<number, PageNode>;
  categoryIds: number[];
  media: Map<number, Media>;
  /** resolved again by a build over the state, to see that nothing moved */
  mediaSources: Sourced<MediaSource>[];
  rows: StateRows;
}

export function eventStatePath(ledgerFile: string): string {
  return ledgerFile.replace(/\.json$/, '') + '.events';
}

/** What an event state file begins with. */
export const eventStateHead = () => `AULAEVENTS3\n${cacheIdentity()} events\n`;

/** A failure leaves no state (the next build is a whole one). */
export function writeEventState(path: string, { files, ...rest }: EventState): void {
  if (!writeSealed(path, eventStateHead(), [...namesPart(files.slice(0, rest.eventCount)), serialize({ ...rest, others: files.slice(rest.eventCount) })])) unlinkQuietly(path);
}

/** The state at `path` when intact, this aula's, of `content` built into `out`, at most `most` bytes, with its event files' names as the file holds them (`names`: their text); else null. */
export function readEventState(path: string, content: string, out: string, most: number): { state: EventState; names: Buffer } | null {
  const payload = readSealed(path, eventStateHead(), most);
  const part = payload === null ? null : namesOf(payload);
  if (part === null) return null;
  let state: EventState;
  try {
    const { others, ...rest } = deserialize(payload!.subarray(part.rest)) as Omit<EventState, 'files'> & { others: string[] };
    state = { ...rest, files: Array.isArray(others) ? part.names.concat(others) : (null as never) };
  } catch {
    return null;
  }
  return wellFormed(state) && state.eventCount === part.names.length && state.content === content && state.out === out ? { state, names: part.text } : null;
}

/** A wrong shape under a good checksum: written by something else. */
function wellFormed(s: EventState): boolean {
  if (typeof s !== 'object' || s === null) return false;
  if (typeof s.content !== 'string' || typeof s.out !== 'string' || typeof s.options !== 'string' || typeof s.manifestSha !== 'string') return false;
  if (typeof s.safe !== 'bigint' || !Array.isArray(s.files) || !s.files.every((f) => typeof f === 'string') || !(Number.isSafeInteger(s.eventCount) && s.eventCount >= 0 && s.eventCount <= s.files.length)) return false;
  if (!(s.stats instanceof BigInt64Array) || s.stats.length !== s.files.length * STAT_FIELDS || !(s.keys instanceof Uint8Array) || s.keys.length !== s.files.length * KEY_BYTES) return false;
  s.keys = Buffer.from(s.keys.buffer, s.keys.byteOffset, s.keys.byteLength);
  if (s.folders != null && !isFolderStats(s.folders)) return false;
  if (typeof s.site !== 'object' || s.site === null || !(s.pages instanceof Map) || !(s.media instanceof Map)) return false;
  if (!Array.isArray(s.categoryIds) || !Array.isArray(s.mediaSources)) return false;
  const r = s.rows;
  if (typeof r !== 'object' || r === null || !(r.id instanceof Float64Array)) return false;
  const n = r.id.length;
  if (![r.start, r.end, r.lastModified].every((a) => a instanceof Float64Array && a.length === n)) return false;
  // the rows' times are made into dates, which throw on a value no event has
  if (![r.id, r.start, r.end, r.lastModified].every((a) => a.every(Number.isFinite))) return false;
  if (!(r.file instanceof Uint32Array) || r.file.length !== n || !(r.keys instanceof Uint8Array) || r.keys.length !== n * KEY_BYTES) return false;
  for (const f of r.file) if (f >= s.eventCount) return false;
  r.keys = Buffer.from(r.keys.buffer, r.keys.byteOffset, r.keys.byteLength);
  return true;
}

