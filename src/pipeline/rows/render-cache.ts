// The render cache: each event's row (JSON and field offsets) under a key of everything it is made
// of: its source (its file's parse key and its id), the whole render context and the code's
// identity. Keys are content hashes, never times. Each row also has the hash of its bytes
// (rowHash), which the pages' keys are made of (page-keys.ts).
//
// File: AULAROWS\n <identity> rows <checksum>\n, then a keyed entry (cache-file.ts) per row, its
// payload the row's hash (32) | its field offsets (FIELD_COUNT + 1 × u32 LE) | its JSON (UTF-8).
// A file of another aula is ignored whole; an entry is used only when its checksum matches,
// and a damaged or cut file is read up to the damage. Rows made anew are appended, and the file
// is rewritten only when most of it is rows no longer used.
import { closeSync, fstatSync } from 'node:fs';
import type { Event } from '../../model/types.ts';
import { wholeEvent, type TextlessEvent } from '../../model/event-texts.ts';
import { eventRowWriter, type EventRow, type RenderContext } from '../../render/event-row.ts';
import { FIELD_COUNT, type EventRows } from '../../store/format/event-rows.ts';
import { RowBytes, type RowInFile } from '../../store/write/row-bytes.ts';
import { cacheFile, cacheIdentity, sha256 } from '../cache/build-cache.ts';
import { checksum, CHECKSUM } from '../../util/checksum.ts';
import { writeAllAt, writeAllv } from '../../util/positional-io.ts';
import { stableJson } from '../../util/stable-json.ts';
import { ENTRY_HEAD as HEAD, openCacheFile, openCacheFileToAppend, putKeyedHead, replaceCacheFile, unlinkQuietly, walkEntries } from '../cache/cache-file.ts';

const MAGIC = Buffer.from('AULAROWS\n');
const STRIDE = FIELD_COUNT + 1;
export const ROW_KEY_BYTES = 32;
export const ROW_HASH_BYTES = 32;
const KEY = ROW_KEY_BYTES;
const HASH = ROW_HASH_BYTES;
const OFFSETS = STRIDE * 4;
/** The bytes of an entry before its row's JSON: key, checksum, length, hash and offsets. */
export const ROW_ENTRY_HEAD = HEAD + HASH + OFFSETS;

/** A row's hash: SHA-256 of its JSON, all a page holds of it (page-keys.ts). */
export function rowHash(json: Uint8Array): Buffer {
  return sha256(json);
}

export function rowsFileHeader(): Buffer {
  return Buffer.concat([MAGIC, Buffer.from(`${cacheIdentity()} rows ${CHECKSUM}\n`)]);
}

/** Writes a row's entry head (ROW_ENTRY_HEAD bytes) into `out` at `at`; `json` follows it in the file. */
export function putEntryHead(out: Buffer, at: number, key: Uint8Array, hash: Uint8Array, offsets: ArrayLike<number>, json: Uint8Array): void {
  out.set(hash, at + HEAD);
  for (let i = 0; i < STRIDE; i++) out.writeUInt32LE(offsets[i], at + HEAD + HASH + i * 4);
  putKeyedHead(out, at, key, checksum(out.subarray(at + HEAD, at + ROW_ENTRY_HEAD), json), HASH + OFFSETS + json.byteLength);
}

function entryHead(key: Uint8Array, hash: Uint8Array, offsets: ArrayLike<number>, json: Uint8Array): Buffer {
  const head = Buffer.allocUnsafe(ROW_ENTRY_HEAD);
  putEntryHead(head, 0, key, hash, offsets, json);
  return head;
}

/**
 * The rows file the parse threads write into (rows-scratch.ts): a build writing its rows file
 * whole adds the rows it lacks and keeps it (keepAs), rather than writing every row again.
 */
export interface RowsInProgress {
  fd: number;
  /** where its entries end */
  end: number;
  keepAs(path: string): boolean;
}

export const rowsPath = (cacheDir: string, content: string) => cacheFile(cacheDir, content, 'rows', 'bin');

/** The parse key (parseKey, 32 bytes) of the file an event was read from. */
type SourceKeyOf = (e: TextlessEvent) => Uint8Array;

/**
 * Each event's row key: SHA-256 of the whole render context (renderInputs) and of the event's
 * source, its file's parse key and its id (which name one record). The whole context, not the
 * parts rendering reads: whatever rendering comes to read is in the key already.
 */
export function eventKeys(events: readonly TextlessEvent[], ctx: RenderContext, sourceKeyOf: SourceKeyOf, premade?: PremadeRows): Buffer[] {
  const keyOf = rowKeyer(ctx);
  return events.map((e) => premade?.get(e)?.key ?? keyOf(e, sourceKeyOf(e)));
}

/** eventKeys one event at a time (a parse thread's). */
export function rowKeyer(ctx: RenderContext): (e: TextlessEvent, source: Uint8Array) => Buffer {
  const context = sha256(Buffer.from(renderInputs(ctx)));
  return (e, source) => {
    if (source.byteLength !== ROW_KEY_BYTES) throw new Error(`a source key is ${ROW_KEY_BYTES} bytes, not ${source.byteLength}`);
    return sha256(context, source, Buffer.from(`${e.id}`));
  };
}

/** A row made on a parse thread (parse-batch.ts): bytes or where its thread left them; key and hash null without a cache. */
export interface PremadeRow {
  json: Uint8Array | RowInFile;
  starts: Uint32Array;
  key: Buffer | null;
  hash: Buffer | null;
}

/** Rows made ahead, by the event record they were made of. */
type PremadeRows = ReadonlyMap<TextlessEvent, PremadeRow>;

/** Rows made ahead (none when against another context than the build's), and `whole` to restore an event's texts. */
export interface RowsAhead {
  premade: PremadeRows | undefined;
  whole: (e: TextlessEvent) => Event;
}

/** A row's inputs besides its event, as one string: rows made ahead are used only when theirs equals the build's. */
export function renderInputs(ctx: RenderContext): string {
  return stableJson([cacheIdentity(), ctx]);
}

/** An entry read: where its JSON is in the file, the payload's length, and its hash and offsets (null: damaged). */
interface Stored {
  json: number;
  length: number;
  head: Buffer | null;
}

export interface RowsCacheStats {
  reused: number;
  rendered: number;
  corrupt: number;
}

/** A rows file larger than this per event (plus the base) is taken for damage. */
const ROWS_FILE_PER_EVENT = 256 * 1024;
const ROWS_FILE_BASE = 16 << 20;
const CHUNK = 16 << 20;

/**
 * The entries of a rows file by key (as latin1), checked against their checksums; none when it is
 * absent, foreign or over `most` bytes. The JSON stays in the file: read it from `fd`, then close it.
 */
export function readRows(path: string, most: number): { entries: Map<string, Stored>; count: number; whole: boolean; fd: number | null } {
  const entries = new Map<string, Stored>();
  const none = { entries, count: 0, whole: false, fd: null };
  const fd = openCacheFile(path);
  if (fd === null) return none;
  try {
    const size = fstatSync(fd).size;
    let count = 0;
    const end = size > most ? null : walkEntries(fd, size, rowsFileHeader(), CHUNK, (entry, at, bytes) => {
      const [key, sum, length] = [entry.toString('latin1', 0, KEY), Buffer.from(entry.subarray(KEY, HEAD - 4)), entry.readUInt32LE(HEAD - 4)];
      const payload = bytes(at, length);
      const intact = payload !== null && length > HASH + OFFSETS && checksum(payload).equals(sum);
      entries.set(key, { json: at + HASH + OFFSETS, length, head: intact ? Buffer.from(payload.subarray(0, HASH + OFFSETS)) : null });
      count++;
    });
    if (end === null) throw new Error('not a rows file');
    return { entries, count, whole: end === size, fd };
  } catch {
    closeSync(fd);
    return none;
  }
}

const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

/** Copies a stored row's hash and offsets into place at `row`; returns where its JSON is in the file, or -1 when damaged. */
function unpack(stored: Stored, starts: Uint32Array, startsBytes: Buffer, hashes: Buffer, row: number): number {
  const { head, length } = stored;
  if (head === null) return -1;
  if (LITTLE_ENDIAN) head.copy(startsBytes, row * OFFSETS, HASH, HASH + OFFSETS);
  else for (let i = 0; i < STRIDE; i++) starts[row * STRIDE + i] = head.readUInt32LE(HASH + i * 4);
  if (starts[row * STRIDE + FIELD_COUNT] !== length - HASH - OFFSETS) return -1;
  head.copy(hashes, row * HASH, 0, HASH);
  return stored.json;
}

/** The rows, and their rowHashes end to end in list order. */
interface CachedRows {
  rows: EventRows;
  hashes: Buffer;
}

/**
 * The rows of `events` (list order) with their keys, each taken from the cache at `path` when
 * its key is there and intact, else made ahead (`ahead`), else rendered; the rows made anew are
 * added to the file. `made`: the file the parse threads wrote their rows into (premade rows point into it), kept as
 * the rows file when the file is written whole. Nothing in the cache is needed: when it cannot be
 * read or written the rows are just rendered. `lookUp` false: the file is not read (the events are
 * of files changed since the rows it holds were made, which no stored row has), only appended to.
 */
export function cachedRows(
  path: string | null,
  events: readonly TextlessEvent[],
  keys: readonly Buffer[],
  ctx: RenderContext,
  stats?: RowsCacheStats,
  { premade, whole: wholeOf }: RowsAhead = { premade: undefined, whole: wholeEvent },
  made?: RowsInProgress | null,
  lookUp = true,
): CachedRows {
  const { entries, count, whole, fd } = path === null || !lookUp ? { entries: new Map<string, Stored>(), count: 0, whole: false, fd: null } : readRows(path, ROWS_FILE_BASE + events.length * ROWS_FILE_PER_EVENT);
  // each row goes into the rows' buffer as soon as it is taken or made (row-bytes.ts)
  const out = new RowBytes(events.length);
  const { starts, startsBytes } = out;
  const hashes = Buffer.alloc(events.length * HASH);
  /** rows hashed once all are in place */
  const unhashed: number[] = [];
  const names = entries.size === 0 ? null : keys.map((k) => k.toString('latin1'));
  /** per row: 0 taken from the cache, 1 made here, 2 made ahead and in `made` already */
  const fresh = new Uint8Array(events.length);
  let freshCount = 0;
  let writeRow: ((e: Event) => EventRow) | undefined; // (rows made here as the parse threads make theirs)
  events.forEach((e, row) => {
    const stored = names === null ? undefined : entries.get(names[row]);
    const json = stored ? unpack(stored, starts, startsBytes, hashes, row) : -1;
    if (stored && json < 0 && stats) stats.corrupt++;
    if (json >= 0) {
      out.addBytes({ fd: fd!, position: json }, starts.subarray(row * STRIDE, (row + 1) * STRIDE));
      if (stats) stats.reused++;
    } else {
      const ahead = premade?.get(e);
      const aheadIn = ahead?.json; // a view made when asked for: asked once
      if (ahead) {
        out.addBytes(aheadIn!, ahead.starts);
        const hash = ahead.hash;
        if (hash) hash.copy(hashes, row * HASH);
        else unhashed.push(row);
      } else {
        const written = (writeRow ??= eventRowWriter(ctx))(wholeOf(e));
        out.addBytes(written.bytes, written.starts);
        unhashed.push(row);
      }
      fresh[row] = aheadIn && !(aheadIn instanceof Uint8Array) && made && aheadIn.fd === made.fd ? 2 : 1;
      freshCount++;
      if (stats) stats.rendered++;
    }
  });
  entries.clear();
  let rows: EventRows;
  try {
    rows = out.finish();
  } finally {
    if (fd !== null) closeSync(fd);
  }
  for (const row of unhashed) rowHash(out.row(row)).copy(hashes, row * HASH);
  if (path !== null) {
    // appended while the file is whole and mostly live rows; rewritten when damaged (what follows
    // the damage could never be read) or when most of it is rows no longer used
    const compact = lookUp && (!whole || count === 0 || count + freshCount > 2 * new Set(names ?? keys.map((k) => k.toString('latin1'))).size);
    const entry = (row: number) => {
      const json = out.row(row);
      return [entryHead(keys[row], hashes.subarray(row * HASH, (row + 1) * HASH), starts.subarray(row * STRIDE, (row + 1) * STRIDE), json), json];
    };
    // written whole: the threads' file with the rows it lacks added, when it can be kept
    if (compact && made && addRows(made, events.flatMap((_, row) => (fresh[row] === 2 ? [] : entry(row)))) && made.keepAs(path)) return { rows, hashes };
    writeRows(path, compact, events.flatMap((_, row) => (compact || fresh[row] !== 0 ? entry(row) : [])));
  }
  return { rows, hashes };
}

/** Writes `parts` at the end of a rows file being made; false when a write failed. */
function addRows(made: RowsInProgress, parts: Buffer[]): boolean {
  try {
    for (let from = 0; from < parts.length; from += 1000) {
      const chunk = parts.slice(from, from + 1000);
      const length = chunk.reduce((n, p) => n + p.length, 0);
      writeAllAt(made.fd, Buffer.concat(chunk, length), made.end);
      made.end += length;
    }
    return true;
  } catch {
    return false;
  }
}

/** Writes whole (to a temporary file renamed into place) or appends; a failure leaves no cache, never a wrong one. */
function writeRows(path: string, whole: boolean, parts: Buffer[]): void {
  const writeAll = (fd: number, all: Buffer[]) => {
    for (let from = 0; from < all.length; from += 1000) writeAllv(fd, all.slice(from, from + 1000));
  };
  if (whole) {
    replaceCacheFile(path, (fd) => writeAll(fd, [rowsFileHeader(), ...parts]));
    return;
  }
  if (parts.length === 0) return;
  // a file not its own, or an append failed part way: removed, written anew next time
  const fd = openCacheFileToAppend(path);
  try {
    if (fd === null) throw new Error('not a rows file of its own');
    writeAll(fd, parts);
  } catch {
    unlinkQuietly(path);
  } finally {
    if (fd !== null) closeSync(fd);
  }
}
