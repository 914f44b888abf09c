// The build's parse threads: the directory's and the events' files (nearly all of a site) are read
// and parsed on worker threads, so that a large site's parse is spread over every core. Each batch
// comes back serialized (parse-batch.ts) with its files' stats and parse keys, which this thread
// records (next-stats.ts). The events' parses are read here; the directory's are handed on unread
// to its job, checked by the keys sent beside them (handOn). Fewer than `minFiles` to parse,
// holding fewer than `minBytes`, are parsed here: a thread's start would cost more than it saves.
//
// The rows the threads render (the largest thing a build makes) are left in one scratch file:
// this thread holds where each is until the build reads them into list order (row-bytes.ts).
import { statSync } from 'node:fs';
import { join } from 'node:path';
import type { ParserName } from '../../content/load.ts';
import type { Parsed } from '../../content/records.ts';
import { streamedParses } from '../../content/parse-stream.ts';
import { defaultThreads } from '../../util/threads.ts';
import { ThreadPool, threadModule } from '../../util/start-thread.ts';
import type { Event } from '../../model/types.ts';
import { EVENT_TEXTS, wholeEvent, type TextlessEvent } from '../../model/event-texts.ts';
import type { RenderContext } from '../../render/event.ts';
import { FIELD_COUNT, fieldIndex, valueSpanIn } from '../../store/format/event-rows.ts';
import type { NextStats } from './next-stats.ts';
import { parseBatch, type BatchAnswer, type BatchRows, type ParseBatch, type ParseMessage } from './parse-batch.ts';
import { directoryParse, type DirectoryBatch, type DirectoryParse } from '../../content/directory.ts';
import type { RowInFile } from '../../store/write/row-bytes.ts';
import { ScratchFile } from '../../util/scratch-file.ts';
import { readAllAt } from '../../util/positional-io.ts';
import { renderInputs, ROW_HASH_BYTES, type PremadeRow, type RowsAhead } from '../rows/row-entries.ts';

// A source checkout (tsx, vitest) has no loader for a .ts worker: there everything is parsed here.
const COMPILED = !import.meta.url.endsWith('.ts');

export interface ParsePoolOptions {
  /** threads to parse on (default: one per core, at most 4; 0: parse on this thread) */
  threads?: number;
  /** fewer files to parse than this are parsed on this thread (default 512)... */
  minFiles?: number;
  /** ...unless they hold this many bytes or more (default 1 MiB) */
  minBytes?: number;
}

/** Where each text is among a row's fields. */
const TEXT_FIELD_INDEXES = EVENT_TEXTS.map((f) => fieldIndex(f)!);

/** `e` whole: its texts read from its row (where its thread left it), each the row's value parsed (JSON.parse undoes toJson's escapes). */
function withTexts(e: TextlessEvent, row: PremadeRow): Event {
  const { json } = row;
  const length = row.starts[FIELD_COUNT];
  const text = json instanceof Uint8Array ? Buffer.from(json.buffer, json.byteOffset, length) : Buffer.allocUnsafe(length);
  if (!(json instanceof Uint8Array)) readAllAt(json.fd, text, 0, length, json.position);
  const texts = EVENT_TEXTS.map((f, i) => {
    const [from, to] = valueSpanIn(row.starts, 0, TEXT_FIELD_INDEXES[i]);
    return [f, JSON.parse(text.toString('utf8', from, to))];
  });
  return { ...e, ...Object.fromEntries(texts) } as Event;
}

/**
 * A row made ahead, as one of its batch's (PremadeRow): its views are made when asked for. Held for
 * every event until "render data", two views each (offsets, hash) would stand in the main
 * thread's heap through the load's peak.
 */
class BatchRow implements PremadeRow {
  constructor(
    private readonly batch: BatchRows,
    /** its place among the batch's rows */
    private readonly index: number,
    /** where its JSON starts: in the batch's bytes, or in the file `fd` */
    private readonly at: number,
    /** the threads' rows file, or -1: the JSON is in the batch's bytes */
    private readonly fd: number,
  ) {}

  get starts(): Uint32Array {
    return this.batch.starts.subarray(this.index * STRIDE, (this.index + 1) * STRIDE);
  }

  get json(): Uint8Array | RowInFile {
    if (this.fd >= 0) return { fd: this.fd, position: this.at };
    return (this.batch.json as Uint8Array).subarray(this.at, this.at + this.batch.starts[this.index * STRIDE + FIELD_COUNT]);
  }

  get hash(): Buffer | null {
    const { hashes } = this.batch;
    return hashes.length === 0 ? null : Buffer.from(hashes.buffer, hashes.byteOffset + this.index * ROW_HASH_BYTES, ROW_HASH_BYTES);
  }
}

const STRIDE = FIELD_COUNT + 1;

/** Batches sent to a thread and not answered yet, at most: one parsed while the other waits. */
const AHEAD = 2;
/**
 * Files per batch, at most. A thread holds a batch's parses and rows until it answers, and a file
 * may hold many events (the sample's YAML batches hold 50 each): a larger batch holds thousands
 * of events at once, and each thread's heap grows at the end of a large build, at the build's
 * peak. The figures behind 32 are in bench/results.md (stop 13).
 */
const MAX_BATCH = 32;

export class ParsePool {
  /**
   * the parse threads (none: everything is parsed here), started with the first batch and ended
   * whenever none has a batch left (after the events, the loader checks and assembles the model,
   * and idle threads' heaps would be part of the build's peak then)
   */
  private readonly threads: ThreadPool<ParseMessage, BatchAnswer> | null;
  private readonly count: number;
  /** renderInputs of the context the threads render the events' rows against (render()) */
  private inputs: string | null = null;
  /** the rows the threads made, by the event record they were made of */
  private premade = new Map<TextlessEvent, PremadeRow>();
  /** the file the threads write their rows into (made with the context: render()) */
  private rows: ScratchFile | null = null;

  constructor(
    private readonly dir: string,
    /** where each file's stat and key are recorded (none: the build records none) */
    private readonly recorder: NextStats | undefined,
    private readonly options: ParsePoolOptions = {},
  ) {
    this.count = COMPILED ? (this.options.threads ?? defaultThreads()) : 0;
    const stopped = 'it stopped before it answered';
    this.threads = this.count === 0 ? null : new ThreadPool(threadModule(import.meta.url, 'parse-batch'), { size: this.count, ahead: AHEAD, endIdle: true, stopped });
  }

  /**
   * The events parsed on threads from now on have their rows rendered there too, against `ctx`:
   * the context as it stands before the events are parsed (the page tree and media records read,
   * not checked yet). rowsFor() then hands them over only for a build whose own context is this.
   */
  render(ctx: RenderContext): void {
    this.inputs = renderInputs(ctx);
    if (this.threads === null) return;
    // one file for every thread, and for the threads started later
    this.rows = ScratchFile.create('rows');
    this.threads.tell({ context: ctx, rows: this.rows && { fd: this.rows.fd, end: new SharedArrayBuffer(8) } });
  }

  /**
   * The rows made ahead for a build rendering against `ctx`, none when they were made against
   * another; the events made textless by their rows are whole again from them (RowsAhead). Once.
   */
  rowsFor(ctx: RenderContext): RowsAhead {
    const same = this.inputs !== null && this.premade.size > 0 && renderInputs(ctx) === this.inputs;
    const rows = this.premade;
    this.premade = new Map();
    // (the events made textless are those with a row)
    const whole = (e: TextlessEvent) => (rows.has(e) ? withTexts(e, rows.get(e)!) : wholeEvent(e));
    return { premade: same ? rows : undefined, whole };
  }

  /** Stops the threads (after the load, or when it failed); settles once they have stopped. The rows they made stay readable until dropRows(). */
  close(): Promise<void> {
    return this.threads?.end() ?? Promise.resolve();
  }

  /**
   * Lets go of the rows made on the threads: call once the build has put them in list order, or
   * has failed. Their file is closed once the threads are gone (a descriptor number closed under
   * a thread still writing could be reused by the next open, and its write land there).
   */
  dropRows(): void {
    this.premade = new Map();
    const rows = this.rows;
    this.rows = null;
    void this.close().then(() => rows?.close());
  }

  /** The files of one kind, each parsed as parseContentFile would (recorded), in the order of `files`. */
  async parseMany(kind: string, parser: ParserName, zone: string, files: readonly string[], raw: ReadonlyMap<string, Buffer>): Promise<Parsed<unknown>[]> {
    // Begun on a later turn of the event loop: the loader asks for the events before it has
    // checked the directory and handed it over (so that threads go on to the events at once).
    // Parsed here, the events would otherwise all be made before that hand-over, and held beside
    // the whole directory.
    await new Promise((next) => setImmediate(next));
    const results: Parsed<unknown>[] = new Array(files.length);
    await this.batches(kind, parser, zone, files, raw, false, (from, names, answer) => this.received(kind, names, answer).forEach((parsed, j) => (results[from + j] = parsed)));
    return results;
  }

  /** The directory's files parsed to be handed on unread, recorded as parseMany's are (DirectoryParse: checked by its records' keys, no record is read here). */
  async handOn(zone: string, files: readonly string[], raw: ReadonlyMap<string, Buffer>): Promise<DirectoryParse> {
    await new Promise((next) => setImmediate(next));
    const batches: DirectoryBatch[] = [];
    await this.batches('directory', 'directory', zone, files, raw, true, (from, names, answer) => batches.push({ from, ...answer }) && this.record('directory', names, answer));
    return directoryParse(files, batches);
  }

  /** `files` parsed in batches, each answer given to `take` with where its files start among them: on the threads, or here as one batch, parsed as a thread parses it. */
  private async batches(kind: string, parser: ParserName, zone: string, files: readonly string[], raw: ReadonlyMap<string, Buffer>, handOn: boolean, take: (from: number, names: readonly string[], answer: BatchAnswer) => void): Promise<void> {
    const batch = (names: string[]): ParseBatch => ({ dir: this.dir, kind, parser, zone, files: names, raw: names.map((f) => raw.get(f) ?? null), keyed: this.recorder !== undefined, render: parser === 'events' && this.inputs !== null, handOn });
    if (this.threads === null || (files.length < (this.options.minFiles ?? 512) && !this.largeEnough(this.dir, files, raw))) return take(0, files, parseBatch(batch([...files])));
    const size = Math.max(1, Math.min(MAX_BATCH, Math.ceil(files.length / (this.count * 8))));
    const batches: Promise<void>[] = [];
    for (let from = 0; from < files.length; from += size) {
      const names = files.slice(from, from + size);
      const asked = this.threads.ask(batch(names)).catch((e: Error) => Promise.reject(new Error(`a parse thread failed: ${e.message}`)));
      batches.push(asked.then((answer) => take(from, names, answer)));
    }
    await Promise.all(batches);
  }

  /**
   * Whether files too few for the threads are worth them all the same: a site's directory may be
   * a few hundred files of a thousand objects each: parsed here, they would hold this thread
   * while the other cores' threads could parse them.
   */
  private largeEnough(dir: string, files: readonly string[], raw: ReadonlyMap<string, Buffer>): boolean {
    let bytes = 0;
    for (const file of files) {
      try {
        bytes += statSync(raw.get(file) ?? join(dir, file)).size;
      } catch {
        // (its read says why)
      }
      if (bytes >= (this.options.minBytes ?? 1 << 20)) return true;
    }
    return false;
  }

  /** The stats and keys of an answer's files recorded. */
  private record(kind: string, names: readonly string[], { files }: BatchAnswer): void {
    for (const [j, f] of files.entries()) if ('key' in f && f.key !== null) this.recorder?.record(kind, names[j], f.stat ?? undefined, f.key);
  }

  /** The parses of one answer, their stats and keys recorded, their rows kept. */
  private received(kind: string, names: readonly string[], answer: BatchAnswer): Parsed<unknown>[] {
    const { rows } = answer;
    this.record(kind, names, answer);
    const parsed = streamedParses(answer.files, answer.bytes, names);
    if (rows === null) return parsed;
    const inFile = rows.json instanceof Uint8Array ? null : rows.json.position;
    const fd = inFile === null ? -1 : this.rows?.fd;
    if (fd === undefined) throw new Error('a parse thread wrote rows to a file it was not given');
    // the rows follow the records, file by file, in order: their JSON end to end in the answer, or in the file from inFile
    let made = 0;
    let at = inFile ?? 0;
    for (const [row, record] of parsed.flatMap((p) => p.records).entries()) {
      if (rows.made[row] === 0) continue;
      // (its texts are in the row: its thread serialized it without them)
      this.premade.set(record.value as TextlessEvent, new BatchRow(rows, made, at, fd));
      at += rows.starts[made * STRIDE + FIELD_COUNT];
      made++;
    }
    return parsed;
  }
}
