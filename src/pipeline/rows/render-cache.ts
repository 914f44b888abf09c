// The render cache: each event's row (JSON and field offsets) under a key of everything it is made
// of: its source (its file's parse key and its id), the whole render context and the code's
// identity. Keys are content hashes, never times. Each row also has the hash of its bytes
// (rowHash), which the pages' keys are made of (page-keys.ts).
//
// File: a keyed store (keyed-store.ts) headed AULAROWS\n <identity> rows <checksum>\n, an entry
// per row, its payload the row's hash (32) | its field offsets (FIELD_COUNT + 1 × u32 LE) | its
// JSON (UTF-8), which stays in the file until the rows are put together.
import type { Event } from '../../model/types.ts';
import { wholeEvent, type TextlessEvent } from '../../model/event-texts.ts';
import { eventRowWriter, type EventRow, type RenderContext } from '../../render/event-row.ts';
import { FIELD_COUNT, type EventRows } from '../../store/format/event-rows.ts';
import { RowBytes, type RowInFile } from '../../store/write/row-bytes.ts';
import { cacheFile, cacheIdentity, sha256 } from '../cache/build-cache.ts';
import { checksum, CHECKSUM } from '../../util/checksum.ts';
import { stableJson } from '../../util/stable-json.ts';
import { ENTRY_HEAD as HEAD, KeyedStore, putKeyedHead, type NextFile } from '../cache/keyed-store.ts';

const MAGIC = Buffer.from('AULAROWS\n');
const STRIDE = FIELD_COUNT + 1;
export const ROW_KEY_BYTES = 32;
export const ROW_HASH_BYTES = 32;
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
  putRowHead(out, at + HEAD, hash, offsets);
  putKeyedHead(out, at, key, checksum(out.subarray(at + HEAD, at + ROW_ENTRY_HEAD), json), HASH + OFFSETS + json.byteLength);
}

/** Writes a row's payload head, its hash and offsets, into `out` at `at`; its JSON follows it. */
function putRowHead(out: Buffer, at: number, hash: Uint8Array, offsets: ArrayLike<number>): void {
  out.set(hash, at);
  for (let i = 0; i < STRIDE; i++) out.writeUInt32LE(offsets[i], at + HASH + i * 4);
}

/** The rows file the parse threads write into (rows-scratch.ts): the rows cache's next file when it holds rows this build uses. */
export type RowsInProgress = NextFile;

export const rowsPath = (cacheDir: string, content: string) => cacheFile(cacheDir, content, 'rows', 'bin');

/**
 * Each event's row key: SHA-256 of the whole render context (renderInputs) and of the event's
 * source, its file's parse key and its id (which name one record). The whole context, not the
 * parts rendering reads: whatever rendering comes to read is in the key already.
 */
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

/** Rows made ahead by the record they were made of (none when against another context than the build's), and `whole` to restore an event's texts. */
export interface RowsAhead {
  premade: ReadonlyMap<TextlessEvent, PremadeRow> | undefined;
  whole: (e: TextlessEvent) => Event;
}

/** A row's inputs besides its event, as one string: rows made ahead are used only when theirs equals the build's. */
export function renderInputs(ctx: RenderContext): string {
  return stableJson([cacheIdentity(), ctx]);
}

export interface RowsCacheStats {
  reused: number;
  rendered: number;
  corrupt: number;
}

/** A rows file larger than this per event (plus the base) is taken for damage. */
const ROWS_FILE_PER_EVENT = 256 * 1024;
const ROWS_FILE_BASE = 16 << 20;

const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

/** Copies a stored row's hash and offsets (`held`, of a payload of `length` bytes) into place at `row`; false when they do not fit it. */
function unpack(held: Buffer, length: number, starts: Uint32Array, startsBytes: Buffer, hashes: Buffer, row: number): boolean {
  if (LITTLE_ENDIAN) held.copy(startsBytes, row * OFFSETS, HASH, HASH + OFFSETS);
  else for (let i = 0; i < STRIDE; i++) starts[row * STRIDE + i] = held.readUInt32LE(HASH + i * 4);
  if (starts[row * STRIDE + FIELD_COUNT] !== length - HASH - OFFSETS) return false;
  held.copy(hashes, row * HASH, 0, HASH);
  return true;
}

/**
 * The rows of `events` (list order) with their keys, and their rowHashes end to end: each taken
 * from the cache at `path` when its key is there and intact, else made ahead (`ahead`), else
 * rendered; the rows made anew are stored. `made`: the file the parse threads wrote their rows into (premade rows point into it),
 * the store's next file when they are used. Nothing in the cache is needed: when it cannot be read
 * or written the rows are just rendered. `lookUp` false: the file is not read (the events are of
 * files changed since the rows it holds were made, which no stored row has), only appended to.
 */
export function cachedRows(
  path: string,
  events: readonly TextlessEvent[],
  keys: readonly Buffer[],
  ctx: RenderContext,
  stats: RowsCacheStats,
  { premade, whole: wholeOf }: RowsAhead = { premade: undefined, whole: wholeEvent },
  made?: RowsInProgress | null,
  lookUp = true,
): { rows: EventRows; hashes: Buffer } {
  const most = ROWS_FILE_BASE + events.length * ROWS_FILE_PER_EVENT;
  const store = new KeyedStore(path, rowsFileHeader(), { most, held: HASH + OFFSETS, index: lookUp });
  // each row goes into the rows' buffer as soon as it is taken or made (row-bytes.ts)
  const out = new RowBytes(events.length);
  const { starts, startsBytes } = out;
  const hashes = Buffer.alloc(events.length * HASH);
  /** rows hashed once all are in place */
  const unhashed: number[] = [];
  /** rows to store: made here, or ahead outside `made` */
  const toStore: number[] = [];
  let madeBytes = 0;
  let writeRow: ((e: Event) => EventRow) | undefined; // (rows made here as the parse threads make theirs)
  events.forEach((e, row) => {
    const stored = store.peek(keys[row]);
    if (stored && unpack(stored.held, stored.length, starts, startsBytes, hashes, row)) {
      out.addBytes({ fd: store.fd!, position: stored.at + HASH + OFFSETS }, starts.subarray(row * STRIDE, (row + 1) * STRIDE));
      stats.reused++;
      return;
    }
    if (stored) stats.corrupt++;
    const ahead = premade?.get(e);
    const aheadIn = ahead?.json; // a view made when asked for: asked once
    if (ahead) {
      out.addBytes(aheadIn!, ahead.starts);
      if (ahead.hash) ahead.hash.copy(hashes, row * HASH);
      else unhashed.push(row);
    } else {
      const written = (writeRow ??= eventRowWriter(ctx))(wholeOf(e));
      out.addBytes(written.bytes, written.starts);
      unhashed.push(row);
    }
    if (ahead && made && !(aheadIn instanceof Uint8Array) && aheadIn!.fd === made.fd) madeBytes += ROW_ENTRY_HEAD + ahead.starts[FIELD_COUNT];
    else toStore.push(row);
    stats.rendered++;
  });
  try {
    const rows = out.finish();
    for (const row of unhashed) rowHash(out.row(row)).copy(hashes, row * HASH);
    if (made && madeBytes > 0) store.adopt(made, madeBytes);
    for (const row of toStore) {
      const head = Buffer.allocUnsafe(HASH + OFFSETS);
      putRowHead(head, 0, hashes.subarray(row * HASH, (row + 1) * HASH), starts.subarray(row * STRIDE, (row + 1) * STRIDE));
      store.put(keys[row], [head, out.row(row)]);
    }
    stats.corrupt += store.corrupt;
    store.seal();
    return { rows, hashes };
  } finally {
    store.close();
  }
}
