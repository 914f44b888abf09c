// The data `aula dev` serves an edit from, made in memory before dist/ is written: the data files
// the server loads (the event rows' parts and their offsets, the columns, the categories, the autocomplete
// index), read by the server's own loader (datasetFrom over the files in memory), so the answers
// are those of the dist a build writes from the same content.
//
// What did not change is not made again. The content state keeps the record objects of files
// that did not change, so an event is "the same" when its record is the same object:
// - the list order is the last one with the events that went taken out and the new ones merged in;
// - an event's row is the last make's row when the render context is the same too: the whole
//   render context as the rows cache keys it (renderInputs, so a media file whose size changed
//   counts, and so does anything the context gains); any change to it renders every row again;
// - the event data files are made by the build's own stage (store/write/event-data.ts) from the
//   rows made anew and the last make's data, each row's place in it given: what stays is taken
//   from there (an edited title makes the title's column file again, and no other);
// - the autocomplete index and its searcher, when the directory's records are all the same objects.
import { createHash, randomBytes } from 'node:crypto';
import type { DirectoryObject, Event, Model } from '../model/types.ts';
import { compareListOrder, renderCategory, type RenderContext } from '../render/event.ts';
import { EventRows } from '../store/format/event-rows.ts';
import { bytesOfParts, eventData, partBytes, type PreviousData } from '../store/write/event-data.ts';
import { renderRows } from '../store/write/data-files.ts';
import { columnValuesFromRows } from '../store/write/column-values.ts';
import { toJson } from '../util/json.ts';
import { AUTOCOMPLETE_DATA_FILE, AUTOCOMPLETE_DIR, AUTOCOMPLETE_INDEX_FILE, DATA_FILES, EVENT_PART_ROWS, eventPartFile } from '../store/format/dist-paths.ts';
import { autocompleteData } from '../pipeline/render/autocomplete-data.ts';
import { calendarData } from '../pipeline/render/calendar-data.ts';
import { renderInputs } from '../pipeline/rows/render-cache.ts';
import type { Manifest } from '../store/format/manifest.ts';
import { memorySource, type DistSource } from '../store/read/dist-source.ts';
import { readStore } from '../store/read/stored-data.ts';
import { readCalendarFile } from '../store/read/calendar-file.ts';
import { readColumns } from '../store/read/column-files.ts';
import type { EventTable } from '../store/format/event-table.ts';
import { withSearchFile } from '../store/read/search-index.ts';
import { buildIndexJson } from '../store/write/index-builder.ts';
import { searchIndexOf } from '../store/write/search-index.ts';
import { datasetFrom, searchOf, type Dataset } from '../query/dataset.ts';
import { manifestOf, newestOf } from '../pipeline/write/manifest-of.ts';

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
  /** the model's events (in the model's order) and each one's row */
  model: readonly Event[];
  rows: Int32Array;
  /** the newest last_modified of them (the manifest's built_at) */
  newest: number;
  context: string;
  /** its event data (store/write/event-data.ts) and event parts */
  data: PreviousData;
  parts: Uint8Array[];
}

export class MemoryBuild {
  private last: Last | null = null;
  private directory: { objects: readonly DirectoryObject[]; pageSize: number; index: string; data: Uint8Array; dataset: Dataset | null } | null = null;
  /** tells this session's builds apart from any other's (see manifestOf) */
  private readonly session = randomBytes(8).toString('hex');
  private made = 0;

  /**
   * The dataset of `model` served under `baseUrl` (normalized), what was made anew, the data files
   * it was read from, and the browser's autocomplete index (dist/autocomplete/index.json).
   */
  make(model: Model, baseUrl: string): { dataset: Dataset; stats: MemoryStats; files: DistSource; index: string } {
    const stats: MemoryStats = { rendered: 0, reused: 0, directory: false, phases: {} };
    let mark = performance.now();
    const phase = (name: string) => {
      const now = performance.now();
      stats.phases[name] = Math.round(now - mark);
      mark = now;
    };
    const ctx: RenderContext = { site: model.site, baseUrl, pages: model.pages, media: model.media };
    const context = renderInputs(ctx);
    // the last make's rows are this one's only under the same render context
    const last = this.last?.context === context ? this.last : null;
    // the events in list order, and where each row was in the last make (negative: new)
    const { events, order, fresh, rows: rowsOfModel, newest } = listOrder(model.events, last);
    phase('order');
    const rows = renderRows(fresh, ctx);
    stats.rendered += fresh.length;
    stats.reused += events.length - fresh.length;
    phase('rows');
    // the search index made when first read: most edits are served, and replaced, before a request searches
    const data = eventData({ rows, values: columnValuesFromRows(fresh, rows), order, previous: last?.data ?? null, timezone: model.site.timezone, partRows: EVENT_PART_ROWS, calendar: calendarData, search: false });
    const parts = data.parts.map((segments, i) => (segments ? partBytes(segments, (begin, end) => last!.data.bytes(begin, end)) : last!.parts[i]));
    phase('columns');
    const { index, data: autocomplete } = this.index(model.directory, model.site.page_size, stats);
    phase('index');
    const files = new Map<string, string | Uint8Array>([
      ...parts.map((part, i) => [eventPartFile(i), part] as const),
      ...data.files,
      [DATA_FILES.categories, toJson(model.categories.map(renderCategory))],
      [INDEX, index],
      [AUTOCOMPLETE_DATA_FILE, autocomplete],
      ['manifest.json', JSON.stringify(this.manifestOf(model, baseUrl, events.length, newest))],
    ]);
    // the search index made when first read: most edits are served, and replaced, before a request searches
    const source = withSearchFile({ ...memorySource(files, 'memory'), rowsMadeHere: true }, () => searchIndexOf(new EventRows(Buffer.concat(parts), data.starts)));
    phase('files');
    const kept = this.directory!;
    // the searcher is made from the index text: the same text, the same searcher
    const stored = kept.dataset && !stats.directory ? readStore(source, { lazy: true }) : null;
    const dataset = stored ? { ...stored, autocomplete: kept.dataset!.autocomplete, search: searchOf(source, stored, true) } : datasetFrom(source, { lazy: true });
    kept.dataset = dataset;
    phase('dataset');
    const made = data.files;
    // the next make reads these columns row by row where its changes are in place (event-data.ts)
    let table: EventTable | null = null;
    const columns = () => (table ??= readColumns(memorySource(made, 'memory'), events.length, true));
    this.last = { events, model: model.events, rows: rowsOfModel, newest, context, parts, data: { starts: data.starts, bounds: data.bounds, values: data.values, file: (rel) => made.get(rel)!, calendar: () => readCalendarFile(made.get(DATA_FILES.calendar)!, events.length), table: columns, bytes: (begin, end) => bytesOfParts(parts, data.bounds, begin, end) } };
    phase('keep');
    return { dataset, stats, files: source, index };
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
  private manifestOf(model: Model, baseUrl: string, eventCount: number, newest: number): Manifest {
    const manifest = manifestOf(model.site, baseUrl, newest, {
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
 * The events in list order, where each was in the last make's rows (negative: the new event
 * -order[i] - 1), the new events, each model event's row, and the newest last_modified. After an
 * edit most of them are the last make's records in the last order: those are kept in it, and the
 * few new ones sorted and merged in (the order is total: ids are unique), the order a sort of all
 * of them gives. Each is found in the last make by identity where it stood in the model, its
 * neighbours told apart without a look-up (comparing every record's fields, or a map of them all,
 * costs an edit more than the rest of its order); one kept but taken for new renders the same row.
 */
function listOrder(events: readonly Event[], last: Last | null): { events: Event[]; order: Int32Array | null; fresh: Event[]; rows: Int32Array; newest: number } {
  const rows = new Int32Array(events.length);
  const was = new Int32Array(events.length).fill(-1);
  const kept = new Uint8Array(last?.events.length ?? 0);
  const prev = last?.model ?? [];
  let lookup: Map<Event, number> | null = null;
  for (let i = 0, j = 0; i < events.length && j < prev.length; i++) {
    const e = events[i];
    let k = prev[j] === e ? j : prev[j + 1] === e ? j + 1 : -1;
    // neither new before prev[j] nor in its place: looked up (a reorder, several changes together)
    if (k < 0 && events[i + 1] !== prev[j] && events[i + 1] !== prev[j + 1]) k = (lookup ??= new Map(prev.map((p, at) => [p, at]))).get(e) ?? -1;
    if (k < 0) continue;
    was[i] = last!.rows[k];
    kept[was[i]] = 1;
    j = k + 1;
  }
  const freshAt = events.map((_, i) => i).filter((i) => was[i] < 0).sort((a, b) => compareListOrder(events[a], events[b]));
  const fresh = freshAt.map((i) => events[i]);
  const freshRow = new Int32Array(fresh.length);
  let newest = 0;
  for (const e of fresh) newest = Math.max(newest, e.last_modified);
  if (!last) {
    freshAt.forEach((i, row) => (rows[i] = row));
    return { events: fresh, order: null, fresh, rows, newest };
  }
  const out: Event[] = new Array(events.length);
  const order = new Int32Array(events.length);
  const keptRow = new Int32Array(last.events.length);
  // where each new event goes among the last make's (in list order, those that went too): found
  // by halving, not by comparing it with every event before it
  const before = fresh.map((e) => {
    let lo = 0;
    for (let hi = last.events.length; lo < hi; ) {
      const mid = (lo + hi) >>> 1;
      if (compareListOrder(e, last.events[mid]) < 0) hi = mid;
      else lo = mid + 1;
    }
    return lo;
  });
  let n = 0;
  let f = 0;
  const takeFresh = () => {
    freshRow[f] = n;
    order[n] = -(f + 1);
    out[n++] = fresh[f++];
  };
  // the last make's newest stays unless an event that went had it
  let stays = true;
  for (let at = 0; at < last.events.length; at++) {
    const e = last.events[at];
    if (kept[at] === 0) {
      stays &&= e.last_modified < last.newest;
      continue;
    }
    while (f < fresh.length && before[f] <= at) takeFresh();
    keptRow[at] = n;
    order[n] = at;
    out[n++] = e;
  }
  while (f < fresh.length) takeFresh();
  freshAt.forEach((i, at) => (rows[i] = freshRow[at]));
  for (let i = 0; i < events.length; i++) if (was[i] >= 0) rows[i] = keptRow[was[i]];
  return { events: out, order, fresh, rows, newest: stays ? Math.max(newest, last.newest) : newestOf(events) };
}
