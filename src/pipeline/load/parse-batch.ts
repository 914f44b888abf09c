// The parse threads' module (parse-pool.ts starts them): each batch of content files is read (with
// its stat when the build records stats), parsed by the loader's own parser, and its parse handed
// back serialized (parse-payload.ts), with the parse key of its text, so that the build's main
// thread neither reads, hashes nor parses it. The answer's buffers are handed over, not copied.
//
// Answer layout: the payloads end to end in `bytes` (one transferable buffer per batch, not one
// message per file); per file either its problem or its key, stat and where its payload ends.
import { serialize } from 'node:v8';
import { readContentFile } from '../../content/files.ts';
import { parserOf, type ParserName } from '../../content/load.ts';
import type { Problem } from '../../content/problems.ts';
import { keepSlicedStrings, type Parsed } from '../../content/records.ts';
import type { Event } from '../../model/types.ts';
import { eventRowWriter, type EventRow, type RenderContext } from '../../render/event-row.ts';
import { FIELD_COUNT } from '../../store/format/event-rows.ts';
import { parseKey } from '../cache/keys.ts';
import { ROW_HASH_BYTES, rowHash } from '../rows/row-entries.ts';
import { statText } from '../state/stat-fields.ts';
import { writeAllAt } from '../../util/positional-io.ts';
import { textlessPayload } from './parse-payload.ts';

const STRIDE = FIELD_COUNT + 1;

export interface ParseBatch {
  dir: string;
  kind: string;
  parser: ParserName;
  zone: string;
  files: string[];
  /** the full path as bytes of each file whose name is not UTF-8 (files.ts), else null */
  raw: (Buffer | null)[];
  /** the build records stats: give each file's key and stat, and each row's hash */
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

export type FileAnswer = { problem: Problem } | { end: number; key: string | null; stat: string | null };

export interface BatchAnswer {
  files: FileAnswer[];
  bytes: Uint8Array;
  /** when the batch asked for them and the thread has a context */
  rows: BatchRows | null;
}

export function parseBatch(batch: ParseBatch, rower: Rower | null = null): BatchAnswer {
  const parse = parserOf(batch.parser, batch.zone);
  const files: FileAnswer[] = [];
  const payloads: Uint8Array[][] = [];
  const rows = batch.render && rower !== null ? new RowsMade(rower, batch.keyed) : null;
  let total = 0;
  batch.files.forEach((file, i) => {
    const read = readContentFile(batch.dir, file, batch.raw[i] ?? undefined, batch.keyed);
    if (!read.ok) {
      files.push({ problem: read.problem });
      return;
    }
    const parsed = parse(file, read.text);
    let all = rows !== null && parsed.records.length > 0;
    if (rows) for (const r of parsed.records) all = rows.add(r.value as Event) && all;
    // an events file's texts are left out when each of its events has its row, which holds them (parse-payload.ts)
    const parts = all ? textlessPayload(parsed as Parsed<Event>) : [serialize(parsed)];
    for (const part of parts) total += part.byteLength;
    payloads.push(parts);
    files.push({ end: total, key: batch.keyed ? parseKey(batch.kind, file, read.bytes).toString('hex') : null, stat: read.stat ? statText(read.stat) : null });
  });
  // a fresh buffer of its own (never a slice of Node's shared pool): it is transferred
  const bytes = new Uint8Array(Buffer.allocUnsafeSlow(total).buffer, 0, total);
  let at = 0;
  for (const parts of payloads) for (const part of parts) at += (bytes.set(part, at), part.byteLength);
  return { files, bytes, rows: rows && rows.finish() };
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

  /** Makes `e`'s row, copied at once (the writer's next row reuses its bytes); false when it is not made here. */
  add(e: Event): boolean {
    let row: EventRow;
    try {
      row = this.rower.row(e);
    } catch {
      this.made.push(0);
      return false;
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
    return true;
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
 * (a scratch file, parse-pool.ts), shared by the threads. Each batch's rows' JSON goes there end to end, at
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
 * events' rows are rendered against and the build's rows file in the making (a scratch file, parse-pool.ts),
 * shared by the threads: each batch's rows wait there, not in the build's heap, until the build
 * puts them in list order.
 */
export type ParseMessage = ParseBatch | { context: RenderContext } | { rows: { fd: number; end: SharedArrayBuffer } };

let rower: Rower | null = null;
let rowsFile = new RowsFile(null, null);

export function answer(message: ParseMessage): BatchAnswer | null {
  // every parse made on the thread is serialized before the main thread sees it
  keepSlicedStrings();
  if ('context' in message) rower = rowerOf(message.context);
  else if ('rows' in message) rowsFile = new RowsFile(message.rows.fd, new BigInt64Array(message.rows.end));
  else {
    const made = parseBatch(message, rower);
    rowsFile.take(made.rows);
    return made;
  }
  return null;
}

/** An answer's buffers: parseBatch's own, and the rows' JSON once take() wrote or copied it. */
export function transfer(answer: BatchAnswer | null): ArrayBuffer[] {
  const rows = answer?.rows;
  const buffers = answer ? [answer.bytes, ...(rows ? [rows.starts, rows.hashes, rows.made, ...(rows.json instanceof Uint8Array ? [rows.json] : [])] : [])] : [];
  return buffers.map((b) => b.buffer as ArrayBuffer);
}
