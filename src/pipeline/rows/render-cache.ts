// The per-event render cache: an event's row in data/events/ (its serialized JSON and the byte
// offsets of its fields) is kept in the build cache folder under a key of everything the row is
// made of — the event's source (the parse key of its file: its kind with the zone, its path and
// its text; and the event's id in it), the whole render context renderEvent is handed (site,
// base URL, page tree, media) and the code's version (cacheIdentity). An unchanged event is then
// neither rendered nor serialized again; an edit to one event re-renders the rows of its file.
//
// The keys are content hashes, never times, so a touched file costs nothing and an event that
// really changed can never be served from the cache. An edited file's events are all rendered
// again, and a renamed file's (its path is in the key): a few rows.
//
// Each row also has a hash of its bytes (rowHash): a page is its rows' bytes in an envelope, so
// the pages' keys are made of those (page-keys.ts), and a page none of whose rows' bytes changed
// is linked, not answered, however the files its events came from changed.
//
// File: AULAROWS\n <identity> rows <checksum>\n, then per row:
//   key (32) | checksum of the payload (4) | payload length (u32 LE) | payload
//   payload = the row's hash (32) | its field offsets (FIELD_COUNT + 1 × u32 LE) | its JSON (UTF-8)
// A file of another aula is ignored whole; an entry is used only when its checksum matches,
// and a damaged or cut file is read up to the damage. Rows made anew are appended, and the file
// is rewritten only when most of it is rows no longer used.
import { closeSync, existsSync, fstatSync } from 'node:fs';
import type { Event } from '../../model/types.ts';
import { wholeEvent, type TextlessEvent } from '../../model/event-texts.ts';
import { renderEvent, type RenderContext } from '../../render/event.ts';
import { FIELD_COUNT, serializeEvent, type EventRows } from '../../store/format/event-rows.ts';
import { RowBytes, type RowInFile } from '../../store/write/row-bytes.ts';
import { cacheFile, cacheIdentity, sha256 } from '../cache/build-cache.ts';
import { checksum, CHECKSUM, CHECKSUM_BYTES } from '../../util/checksum.ts';
import { writeAllAt, writeAllv } from '../../util/positional-io.ts';
import { stableJson } from '../../util/stable-json.ts';
import { chunkReader, openCacheFile, openCacheFileToAppend, replaceCacheFile, unlinkQuietly } from '../cache/cache-file.ts';


const MAGIC = Buffer.from('AULAROWS\n');
const STRIDE = FIELD_COUNT + 1;
/** The length of a row's key (SHA-256, eventKeys). */
export const ROW_KEY_BYTES = 32;
/** The length of a row's hash (SHA-256 of its bytes, rowHash). */
export const ROW_HASH_BYTES = 32;
const KEY = ROW_KEY_BYTES;
const HASH = ROW_HASH_BYTES;
const SUM = CHECKSUM_BYTES;
const HEAD = KEY + SUM + 4;
const OFFSETS = STRIDE * 4;
/** The bytes of an entry before its row's JSON: key, checksum, length, hash and offsets. */
export const ROW_ENTRY_HEAD = HEAD + HASH + OFFSETS;


/** A row's hash: SHA-256 of its JSON's bytes, all a page holds of it (page-keys.ts). */
export function rowHash(json: Uint8Array): Buffer {
  return sha256(json);
}

/** What a rows file starts with. */
export function rowsFileHeader(): Buffer {
  return Buffer.concat([MAGIC, Buffer.from(`${cacheIdentity()} rows ${CHECKSUM}\n`)]);
}

/**
 * Writes the head of a row's entry (ROW_ENTRY_HEAD bytes) into `out` at `at`: `hash` is the row's
 * rowHash, `offsets` its FIELD_COUNT + 1 field offsets, `json` its bytes, which follow the head in
 * the file.
 */
export function putEntryHead(out: Buffer, at: number, key: Uint8Array, hash: Uint8Array, offsets: ArrayLike<number>, json: Uint8Array): void {
  out.set(key, at);
  out.writeUInt32LE(HASH + OFFSETS + json.byteLength, at + KEY + SUM);
  out.set(hash, at + HEAD);
  for (let i = 0; i < STRIDE; i++) out.writeUInt32LE(offsets[i], at + HEAD + HASH + i * 4);
  checksum(out.subarray(at + HEAD, at + ROW_ENTRY_HEAD), json).copy(out, at + KEY);
}

function entryHead(key: Uint8Array, hash: Uint8Array, offsets: ArrayLike<number>, json: Uint8Array): Buffer {
  const head = Buffer.allocUnsafe(ROW_ENTRY_HEAD);
  putEntryHead(head, 0, key, hash, offsets, json);
  return head;
}

/**
 * A rows file being made by the build's parse threads (parse-pool.ts): they write the entries of
 * the rows they render into it, as a rows file holds them. When the build writes its rows file
 * whole, it adds the rows missing from this one and keeps it as the rows file, instead of writing
 * all the rows the threads wrote already once more.
 */
export interface RowsInProgress {
  fd: number;
  /** where its entries end: the next one goes there */
  end: number;
  /** renames it to `path`; false when it could not (the build then writes the rows itself) */
  keepAs(path: string): boolean;
}

/** Where the rows of one content folder are kept. */
export const rowsPath = (cacheDir: string, content: string) => cacheFile(cacheDir, content, 'rows', 'bin');

/** The parse key (build-cache.ts parseKey, 32 bytes) of the file an event was read from. */
export type SourceKeyOf = (e: TextlessEvent) => Uint8Array;

/**
 * The key of each event's row (events in list order): SHA-256 of the whole render context (every
 * shared input a row may read: renderInputs) and of the event's source — its file's parse key and
 * its id, which together name one record: a file's records are a function of its kind (with the
 * zone), path and text, and ids are unique among them in any build that renders rows. Nothing is
 * picked out of the context: whatever rendering comes to read of it is in the key already, at
 * the price of every row made anew when any shared input changes (a page title, a media record).
 */
export function eventKeys(events: readonly TextlessEvent[], ctx: RenderContext, sourceKeyOf: SourceKeyOf, premade?: PremadeRows): Buffer[] {
  const keyOf = rowKeyer(ctx);
  return events.map((e) => premade?.get(e)?.key ?? keyOf(e, sourceKeyOf(e)));
}

/** eventKeys for one event at a time (a parse thread keys each event as it renders it). */
export function rowKeyer(ctx: RenderContext): (e: TextlessEvent, source: Uint8Array) => Buffer {
  const context = sha256(Buffer.from(renderInputs(ctx)));
  return (e, source) => {
    if (source.byteLength !== ROW_KEY_BYTES) throw new Error(`a source key is ${ROW_KEY_BYTES} bytes, not ${source.byteLength}`);
    return sha256(context, source, Buffer.from(`${e.id}`));
  };
}

/** An event's row, key and hash made ahead, on a parse thread (parse-batch.ts): its JSON's bytes and offsets. */
export interface PremadeRow {
  /** its bytes, or where its thread left them (row-bytes.ts) */
  json: Uint8Array | RowInFile;
  starts: Uint32Array;
  /** null: made for a build without a cache, which needs no keys (eventKeys makes it) */
  key: Buffer | null;
  /** its rowHash; null with `key` */
  hash: Buffer | null;
}

/** Rows made ahead, by the very event record they were made of. */
export type PremadeRows = ReadonlyMap<TextlessEvent, PremadeRow>;

/** The rows made ahead for a build (ParsePool.rowsFor), and its events whole for those it renders. */
export interface RowsAhead {
  /** none when they were made against another context than the build's */
  premade: PremadeRows | undefined;
  /** an event whole: as it is, or with its texts from its row when it came without them */
  whole: (e: TextlessEvent) => Event;
}

/**
 * Everything a row is made of besides its event — the whole render context, and the code that
 * renders — as one string (stableJson: maps as sorted entries, keys sorted). Rows made ahead
 * against one context are used only when it says the same as the build's own context.
 */
export function renderInputs(ctx: RenderContext): string {
  return stableJson([cacheIdentity(), ctx]);
}

/** An entry of the file read: where its row's JSON is in the file, its length, and its hash and offsets (null: the entry is damaged). */
interface Stored {
  json: number;
  length: number;
  /** its hash then its offsets, as stored */
  head: Buffer | null;
}

export interface RowsCacheStats {
  /** rows taken from the cache */
  reused: number;
  /** rows rendered anew */
  rendered: number;
  /** entries that failed their checksum */
  corrupt: number;
}

/**
 * The most a rows file is read for, per event of the build: its rows and the stale ones of a few
 * edits since the file was written whole stay far below it; a larger file is taken for damage.
 */
export const ROWS_FILE_PER_EVENT = 256 * 1024;
export const ROWS_FILE_BASE = 16 << 20;

/** Bytes of a rows file read at a time: the file is read through, never held whole. */
const CHUNK = 16 << 20;

/**
 * The entries of a rows file by key (its bytes as latin1), each checked against its checksum;
 * none when it is absent, foreign, unreadable or over `most` bytes. The file is read a chunk at
 * a time, and its rows' JSON left in it: `fd` stays open for them to be read from (close it).
 */
export function readRows(path: string, most: number): { entries: Map<string, Stored>; count: number; whole: boolean; fd: number | null } {
  const entries = new Map<string, Stored>();
  const none = { entries, count: 0, whole: false, fd: null };
  const fd = openCacheFile(path);
  if (fd === null) return none;
  try {
    const size = fstatSync(fd).size;
    const head = rowsFileHeader();
    if (size > most || size < head.length) throw new Error('not a rows file');
    const bytes = chunkReader(fd, size, CHUNK);
    if (!bytes(0, head.length)?.equals(head)) throw new Error('not a rows file');
    let count = 0;
    let at = head.length;
    while (at + HEAD <= size) {
      const length = bytes(at, HEAD)!.readUInt32LE(KEY + SUM);
      // cut short: the rest is lost, what came before stands
      const entry = bytes(at, HEAD + length);
      if (entry === null) break;
      const payload = entry.subarray(HEAD);
      const intact = length > HASH + OFFSETS && checksum(payload).equals(entry.subarray(KEY, KEY + SUM));
      entries.set(entry.toString('latin1', 0, KEY), { json: at + HEAD + HASH + OFFSETS, length, head: intact ? Buffer.from(payload.subarray(0, HASH + OFFSETS)) : null });
      count++;
      at += HEAD + length;
    }
    return { entries, count, whole: at === size, fd };
  } catch {
    closeSync(fd);
    return none;
  }
}

/** The offsets are copied as bytes into the Uint32Array, which holds them in the host's order. */
const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

/**
 * Copies a stored row's hash into `hashes` and its offsets into `starts` at `row` and returns
 * where its JSON starts in the file, or -1 when the entry is damaged (its checksum or shape is wrong).
 */
function unpack(stored: Stored, starts: Uint32Array, startsBytes: Buffer, hashes: Buffer, row: number): number {
  const { head, length } = stored;
  if (head === null) return -1;
  if (LITTLE_ENDIAN) head.copy(startsBytes, row * OFFSETS, HASH, HASH + OFFSETS);
  else for (let i = 0; i < STRIDE; i++) starts[row * STRIDE + i] = head.readUInt32LE(HASH + i * 4);
  if (starts[row * STRIDE + FIELD_COUNT] !== length - HASH - OFFSETS) return -1;
  head.copy(hashes, row * HASH, 0, HASH);
  return stored.json;
}

/** The rows of a build's events, and each row's rowHash (ROW_HASH_BYTES each, in list order). */
export interface CachedRows {
  rows: EventRows;
  hashes: Buffer;
}

/**
 * The rows of `events` (list order) with their keys, each taken from the cache at `path` when
 * its key is there and intact, else made ahead (`ahead`), else rendered; the rows made anew are
 * added to the file. `made`: the file the parse threads wrote their rows into (premade rows point into it), kept as
 * the rows file when the file is written whole. Nothing in the cache is needed: when it cannot be
 * read or written the rows are just rendered.
 */
export function cachedRows(
  path: string | null,
  events: readonly TextlessEvent[],
  keys: readonly Buffer[],
  ctx: RenderContext,
  stats?: RowsCacheStats,
  { premade, whole: wholeOf }: RowsAhead = { premade: undefined, whole: wholeEvent },
  made?: RowsInProgress | null,
): CachedRows {
  const { entries, count, whole, fd } = path === null ? { entries: new Map<string, Stored>(), count: 0, whole: false, fd: null } : readRows(path, ROWS_FILE_BASE + events.length * ROWS_FILE_PER_EVENT);
  // each row goes into the rows' buffer as soon as it is taken or made (row-bytes.ts)
  const out = new RowBytes(events.length);
  const { starts, startsBytes } = out;
  const hashes = Buffer.alloc(events.length * HASH);
  /** rows whose hash is made once they are all in place (rendered here) */
  const unhashed: number[] = [];
  // (a cold build has no stored rows: no names to look up)
  const names = entries.size === 0 ? null : keys.map((k) => k.toString('latin1'));
  /** per row: 0 taken from the cache, 1 made here, 2 made ahead and in `made` already */
  const fresh = new Uint8Array(events.length);
  let freshCount = 0;
  events.forEach((e, row) => {
    const stored = names === null ? undefined : entries.get(names[row]);
    const json = stored ? unpack(stored, starts, startsBytes, hashes, row) : -1;
    if (stored && json < 0 && stats) stats.corrupt++;
    if (json >= 0) {
      // read into its place by finish(), with its neighbours in the file
      out.addBytes({ fd: fd!, position: json }, starts.subarray(row * STRIDE, (row + 1) * STRIDE));
      if (stats) stats.reused++;
    } else {
      const ahead = premade?.get(e);
      // (each of a row made ahead's fields is a view made when asked for: asked once)
      const aheadIn = ahead?.json;
      if (ahead) {
        out.addBytes(aheadIn!, ahead.starts);
        const hash = ahead.hash;
        if (hash) hash.copy(hashes, row * HASH);
        else unhashed.push(row);
      } else {
        const serialized = serializeEvent(renderEvent(wholeOf(e), ctx));
        out.addJson(serialized.json, serialized.starts);
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
    const compact = !whole || count === 0 || count + freshCount > 2 * new Set(names ?? keys.map((k) => k.toString('latin1'))).size;
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

/**
 * Appends rows made elsewhere (a build over the event state, render/state-render.ts) to the rows file at `path`
 * when there is one, so the next full build takes them from the cache too.
 */
export function appendRows(path: string, rows: readonly { key: Buffer; hash: Buffer; json: Uint8Array; starts: ArrayLike<number> }[]): void {
  if (rows.length === 0 || !existsSync(path)) return;
  writeRows(path, false, rows.flatMap(({ key, hash, json, starts }) => [entryHead(key, hash, starts, json), Buffer.from(json.buffer, json.byteOffset, json.byteLength)]));
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
  // appended only when it is a rows file of its own (cache-file.ts); else, or when the append
  // fails part way, it goes, and the next build writes it anew
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
