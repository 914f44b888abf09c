// The event state: what a build over the previous one (load/state-load.ts) needs of it, so an edit
// to a few event files does not load the whole model. Per event in list order its id, sort times,
// last_modified, file and row hash; per content file its stat and parse key (stat-fields.ts); the
// small parts of the model events are checked and rendered against. It is bound to the SHA-256 of
// the manifest.json its build wrote. File: writeSealed(MAGIC, identity, the event files' names
// (util/shared-names.ts), counts, v8.serialize(the context), the arrays as typed sections taken as
// views of the bytes read); foreign, misshapen or damaged where sealed: ignored, a whole build.
import { deserialize, serialize } from 'node:v8';
import type { MediaSource } from '../../content/media.ts';
import type { Sourced } from '../../content/records.ts';
import type { Media, PageNode, Site } from '../../model/types.ts';
import { sha256Hex } from '../../store/format/manifest.ts';
import { cacheIdentity } from '../cache/keys.ts';
import { isFolderStats } from '../../content/listed-folders.ts';
import { KEY_BYTES, NO_STATS, STAT_FIELDS, type FileStats } from './stat-fields.ts';
import { openCacheFile, sealedBy, sealedStart, unlinkQuietly, writeSealed } from '../cache/cache-file.ts';
import { namesIn, namesPart } from '../../util/shared-names.ts';
import { namesPartAgain, readNamesFile, type NamesFile, type NamesRead } from '../../util/names-file.ts';
import { bytesOf, sectionParts, sectionReader } from '../../util/typed-sections.ts';

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
export const manifestShaOf = (manifest: string | Uint8Array): string => sha256Hex(typeof manifest === 'string' ? Buffer.from(manifest) : manifest);

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
  /** the event files' names as read (in `files`, first) and their text: written again as they are where the next state lists the same */
  read?: NamesRead;
}

export const eventStatePath = (ledgerFile: string): string => ledgerFile.replace(/\.json$/, '') + '.events';

/** The most bytes a state of `records` events, pages, categories and media may hold. */
export const stateMost = (records: number) => (16 << 20) + records * 4096;

/** What an event state file begins with. */
export const eventStateHead = () => `AULAEVENTS4\n${cacheIdentity()} events\n`;

/** A failure leaves no state (the next build is a whole one). */
export function writeEventState(path: string, { files, stats, keys, rows, read, ...rest }: EventState): void {
  const context = serialize({ ...rest, others: files.slice(rest.eventCount) });
  const sealed = sectionParts([new Uint32Array([context.length, files.length, rows.id.length, 0]), context, rows.id, rows.start, rows.end, rows.lastModified, rows.file, rows.keys]);
  const names = (read && namesPartAgain(read, files, rest.eventCount)) ?? namesPart(files.slice(0, rest.eventCount));
  if (!writeSealed(path, eventStateHead(), [...names, ...sealed, ...sectionParts([stats, keys])], sealed)) unlinkQuietly(path);
}

/** The state file at `path` of at most `most` bytes, as read (not checked); null where there is none. */
export function openEventState(path: string, most: number): NamesFile | null {
  const fd = openCacheFile(path);
  return fd === null ? null : readNamesFile(fd, sealedStart(eventStateHead()), () => most);
}

/** The state `file` holds when intact, this aula's, of `content` built into `out`; else null. */
export function stateOf(file: NamesFile | null, content: string, out: string): EventState | null {
  if (file === null) return null;
  let state: EventState;
  try {
    const sections = sectionReader(file.body);
    const [contextLength, fileCount, n] = sections.take(Uint32Array, 4);
    const context = sections.take(Uint8Array, contextLength);
    const [id, start, end, lastModified] = [0, 0, 0, 0].map(() => sections.take(Float64Array, n));
    const rows = { id, start, end, lastModified, file: sections.take(Uint32Array, n), keys: bytesOf(sections.take(Uint8Array, n * KEY_BYTES)) };
    // sealed: what the build trusts; the names, stats and keys only ever send a file to be read again (damaged, none is found unchanged)
    if (!sealedBy(eventStateHead(), file.head, [file.body.subarray(0, sections.taken())])) return null;
    const { others, ...rest } = deserialize(context) as Omit<EventState, 'files' | 'stats' | 'keys' | 'rows'> & { others: string[] };
    const [stats, keys] = [sections.take(BigInt64Array, fileCount * STAT_FIELDS), bytesOf(sections.take(Uint8Array, fileCount * KEY_BYTES))];
    const files = Array.isArray(others) ? namesIn(file.names).concat(others) : (null as never);
    state = { ...rest, stats, keys, rows, files, read: { files, names: file.names } };
    sections.end();
  } catch {
    return null;
  }
  return wellFormed(state) && state.eventCount === file.names.count && state.content === content && state.out === out ? state : null;
}

/** A wrong shape under a good checksum: written by something else. */
function wellFormed(s: EventState): boolean {
  if (typeof s.content !== 'string' || typeof s.out !== 'string' || typeof s.options !== 'string' || typeof s.manifestSha !== 'string') return false;
  if (typeof s.safe !== 'bigint' || !Array.isArray(s.files) || !s.files.every((f) => typeof f === 'string') || !(Number.isSafeInteger(s.eventCount) && s.eventCount >= 0 && s.eventCount <= s.files.length)) return false;
  if (s.stats.length !== s.files.length * STAT_FIELDS || s.keys.length !== s.files.length * KEY_BYTES) return false;
  if (s.folders != null && !isFolderStats(s.folders)) return false;
  if (typeof s.site !== 'object' || s.site === null || !(s.pages instanceof Map) || !(s.media instanceof Map)) return false;
  if (!Array.isArray(s.categoryIds) || !Array.isArray(s.mediaSources)) return false;
  const r = s.rows;
  // the rows' times are made into dates, which throw on a value no event has (a loop: a typed array's every() calls back per value)
  for (const a of [r.id, r.start, r.end, r.lastModified]) for (const v of a) if (!Number.isFinite(v)) return false;
  for (const f of r.file) if (f >= s.eventCount) return false;
  return true;
}
