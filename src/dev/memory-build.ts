// The data `aula dev` serves an edit from, made in memory before dist/ is written: the data files
// the server loads (the event rows' parts and their offsets, the columns, the categories, the autocomplete
// index), read by the server's own loader (datasetFrom over the files in memory), so the answers
// are those of the dist a build writes from the same content.
//
// What did not change is not made again. The content state keeps the record objects of files
// that did not change, so an event is "the same" when its record is the same object:
// - the list order is the last one with the events that went taken out and the new ones merged in;
// - an event's row is copied from the last rows (runs of rows in one copy) when the render
//   context is the same too: the whole render context as the rows cache keys it (renderInputs,
//   so a media file whose size changed counts, and so does anything the context gains); any
//   change to it renders every row again;
// - the columns are copied from the last ones the same way (they depend on the record alone, and
//   the zone), and a column file whose column did not change is the last one (an edited title
//   makes the title's file again, and no other);
// - the autocomplete index and its searcher, when the directory's records are all the same objects.
import { createHash, randomBytes } from 'node:crypto';
import type { DirectoryObject, Event, Model } from '../model/types.ts';
import { compareListOrder, renderCategory, renderEvent, type RenderContext } from '../render/event.ts';
import { EventRows, FIELD_COUNT, serializeEvent } from '../store/format/event-rows.ts';
import { columnValuesOf } from '../store/write/column-values.ts';
import { columnFilesReusing, splicedColumnValues } from '../store/write/column-files.ts';
import type { ColumnValues } from '../store/format/event-table.ts';
import { toJson } from '../store/format/json.ts';
import { AUTOCOMPLETE_DATA_FILE, AUTOCOMPLETE_DIR, AUTOCOMPLETE_INDEX_FILE, DATA_FILES, EVENT_PART_ROWS, eventPartFile } from '../store/format/dist-paths.ts';
import { autocompleteData } from '../pipeline/render/autocomplete-data.ts';
import { calendarReusing } from '../pipeline/render/calendar-data.ts';
import { renderInputs } from '../pipeline/rows/render-cache.ts';
import { readCalendarFile } from '../store/read/calendar-file.ts';
import { splitParts } from '../store/format/event-parts.ts';
import type { Manifest } from '../store/format/manifest.ts';
import { memorySource, type DistSource } from '../store/read/dist-source.ts';
import { readStore } from '../store/read/stored-data.ts';
import { withSearchFile } from '../store/read/search-index.ts';
import { buildIndexJson } from '../store/write/index-builder.ts';
import { searchIndexOf } from '../store/write/search-index.ts';
import { datasetFrom, searchOf, type Dataset } from '../query/dataset.ts';
import { manifestOf, newestOf } from '../pipeline/write/manifest-of.ts';

const STRIDE = FIELD_COUNT + 1;
const INDEX = `${AUTOCOMPLETE_DIR}/${AUTOCOMPLETE_INDEX_FILE}`;

export interface MemoryStats {
  /** rows rendered anew / copied from the last rows */
  rendered: number;
  reused: number;
  /** whether the autocomplete index was made anew */
  directory: boolean;
  /** ms per step */
  phases: Record<string, number>;
}

/** What the last make made, by row, and which record each row came from. */
interface Last {
  events: readonly Event[];
  rowOf: Map<Event, number>;
  context: string;
  rows: EventRows;
  /** the rows' bytes (the event parts' concatenation) and where each row's line starts in them */
  bytes: Buffer;
  lineAt: Float64Array;
  /** the columns, their ISO text in `zone`, and their files */
  columns: ColumnValues;
  zone: string;
  columnFiles: ReadonlyMap<string, Uint8Array>;
  /** data/calendar.bin */
  calendar: Uint8Array;
}

/** A stretch of rows taken over from the last make: `count` rows from its row `was`. */
type Run = { row: number; was: number; count: number };

export class MemoryBuild {
  private last: Last | null = null;
  private directory: { objects: readonly DirectoryObject[]; pageSize: number; index: string; data: Uint8Array; dataset: Dataset | null } | null = null;
  /** tells this session's builds apart from any other's (see manifestOf) */
  private readonly session = randomBytes(8).toString('hex');
  private made = 0;

  /** The dataset of `model` served under `baseUrl` (normalized), what was made anew, and the data files it was read from. */
  make(model: Model, baseUrl: string): { dataset: Dataset; stats: MemoryStats; files: DistSource } {
    const stats: MemoryStats = { rendered: 0, reused: 0, directory: false, phases: {} };
    let mark = performance.now();
    const phase = (name: string) => {
      const now = performance.now();
      stats.phases[name] = Math.round(now - mark);
      mark = now;
    };
    const last = this.last;
    // the events in list order, where each row was in the last make (-1: new), and the
    // stretches that kept their order
    const { events, from } = listOrder(model.events, last);
    const runs = runsOf(from);
    phase('order');
    const ctx: RenderContext = { site: model.site, baseUrl, pages: model.pages, media: model.media };
    const context = renderInputs(ctx);
    const rows = context === last?.context ? copiedRows(events, from, runs, last, ctx, stats) : renderedRows(events, ctx, stats);
    phase('rows');
    const zone = model.site.timezone;
    const columns = last?.zone === zone ? copiedColumns(events, from, last.columns, zone) : columnValuesOf(events, zone);
    const columnFiles = columnFilesReusing(columns, last ? { values: last.columns, file: (rel) => last.columnFiles.get(rel)! } : null).files;
    const calendar = calendarReusing(events, zone, from, last?.zone === zone ? readCalendarFile(last.calendar, last.events.length) : null);
    phase('columns');
    const { index, data: autocomplete } = this.index(model.directory, model.site.page_size, stats);
    phase('index');
    // the parts are views of the rows made in one piece (the loader joins them back without a copy)
    const parts = splitParts(rows.rows.lineBytes, rows.rows.starts, EVENT_PART_ROWS);
    const files = new Map<string, string | Uint8Array>([
      ...parts.map((part, i) => [eventPartFile(i), part] as const),
      [DATA_FILES.offsets, new Uint8Array(rows.rows.starts.buffer, rows.rows.starts.byteOffset, rows.rows.starts.byteLength)],
      ...columnFiles,
      [DATA_FILES.calendar, calendar],
      [DATA_FILES.categories, toJson(model.categories.map(renderCategory))],
      [INDEX, index],
      [AUTOCOMPLETE_DATA_FILE, autocomplete],
      ['manifest.json', JSON.stringify(this.manifestOf(model, baseUrl, events.length))],
    ]);
    // the search index made when first read: most edits are served, and replaced, before a request searches
    const source = withSearchFile(memorySource(files, 'memory'), () => searchIndexOf(rows.rows));
    phase('files');
    const kept = this.directory!;
    // the searcher is made from the index text: the same text, the same searcher
    const stored = kept.dataset && !stats.directory ? readStore(source) : null;
    const dataset = stored ? { ...stored, autocomplete: kept.dataset!.autocomplete, search: searchOf(source, stored, true) } : datasetFrom(source, { lazySearch: true });
    kept.dataset = dataset;
    phase('dataset');
    const rowOf = new Map<Event, number>();
    events.forEach((e, row) => rowOf.set(e, row));
    this.last = { events, rowOf, context, ...rows, columns, zone, columnFiles, calendar };
    phase('keep');
    return { dataset, stats, files: source };
  }

  /** Forgets everything kept (the next make renders every row). */
  reset(): void {
    this.last = null;
    this.directory = null;
  }

  /** the browser's index and the server's (data/autocomplete.bin, whose tops hold a page of `pageSize`) */
  private index(objects: readonly DirectoryObject[], pageSize: number, stats: MemoryStats): { index: string; data: Uint8Array } {
    const kept = this.directory;
    if (kept && kept.pageSize === pageSize && kept.objects.length === objects.length && kept.objects.every((o, i) => o === objects[i])) return kept;
    stats.directory = true;
    const index = buildIndexJson(objects);
    const data = autocompleteData(index, pageSize);
    this.directory = { objects, pageSize, index, data, dataset: null };
    return { index, data };
  }

  /**
   * The manifest the build writes, but for the checksums of the files (the server verifies no
   * file of a trusted source, and hashing 240 MB of rows would be an eighth of the time an edit
   * may take) and the build id: unique to each make of this session, so the answers' validators
   * (made from the manifest) change whenever the data may have, and never match a dist's.
   */
  private manifestOf(model: Model, baseUrl: string, eventCount: number): Manifest {
    const manifest = manifestOf(model.site, baseUrl, newestOf(model.events), {
      events: eventCount,
      pages: model.pages.size,
      categories: model.categories.length,
      media: model.media.size,
      directory: model.directory.length,
    });
    manifest.build_id = createHash('sha256').update(`aula dev ${this.session} ${++this.made}\n${JSON.stringify(manifest)}`).digest('hex').slice(0, 16);
    return manifest;
  }
}

/**
 * The events in list order, and where each was in the last make's rows (-1: new). After an edit
 * most of them are the last make's records in the last order: those are kept in it, and the few
 * new ones sorted and merged in (the order is total: ids are unique), the order a sort of all of
 * them gives.
 */
function listOrder(events: readonly Event[], last: Last | null): { events: Event[]; from: Int32Array } {
  const from = new Int32Array(events.length).fill(-1);
  if (!last) return { events: [...events].sort(compareListOrder), from };
  const fresh: Event[] = [];
  const kept = new Uint8Array(last.events.length);
  for (const e of events) {
    const was = last.rowOf.get(e);
    if (was === undefined) fresh.push(e);
    else kept[was] = 1;
  }
  fresh.sort(compareListOrder);
  const out: Event[] = new Array(events.length);
  let n = 0;
  let f = 0;
  for (let was = 0; was < last.events.length; was++) {
    if (kept[was] === 0) continue;
    const e = last.events[was];
    while (f < fresh.length && compareListOrder(fresh[f], e) < 0) out[n++] = fresh[f++];
    from[n] = was;
    out[n++] = e;
  }
  while (f < fresh.length) out[n++] = fresh[f++];
  return { events: out, from };
}

/** The stretches of rows whose last rows follow each other. */
function runsOf(from: Int32Array): Run[] {
  const runs: Run[] = [];
  for (let row = 0; row < from.length; ) {
    if (from[row] < 0) {
      row++;
      continue;
    }
    let end = row + 1;
    while (end < from.length && from[end] === from[end - 1] + 1) end++;
    runs.push({ row, was: from[row], count: end - row });
    row = end;
  }
  return runs;
}

type MadeRows = Pick<Last, 'rows' | 'bytes' | 'lineAt'>;

function renderedRows(events: readonly Event[], ctx: RenderContext, stats: MemoryStats): MadeRows {
  return copiedRows(events, new Int32Array(events.length).fill(-1), [], null, ctx, stats);
}

/** The rows: those in `runs` copied from the last rows, the others rendered. */
function copiedRows(events: readonly Event[], from: Int32Array, runs: readonly Run[], last: Last | null, ctx: RenderContext, stats: MemoryStats): MadeRows {
  const starts = new Uint32Array(events.length * STRIDE);
  const made = new Map<number, string>();
  let total = Math.max(0, events.length - 1);
  for (let row = 0; row < events.length; row++) {
    if (from[row] >= 0) continue;
    const serialized = serializeEvent(renderEvent(events[row], ctx));
    starts.set(serialized.starts, row * STRIDE);
    made.set(row, serialized.json);
    total += serialized.starts[FIELD_COUNT];
  }
  stats.rendered += made.size;
  stats.reused += events.length - made.size;
  for (const { row, was, count } of runs) {
    starts.set(last!.rows.starts.subarray(was * STRIDE, (was + count) * STRIDE), row * STRIDE);
    for (let r = row; r < row + count; r++) total += starts[r * STRIDE + FIELD_COUNT];
  }
  const bytes = Buffer.allocUnsafe(total);
  const lineAt = new Float64Array(events.length);
  let at = 0;
  let next = 0;
  for (let row = 0; row < events.length; ) {
    if (row > 0) bytes[at++] = 0x0a;
    const json = made.get(row);
    if (json !== undefined) {
      lineAt[row] = at;
      at += bytes.write(json, at);
      row++;
      continue;
    }
    // a run is one copy: its lines with the line feeds between them, as they were
    const { was, count } = runs[next++];
    const first = last!.lineAt[was];
    const end = last!.lineAt[was + count - 1] + last!.rows.starts[(was + count - 1) * STRIDE + FIELD_COUNT];
    for (let k = 0; k < count; k++) lineAt[row + k] = at + last!.lineAt[was + k] - first;
    at += last!.bytes.copy(bytes, at, first, end);
    row += count;
  }
  return { rows: new EventRows(bytes, starts), bytes, lineAt };
}

/** The columns: those of rows the last make had copied from its columns, the others made from their events. */
function copiedColumns(events: readonly Event[], from: Int32Array, last: ColumnValues, zone: string): ColumnValues {
  const fresh: Event[] = [];
  const order = Int32Array.from(from, (was, row) => (was >= 0 ? was : -(fresh.push(events[row]))));
  return splicedColumnValues(last, columnValuesOf(fresh, zone), order);
}
