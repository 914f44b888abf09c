// The parse threads' module (parse-pool.ts starts them): each batch of content files is read (with
// its stat when the build records stats), parsed by the loader's own parser, and its parse handed
// back serialized, with the parse key of its text, so that the build's main thread neither reads,
// hashes nor parses it. The answer's buffers are handed over, not copied.
//
// Answer layout: the parses of the files read, one v8 serializer's stream in `bytes` (its header,
// then each file's SentParse, in order: one transferable buffer per batch, written once, not one
// message or one buffer per file); per file either its problem or its key and stat. A record is
// sent without its file's name, which the main thread knows (a list file's name would be written
// and read once per record). An event whose row is made here is serialized without its texts:
// the row holds them (decoded on the main thread they would be most of its heap), and the event is
// made whole from its row when it is rendered (parse-pool.ts withTexts).
import { DefaultSerializer } from 'node:v8';
import { readContentFile } from '../../content/files.ts';
import { parserOf, type ParserName } from '../../content/load.ts';
import type { Problem } from '../../content/problems.ts';
import { keepSlicedStrings } from '../../content/records.ts';
import type { Event } from '../../model/types.ts';
import { eventRowWriter, type EventRow, type RenderContext } from '../../render/event-row.ts';
import type { TextlessEvent } from '../../model/event-texts.ts';
import { parseKey } from '../cache/keys.ts';
import { rowHash } from '../rows/row-entries.ts';
import { statText } from '../state/stat-fields.ts';
import { writeAllAt } from '../../util/positional-io.ts';

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
  /** events: also render each record's row against the thread's context */
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
  /** the JSON (in a buffer of its own, until RowsFile.take writes it), or where in the rows file in the making it starts */
  json: Uint8Array | { position: number };
  starts: Uint32Array;
  /** each row's rowHash (row-entries.ts); none when the batch was not `keyed` (a build without a cache needs none) */
  hashes: Uint8Array;
  made: Uint8Array;
}

/** The row writer of the thread's context (event-row.ts eventRowWriter), made once per context. */
type RowWriter = (e: Event) => EventRow;

export interface BatchAnswer {
  files: ({ problem: Problem } | { key: string | null; stat: string | null })[];
  /** a SentParse for each file without a problem, in order: a v8 serializer's stream (DefaultDeserializer reads it) */
  bytes: Uint8Array;
  /** when the batch asked for them and the thread has a context */
  rows: BatchRows | null;
}

/** A file's parse as a batch's stream holds it: each record's value and item (its `file` is the file's name), and the problems. */
export interface SentParse {
  values: unknown[];
  items: (number | null)[];
  problems: Problem[];
}

/** `e` without its texts: a copy (the names are EVENT_TEXTS'; a test checks that none is left). */
function textless(e: Event): TextlessEvent {
  const { title, organizer, location, teaser, body, attending_fees_info, contact, email, ...rest } = e;
  return rest;
}

/** `parts` end to end in a buffer of their own (never a slice of Node's shared pool): it is transferred. */
function joined(parts: readonly Uint8Array[]): Uint8Array {
  const all = new Uint8Array(parts.reduce((n, part) => n + part.byteLength, 0));
  let at = 0;
  for (const part of parts) at += (all.set(part, at), part.byteLength);
  return all;
}

export function parseBatch(batch: ParseBatch, writer: RowWriter | null = null): BatchAnswer {
  const parse = parserOf(batch.parser, batch.zone);
  const files: BatchAnswer['files'] = [];
  // (what a parse holds is plain data: DefaultSerializer is what v8.serialize uses)
  const stream = new DefaultSerializer();
  stream.writeHeader();
  const rows = batch.render && writer !== null ? new RowsMade(writer, batch.keyed) : null;
  batch.files.forEach((file, i) => {
    const read = readContentFile(batch.dir, file, batch.raw[i] ?? undefined, batch.keyed);
    if (!read.ok) {
      files.push({ problem: read.problem });
      return;
    }
    const { records, problems } = parse(file, read.text);
    const values = rows ? records.map((r) => (rows.add(r.value as Event) ? textless(r.value as Event) : r.value)) : records.map((r) => r.value);
    stream.writeValue({ values, items: records.map((r) => r.item), problems } satisfies SentParse);
    files.push({ key: batch.keyed ? parseKey(batch.kind, file, read.bytes).toString('hex') : null, stat: read.stat ? statText(read.stat) : null });
  });
  return { files, bytes: stream.releaseBuffer(), rows: rows && rows.finish() };
}

/**
 * The rows' JSON end to end as they are made: one buffer for all the thread's batches, each row
 * copied in as it is written (the writer's next row reuses its bytes), and each batch's rows
 * copied out once, into a buffer of their own, when the batch is done.
 */
let rowBytes = Buffer.allocUnsafeSlow(1 << 20);
const MOST_ROW_BYTES_KEPT = 16 << 20;

/** A batch's rows as they are made (BatchRows). */
class RowsMade {
  /** where the next row's JSON goes in rowBytes */
  private length = 0;
  private readonly starts: number[] = [];
  private readonly hashes: Buffer[] = [];
  private readonly made: number[] = [];

  constructor(
    private readonly writer: RowWriter,
    /** hash each row (rowHash: only a build with a cache uses them) */
    private readonly keyed: boolean,
  ) {}

  /** Makes `e`'s row, copied at once; false when it is not made here. */
  add(e: Event): boolean {
    let row: EventRow;
    try {
      row = this.writer(e);
    } catch {
      this.made.push(0);
      return false;
    }
    this.made.push(1);
    const { bytes } = row;
    if (this.length + bytes.length > rowBytes.length) {
      const grown = Buffer.allocUnsafeSlow(Math.max(this.length + bytes.length, rowBytes.length * 2));
      rowBytes.copy(grown, 0, 0, this.length);
      rowBytes = grown;
    }
    this.length += bytes.copy(rowBytes, this.length);
    for (const at of row.starts) this.starts.push(at);
    if (this.keyed) this.hashes.push(rowHash(bytes));
    return true;
  }

  finish(): BatchRows {
    const json = new Uint8Array(this.length);
    json.set(rowBytes.subarray(0, this.length));
    // (a batch of very long rows does not leave its room held through the thread's life)
    if (rowBytes.length > MOST_ROW_BYTES_KEPT) rowBytes = Buffer.allocUnsafeSlow(1 << 20);
    return { json, starts: Uint32Array.from(this.starts), hashes: joined(this.hashes), made: Uint8Array.from(this.made) };
  }
}

/**
 * Where a parse thread leaves the rows it renders: the build's rows file in the making (a scratch
 * file, parse-pool.ts), shared by the threads. Each batch's rows' JSON goes there end to end, at
 * room claimed from the shared `end`, and its answer says where instead of carrying them. A write
 * that fails (a full disk) leaves that batch's rows in its answer, and every later batch's: the
 * build then holds them, as it does without a file, and does not fail.
 */
export class RowsFile {
  constructor(
    private fd: number | null,
    private readonly end: BigInt64Array | null,
  ) {}

  /** Writes `rows`' JSON to the file when it can, end to end (their offsets and hashes stay in the answer, where the build reads them), and puts where in its place. */
  take(rows: BatchRows | null): void {
    if (rows === null || this.fd === null) return;
    const json = rows.json as Uint8Array;
    const position = Number(Atomics.add(this.end!, 0, BigInt(json.byteLength)));
    try {
      writeAllAt(this.fd, json, position);
      rows.json = { position };
    } catch {
      this.fd = null;
    }
  }
}

/**
 * What a parse thread is posted: a batch, or before the batches that need them, the context the
 * events' rows are rendered against and the build's rows file in the making (a scratch file,
 * parse-pool.ts; null: none could be made), shared by the threads: each batch's rows wait there,
 * not in the build's heap, until the build puts them in list order.
 */
export type ParseMessage = ParseBatch | { context: RenderContext; rows: { fd: number; end: SharedArrayBuffer } | null };

let writer: RowWriter | null = null;
let rowsFile = new RowsFile(null, null);

export function answer(message: ParseMessage): BatchAnswer | null {
  // every parse made on the thread is serialized before the main thread sees it
  keepSlicedStrings();
  if ('context' in message) {
    writer = eventRowWriter(message.context);
    rowsFile = new RowsFile(message.rows?.fd ?? null, message.rows && new BigInt64Array(message.rows.end));
    return null;
  }
  const made = parseBatch(message, writer);
  rowsFile.take(made.rows);
  return made;
}

/** An answer's buffers: parseBatch's own, and the rows' JSON where take() did not write it. */
export function transfer(answer: BatchAnswer | null): ArrayBuffer[] {
  const rows = answer?.rows;
  const buffers = answer ? [answer.bytes, ...(rows ? [rows.starts, rows.hashes, rows.made, ...(rows.json instanceof Uint8Array ? [rows.json] : [])] : [])] : [];
  return buffers.map((b) => b.buffer as ArrayBuffer);
}
