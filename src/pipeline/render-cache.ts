// The per-event render cache: an event's row of events.jsonl (its serialized JSON and the byte
// offsets of its fields) is kept in the build cache folder under a key of everything the row is
// made of — the event's record, and what renderEvent reads besides: the zone, the base URL, the
// breadcrumb trail of its page and the rendered media it references. An unchanged event is then
// neither rendered nor serialized again; an edit to one event re-renders one row.
//
// The keys are content hashes, never file names or times, so a rename or a touched file costs
// nothing and an event that really changed can never be served from the cache.
//
// File: AULAROWS\n <identity> rows <format> <checksum>\n, then per row:
//   key (32) | checksum of the payload (4) | payload length (u32 LE) | payload
//   payload = the row's field offsets (FIELD_COUNT + 1 × u32 LE) | the row's JSON (UTF-8)
// A file of another aula is ignored whole; an entry is used only when its checksum matches,
// and a damaged or cut file is read up to the damage. Rows made anew are appended, and the file
// is rewritten only when most of it is rows no longer used.
import { createHash } from 'node:crypto';
import * as zlib from 'node:zlib';
import { closeSync, mkdirSync, openSync, readFileSync, renameSync, unlinkSync, writevSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Event } from '../model/types.ts';
import { breadcrumb, renderEvent, renderMedia, type RenderContext } from '../render/event.ts';
import { EventRows, FIELD_COUNT, serializeEvent } from '../store/format/event-rows.ts';
import { cacheIdentity, packPath } from './build-cache.ts';

/** Bump when a row's bytes change meaning without a new aula version. */
export const ROWS_FORMAT = 1;

const MAGIC = Buffer.from('AULAROWS\n');
const STRIDE = FIELD_COUNT + 1;
const KEY = 32;
const SUM = 4;
const HEAD = KEY + SUM + 4;

const sha256 = () => createHash('sha256');

/**
 * The entries' checksum, against damage (the keys are what must not collide, and they are
 * SHA-256): CRC-32 where node has it (20.15+), a third of the cost of SHA-256 per row; the first
 * 4 bytes of SHA-256 before that. The header names which, so neither reads the other's file.
 */
const crc32 = (zlib as { crc32?: (data: Uint8Array, value?: number) => number }).crc32;
const CHECKSUM = crc32 ? 'crc32' : 'sha256/4';

function checksum(head: Uint8Array, body: Uint8Array): Buffer {
  const out = Buffer.allocUnsafe(SUM);
  if (crc32) out.writeUInt32LE(crc32(body, crc32(head)));
  else sha256().update(head).update(body).digest().copy(out, 0, 0, SUM);
  return out;
}

function header(): Buffer {
  return Buffer.concat([MAGIC, Buffer.from(`${cacheIdentity()} rows ${ROWS_FORMAT} ${CHECKSUM}\n`)]);
}

/** Where the rows of one content folder are kept. */
export function rowsPath(cacheDir: string, content: string): string {
  const pack = packPath(cacheDir, content);
  return join(dirname(pack), pack.slice(dirname(pack).length + 1).replace(/^parsed-/, 'rows-'));
}

/**
 * The key of each event's row (events in list order): SHA-256 of the event's record and of the
 * parts of the context its rendering reads. The record goes in as JSON: a row is the JSON of the
 * record's values (and instants formatted from its numbers, which JSON writes exactly), so two
 * records with the same JSON render the same row. Each part is one line of JSON (JSON escapes
 * newlines) and the media and the trail follow from ids inside the record, so no two different
 * inputs run together into the same key. Strings, not serialized buffers: 100k short-lived
 * strings cost a scavenge, 100k buffers hundreds of MB of memory outside the heap.
 */
export function eventKeys(events: readonly Event[], ctx: RenderContext): Buffer[] {
  const head = `${JSON.stringify([ROWS_FORMAT, cacheIdentity(), ctx.site.timezone, ctx.baseUrl])}\n`;
  const trails = new Map<number | null, string>();
  const media = new Map<number, string>();
  const trailOf = (page: number | null) => {
    let json = trails.get(page);
    if (json === undefined) trails.set(page, (json = `${JSON.stringify(breadcrumb(page, ctx.pages))}\n`));
    return json;
  };
  const mediaOf = (id: number) => {
    let json = media.get(id);
    if (json === undefined) {
      const m = ctx.media.get(id);
      media.set(id, (json = `${JSON.stringify(m ? renderMedia(m, ctx.baseUrl) : null)}\n`));
    }
    return json;
  };
  return events.map((e) => {
    let input = `${head}${JSON.stringify(e)}\n${trailOf(e.page)}`;
    for (const id of e.media) input += mediaOf(id);
    if (e.header_image !== null) input += mediaOf(e.header_image);
    for (const r of e.related_media) input += mediaOf(r.media);
    return sha256().update(input).digest();
  });
}

interface Stored {
  payload: Buffer;
  sum: Buffer;
}

export interface RowsCacheStats {
  /** rows taken from the cache */
  reused: number;
  /** rows rendered anew */
  rendered: number;
  /** entries that failed their checksum */
  corrupt: number;
}

/** The entries of a rows file by key (its bytes as latin1); none when it is absent, foreign or unreadable. */
export function readRows(path: string): { entries: Map<string, Stored>; count: number; whole: boolean } {
  const entries = new Map<string, Stored>();
  let count = 0;
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch {
    return { entries, count, whole: false };
  }
  const head = header();
  if (!bytes.subarray(0, head.length).equals(head)) return { entries, count, whole: false };
  let at = head.length;
  while (at + HEAD <= bytes.length) {
    const length = bytes.readUInt32LE(at + KEY + SUM);
    const end = at + HEAD + length;
    if (end > bytes.length) break; // cut short: the rest is lost, what came before stands
    entries.set(bytes.toString('latin1', at, at + KEY), { sum: bytes.subarray(at + KEY, at + KEY + SUM), payload: bytes.subarray(at + HEAD, end) });
    count++;
    at = end;
  }
  return { entries, count, whole: at === bytes.length };
}

/** A stored payload's offsets and JSON, or null when it is damaged (its checksum or shape is wrong). */
function unpack(stored: Stored): { starts: Uint32Array; json: Buffer } | null {
  const { payload } = stored;
  if (payload.length <= STRIDE * 4) return null;
  const head = STRIDE * 4;
  if (!checksum(payload.subarray(0, head), payload.subarray(head)).equals(stored.sum)) return null;
  const starts = new Uint32Array(STRIDE);
  for (let i = 0; i < STRIDE; i++) starts[i] = payload.readUInt32LE(i * 4);
  const json = payload.subarray(STRIDE * 4);
  if (starts[FIELD_COUNT] !== json.length) return null;
  return { starts, json };
}

function startsBytes(starts: Uint32Array | readonly number[]): Buffer {
  const out = Buffer.allocUnsafe(STRIDE * 4);
  for (let i = 0; i < STRIDE; i++) out.writeUInt32LE(starts[i], i * 4);
  return out;
}

/**
 * The rows of `events` (list order) with their keys, each taken from the cache at `path` when
 * its key is there and intact, rendered otherwise; the rows made anew are added to the file.
 * Nothing in the cache is needed: when it cannot be read or written the rows are just rendered.
 */
export function cachedRows(path: string | null, events: readonly Event[], keys: readonly Buffer[], ctx: RenderContext, stats?: RowsCacheStats): EventRows {
  const { entries, count, whole } = path === null ? { entries: new Map<string, Stored>(), count: 0, whole: false } : readRows(path);
  const starts = new Uint32Array(events.length * STRIDE);
  // a row is the cached bytes (a view of the file read) or the JSON just made, until both are
  // copied into the one buffer of events.jsonl (its size is known from the offsets)
  const lines: (Buffer | string)[] = new Array(events.length);
  const sums: (Buffer | null)[] = new Array(events.length);
  let total = Math.max(0, events.length - 1);
  events.forEach((e, row) => {
    const stored = entries.get(keys[row].toString('latin1'));
    const hit = stored ? unpack(stored) : null;
    if (stored && !hit && stats) stats.corrupt++;
    if (hit) {
      starts.set(hit.starts, row * STRIDE);
      lines[row] = hit.json;
      sums[row] = stored!.sum;
      if (stats) stats.reused++;
    } else {
      const made = serializeEvent(renderEvent(e, ctx));
      starts.set(made.starts, row * STRIDE);
      lines[row] = made.json;
      sums[row] = null;
      if (stats) stats.rendered++;
    }
    total += starts[row * STRIDE + FIELD_COUNT];
  });
  const bytes = Buffer.allocUnsafe(total);
  const views: Buffer[] = new Array(events.length);
  let at = 0;
  lines.forEach((line, row) => {
    if (row > 0) bytes[at++] = 0x0a;
    const length = starts[row * STRIDE + FIELD_COUNT];
    if (typeof line === 'string') bytes.write(line, at);
    else line.copy(bytes, at);
    views[row] = bytes.subarray(at, at + length);
    at += length;
  });
  lines.length = 0;
  const rows = new EventRows(bytes, starts);
  if (path !== null) {
    const used = new Set(keys.map((k) => k.toString('latin1')));
    const fresh = sums.filter((s) => s === null).length;
    // appended while the file is whole and mostly live rows; rewritten when damaged (what follows
    // the damage could never be read) or when most of it is rows no longer used
    const compact = !whole || count === 0 || count + fresh > 2 * used.size;
    const rowsToWrite: number[] = [];
    events.forEach((_, row) => {
      if (compact || sums[row] === null) rowsToWrite.push(row);
    });
    writeRows(path, compact, rowsToWrite.map((row) => {
      const head = startsBytes(starts.subarray(row * STRIDE, (row + 1) * STRIDE));
      const sum = sums[row] ?? checksum(head, views[row]);
      const length = Buffer.allocUnsafe(4);
      length.writeUInt32LE(head.length + views[row].length);
      return [keys[row], sum, length, head, views[row]];
    }));
  }
  return rows;
}

/** Writes whole (to a temporary file renamed into place) or appends; a failure leaves no cache, never a wrong one. */
function writeRows(path: string, whole: boolean, entries: Buffer[][]): void {
  if (!whole && entries.length === 0) return;
  const target = whole ? `${path}.${process.pid}.tmp` : path;
  let fd: number | null = null;
  try {
    mkdirSync(dirname(path), { recursive: true });
    fd = openSync(target, whole ? 'w' : 'a');
    let parts: Buffer[] = whole ? [header()] : [];
    const flush = () => {
      // writev takes at most IOV_MAX (1024) buffers; a short write is finished piece by piece
      let written = writevSync(fd!, parts);
      let left = parts.reduce((n, p) => n + p.length, 0) - written;
      for (const p of parts) {
        if (left <= 0) break;
        if (written >= p.length) {
          written -= p.length;
          continue;
        }
        const rest = p.subarray(written);
        written = 0;
        let done = 0;
        while (done < rest.length) done += writevSync(fd!, [rest.subarray(done)]);
        left -= rest.length;
      }
      parts = [];
    };
    for (const entry of entries) {
      parts.push(...entry);
      if (parts.length >= 1000) flush();
    }
    flush();
    closeSync(fd);
    fd = null;
    if (whole) renameSync(target, path);
  } catch {
    if (fd !== null) closeSync(fd);
    try {
      unlinkSync(whole ? target : path);
    } catch {
      // nothing to remove
    }
  }
}
