// The parse threads' module (parse-pool.ts starts them): each batch of content files is read (with
// its stat when the build keeps a cache), parsed by the loader's own parser, and its parse handed
// back serialized, with the cache key of its text and the payload's checksum, so the build's main
// thread neither reads, hashes, parses nor serializes it (it adopts the bytes, build-cache.ts).
// The answer's buffers are handed over, not copied.
//
// A file whose key the pack holds (the main thread shares the pack's index: KeyedStore.sharedIndex)
// is not parsed: its stored parse is read from the pack and answered as a parse would be (its rows
// rendered from it), marked `stored` so that the main thread keeps the pack's entry. A damaged
// entry is parsed.
//
// Answer layout: the payloads end to end in `bytes` (one transferable buffer per batch, not one
// message per file), the checksums of those not stored end to end in `sums`; per file either its
// problem or its key, stat, whether it was stored and where its payload ends.
import { serialize } from 'node:v8';
import { readContentFile } from '../../content/files.ts';
import { parserOf, type ParserName } from '../../content/load.ts';
import type { Problem } from '../../content/problems.ts';
import { keepSlicedStrings, type Parsed } from '../../content/records.ts';
import type { Event } from '../../model/types.ts';
import { eventRowWriter, type EventRow, type RenderContext } from '../../render/event-row.ts';
import { FIELD_COUNT } from '../../store/format/event-rows.ts';
import { parseKey } from '../cache/build-cache.ts';
import { ROW_HASH_BYTES, rowHash } from '../rows/row-entries.ts';
import { statText } from '../state/stat-fields.ts';
import { writeAllAt } from '../../util/positional-io.ts';
import { checksum, CHECKSUM_BYTES as SUM_BYTES } from '../../util/checksum.ts';
import { decodeParse, TextsApart, textsApart } from '../cache/parse-payload.ts';
import { storedAt, type SharedIndex } from '../cache/keyed-store.ts';

const STRIDE = FIELD_COUNT + 1;

export interface ParseBatch {
  dir: string;
  kind: string;
  parser: ParserName;
  zone: string;
  files: string[];
  /** the full path as bytes of each file whose name is not UTF-8 (files.ts), else null */
  raw: (Buffer | null)[];
  /** the build keeps a cache: give each file's key, stat and payload checksum */
  keyed: boolean;
  /** events: also render each record's row against the thread's context (Rower) */
  render: boolean;
}

/**
 * The rows of a batch's records, in record order across its files: each row's UTF-8 JSON end to
 * end, its offsets (FIELD_COUNT + 1 each, serializeEvent's), its hash (rowHash, of which the
 * pages' keys are made), and whether it was made (a record its context cannot render, e.g. one
 * naming a media record that does not exist, is left to the main thread, where the build then
 * fails on its problem).
 */
export interface BatchRows {
  /** the JSON (from parseBatch, a view of a scratch, until RowsFile.take), or where in the rows file in the making it starts */
  json: Uint8Array | { position: number };
  starts: Uint32Array;
  /** each row's rowHash (row-entries.ts); zeros when not `keyed` */
  hashes: Uint8Array;
  made: Uint8Array;
  /** the batch was keyed: a build without a cache needs no rows' hashes, and none were made */
  keyed: boolean;
}

/** What rendering needs on a thread: the context and its row writer (event-row.ts), made once per context. */
export interface Rower {
  ctx: RenderContext;
  row: (e: Event) => EventRow;
}

export const rowerOf = (ctx: RenderContext): Rower => ({ ctx, row: eventRowWriter(ctx) });

export type FileAnswer = { problem: Problem } | { end: number; key: string | null; stat: string | null; stored: boolean };

export interface BatchAnswer {
  files: FileAnswer[];
  bytes: Uint8Array;
  /** SUM_BYTES per file with a payload not `stored`, in order (empty when not keyed) */
  sums: Uint8Array;
  /** when the batch asked for them and the thread has a context */
  rows: BatchRows | null;
}

/** The parse stored in the pack under `key`, whole, and its payload; null when there is none or it is damaged. */
function storedParse(pack: SharedIndex | null, key: Buffer | null): { parsed: Parsed<unknown>; payload: Buffer } | null {
  const payload = pack && key && storedAt(pack, key);
  if (!payload) return null;
  try {
    const parsed = decodeParse(payload, true) as Parsed<unknown>;
    return Array.isArray(parsed?.records) && Array.isArray(parsed.problems) ? { parsed, payload } : null;
  } catch {
    return null;
  }
}

export function parseBatch(batch: ParseBatch, rower: Rower | null = null, pack: SharedIndex | null = null): BatchAnswer {
  const parse = parserOf(batch.parser, batch.zone);
  const files: FileAnswer[] = [];
  const payloads: Uint8Array[][] = [];
  const rows = batch.render && rower !== null ? new RowsMade(rower, batch.keyed) : null;
  // an events file's texts go apart from its parse when each event has its row (parse-payload.ts): the main thread keeps the rows'
  const texts = rows ? new TextsApart(batch.keyed) : null;
  let total = 0;
  batch.files.forEach((file, i) => {
    const read = readContentFile(batch.dir, file, batch.raw[i] ?? undefined, batch.keyed);
    if (!read.ok) {
      files.push({ problem: read.problem });
      return;
    }
    const key = batch.keyed ? parseKey(batch.kind, file, read.bytes) : null;
    const stored = storedParse(pack, key);
    const parsed = stored?.parsed ?? parse(file, read.text);
    // a stored whole parse is its own payload when no rows are made of it
    let parts: Uint8Array[] | null = stored && !rows && !textsApart(stored.payload) ? [stored.payload] : null;
    if (rows && texts && parsed.records.length > 0) {
      texts.begin();
      let all = true;
      for (const r of parsed.records) {
        const row = rows.add(r.value as Event);
        if (row) texts.add(row.bytes, row.starts);
        else all = false;
      }
      // (a stored payload with its texts apart is answered as it is: the main thread decodes only its first part)
      if (all) parts = stored && textsApart(stored.payload) ? [stored.payload] : texts.parts(parsed as Parsed<Event>);
    }
    for (const part of (parts ??= [serialize(parsed)])) total += part.byteLength;
    payloads.push(parts);
    files.push({ end: total, key: key && key.toString('hex'), stat: read.stat ? statText(read.stat) : null, stored: stored !== null });
  });
  // fresh buffers of their own (never a slice of Node's shared pool): they are transferred
  const bytes = new Uint8Array(Buffer.allocUnsafeSlow(total).buffer, 0, total);
  const made = files.filter((f) => 'end' in f && !f.stored).length;
  const sums = new Uint8Array(batch.keyed ? made * SUM_BYTES : 0);
  let at = 0;
  let sum = 0;
  files.filter((f) => 'end' in f).forEach((f, i) => {
    const from = at;
    for (const part of payloads[i]) at += (bytes.set(part, at), part.byteLength);
    if (batch.keyed && !(f as { stored: boolean }).stored) sums.set(checksum(bytes.subarray(from, at)), SUM_BYTES * sum++);
  });
  return { files, bytes, sums, rows: rows && rows.finish() };
}

/** The rows' UTF-8 end to end as a batch's are made (finish() hands out a view), kept for the next batch: grows by half to the largest. */
let rowsScratch = Buffer.allocUnsafeSlow(1 << 20);

/** A batch's rows as they are made (BatchRows). */
class RowsMade {
  private readonly starts: number[] = [];
  private readonly hashes: Buffer[] = [];
  private readonly made: number[] = [];
  private bytes = 0;

  constructor(
    private readonly rower: Rower,
    /** hash each row (rowHash: only a build with a cache uses them) */
    private readonly keyed: boolean,
  ) {}

  /** The row (bytes a view the writer's next row reuses: copied at once), null when not made here. */
  add(e: Event): EventRow | null {
    let row: EventRow;
    try {
      row = this.rower.row(e);
    } catch {
      this.made.push(0);
      return null;
    }
    this.made.push(1);
    const length = row.bytes.length;
    if (this.bytes + length > rowsScratch.length) {
      const grown = Buffer.allocUnsafeSlow(Math.max(this.bytes + length, Math.ceil(rowsScratch.length * 1.5)));
      rowsScratch.copy(grown, 0, 0, this.bytes);
      rowsScratch = grown;
    }
    this.bytes += row.bytes.copy(rowsScratch, this.bytes);
    for (const at of row.starts) this.starts.push(at);
    if (this.keyed) this.hashes.push(rowHash(row.bytes));
    return row;
  }

  finish(): BatchRows {
    const count = this.starts.length / STRIDE;
    const hashes = new Uint8Array(count * ROW_HASH_BYTES);
    this.hashes.forEach((h, i) => hashes.set(h, i * ROW_HASH_BYTES));
    return { json: rowsScratch.subarray(0, this.bytes), starts: Uint32Array.from(this.starts), hashes, made: Uint8Array.from(this.made), keyed: this.keyed };
  }
}

/**
 * Where a parse thread leaves the rows it renders: the build's rows file in the making
 * (rows-scratch.ts), shared by the threads. Each batch's rows' JSON goes there end to end, at
 * room claimed from the shared `end`, and its answer says where instead of
 * carrying them. A write that fails (a full disk) leaves that batch's rows in its answer, and
 * every later batch's: the build then holds them, as it does without a file, and does not fail.
 */
export class RowsFile {
  constructor(
    private fd: number | null,
    private readonly end: BigInt64Array | null,
  ) {}

  /**
   * Writes `rows`' JSON to the file when it can, end to end (their offsets and hashes stay in
   * the answer, where the build reads them), and puts where in its place; else copies it into an
   * ArrayBuffer of its own (to be transferred).
   */
  take(rows: BatchRows | null): void {
    if (rows === null || !(rows.json instanceof Uint8Array)) return;
    const { json } = rows;
    if (this.fd === null || this.end === null) return void (rows.json = new Uint8Array(json));
    const position = Number(Atomics.add(this.end, 0, BigInt(json.byteLength)));
    try {
      writeAllAt(this.fd, json, position);
    } catch {
      this.fd = null;
      return void (rows.json = new Uint8Array(json));
    }
    rows.json = { position };
  }
}

/**
 * What a parse thread is posted: a batch, or before the batches that need them, the context the
 * events' rows are rendered against and the build's rows file in the making (rows-scratch.ts),
 * shared by the threads: each batch's rows wait there, not in the build's heap, until the build
 * puts them in list order.
 */
export type ParseMessage = ParseBatch | { context: RenderContext } | { rows: { fd: number; end: SharedArrayBuffer } } | { pack: SharedIndex };

let rower: Rower | null = null;
/** where the build cache's pack holds parses (none: every file is parsed) */
let pack: SharedIndex | null = null;
let rowsFile = new RowsFile(null, null);

export function answer(message: ParseMessage): BatchAnswer | null {
  // every parse made on the thread is serialized before the main thread sees it
  keepSlicedStrings();
  if ('context' in message) rower = rowerOf(message.context);
  else if ('rows' in message) rowsFile = new RowsFile(message.rows.fd, new BigInt64Array(message.rows.end));
  else if ('pack' in message) pack = message.pack;
  else {
    const made = parseBatch(message, rower, pack);
    rowsFile.take(made.rows);
    return made;
  }
  return null;
}

/** An answer's buffers: parseBatch's own, and the rows' JSON once take() wrote or copied it. */
export function transfer(answer: BatchAnswer | null): ArrayBuffer[] {
  const rows = answer?.rows;
  const buffers = answer ? [answer.bytes, answer.sums, ...(rows ? [rows.starts, rows.hashes, rows.made, ...(rows.json instanceof Uint8Array ? [rows.json] : [])] : [])] : [];
  return buffers.map((b) => b.buffer as ArrayBuffer);
}
