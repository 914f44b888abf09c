// The parse threads' module (parse-pool.ts starts them): each batch of content files is read (with
// its stat when the build records stats), parsed by the loader's own parser, and its parse handed
// back serialized, with the parse key of its text, so that the build's main thread neither reads,
// hashes nor parses it. The answer's buffers are handed over, not copied.
//
// Answer layout: the parses of the files read in `bytes` (a ParseStream: one transferable buffer
// per batch, not one message per file); per file either its problem or its key and stat. An event
// whose row is made here is serialized without its texts: the row holds them (decoded on the main
// thread they would be most of its heap), and the event is made whole from its row when it is
// rendered (parse-pool.ts withTexts).
import { readContentFile } from '../../content/files.ts';
import { parserOf, type ParserName } from '../../content/load.ts';
import { ParseStream } from '../../content/parse-stream.ts';
import type { Problem } from '../../content/problems.ts';
import { keepSlicedStrings, type Sourced } from '../../content/records.ts';
import { directoryKeys, joinedKeys, type DirectoryKeys } from '../../content/directory.ts';
import type { DirectoryObject, Event } from '../../model/types.ts';
import { eventRows, type EventRow, type EventRows, type RenderContext } from '../../render/event-row.ts';
import { textless } from '../../model/event-texts.ts';
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
  /** directory: the parses are handed on unread (to the directory's job), so each file's problems and each record's keys are sent beside them */
  handOn?: boolean;
}

/**
 * The rows of a batch's records, in record order across its files: each row's UTF-8 JSON end to
 * end, its offsets (FIELD_COUNT + 1 each, serializeEvent's), its hash (rowHash, of which the
 * pages' keys are made), and whether it was made (a record its context cannot render, e.g. one
 * naming a media record that does not exist, is left to the main thread, where the build then
 * fails on its problem).
 */
export interface BatchRows {
  /** the JSON (in a buffer of its own where RowsFile.put could not write it), or where in the rows file in the making it starts */
  json: Uint8Array | { position: number };
  starts: Uint32Array;
  /** each row's rowHash (row-entries.ts); none when the batch was not `keyed` (a build without a cache needs none) */
  hashes: Uint8Array;
  made: Uint8Array;
}

export interface BatchAnswer {
  /** `problems`: a file's parse problems, when the batch was handed on */
  files: ({ problem: Problem } | { key: string | null; stat: string | null; problems?: Problem[] })[];
  /** the parse of each file without a problem, in order (content/parse-stream.ts) */
  bytes: Uint8Array;
  /** when the batch asked for them and the thread has a context */
  rows: BatchRows | null;
  /** a batch handed on: its records' keys (their files the batch's indexes) */
  keys?: DirectoryKeys;
}

/** `file`: where the rows' JSON goes when it can (RowsFile); else the answer holds it. */
export function parseBatch(batch: ParseBatch, writer: EventRows | null = null, file = new RowsFile(null, null)): BatchAnswer {
  const parse = parserOf(batch.parser, batch.zone);
  const files: BatchAnswer['files'] = [];
  const stream = new ParseStream();
  const rows = batch.render && writer !== null ? new RowsMade(writer, batch.keyed) : null;
  const keys: { keys: DirectoryKeys; from: number }[] = [];
  batch.files.forEach((file, i) => {
    const read = readContentFile(batch.dir, file, batch.raw[i] ?? undefined, batch.keyed);
    if (!read.ok) {
      files.push({ problem: read.problem });
      return;
    }
    const parsed = parse(file, read.text);
    stream.write(parsed, parsed.records.map((r) => (rows?.add(r.value as Event) ? textless(r.value as Event) : r.value)));
    files.push({ key: batch.keyed ? parseKey(batch.kind, file, read.bytes).toString('hex') : null, stat: read.stat ? statText(read.stat) : null, ...(batch.handOn && { problems: parsed.problems }) });
    if (batch.handOn) keys.push({ keys: directoryKeys(parsed.records as Sourced<DirectoryObject>[], 0), from: i });
  });
  return { files, bytes: stream.release(), rows: rows && rows.finish(file), ...(batch.handOn && { keys: joinedKeys(keys) }) };
}

/** A batch's rows as they are made (BatchRows). */
class RowsMade {
  private readonly starts: number[] = [];
  private readonly hashes: Buffer[] = [];
  private readonly made: number[] = [];

  constructor(
    private readonly writer: EventRows,
    /** hash each row (rowHash: only a build with a cache uses them) */
    private readonly keyed: boolean,
  ) {
    // (rows a batch that failed left are not this one's)
    writer.take(false);
  }

  /** Makes `e`'s row, after the batch's others; false when it is not made here. */
  add(e: Event): boolean {
    let row: EventRow;
    try {
      row = this.writer.add(e);
    } catch {
      this.made.push(0);
      return false;
    }
    this.made.push(1);
    for (const at of row.starts) this.starts.push(at);
    if (this.keyed) this.hashes.push(rowHash(row.bytes));
    return true;
  }

  /** The batch's rows, the JSON put in `file` from the writer's buffer where it can be (else copied out); the hashes copied into a buffer of their own (Buffer.concat may give a slice of Node's shared pool, and they are transferred). */
  finish(file: RowsFile): BatchRows {
    return { json: file.put(this.writer.written()) ?? this.writer.take(), starts: Uint32Array.from(this.starts), hashes: new Uint8Array(Buffer.concat(this.hashes)), made: Uint8Array.from(this.made) };
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

  /** Writes a batch's rows' JSON to the file when it can, after the others (their offsets and hashes stay in the answer, where the build reads them): where it starts, or null. */
  put(json: Uint8Array): { position: number } | null {
    if (this.fd === null) return null;
    const position = Number(Atomics.add(this.end!, 0, BigInt(json.byteLength)));
    try {
      writeAllAt(this.fd, json, position);
      return { position };
    } catch {
      this.fd = null;
      return null;
    }
  }
}

/** What a parse thread is posted: a batch, or before the batches that need them, the context the events' rows are rendered against and the rows file (RowsFile; null: none could be made). */
export type ParseMessage = ParseBatch | { context: RenderContext; rows: { fd: number; end: SharedArrayBuffer } | null };

/** the rows' writer of the thread's context (event-row.ts eventRows), made once per context */
let writer: EventRows | null = null;
let rowsFile = new RowsFile(null, null);

export function answer(message: ParseMessage): BatchAnswer | null {
  // every parse made on the thread is serialized before the main thread sees it
  keepSlicedStrings();
  if ('context' in message) {
    writer = eventRows(message.context);
    rowsFile = new RowsFile(message.rows?.fd ?? null, message.rows && new BigInt64Array(message.rows.end));
    return null;
  }
  return parseBatch(message, writer, rowsFile);
}

/** An answer's buffers: parseBatch's own, and the rows' JSON where RowsFile.put did not write it. */
export function transfer(answer: BatchAnswer | null): ArrayBuffer[] {
  const rows = answer?.rows;
  const keys = answer?.keys ? [answer.keys.model, answer.keys.id, answer.keys.file, answer.keys.item] : [];
  const buffers = answer ? [answer.bytes, ...(rows ? [rows.starts, rows.hashes, rows.made, ...(rows.json instanceof Uint8Array ? [rows.json] : [])] : []), ...keys] : [];
  return buffers.map((b) => b.buffer as ArrayBuffer);
}
