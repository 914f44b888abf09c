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
import { toJson } from '../store/format/json.ts';
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
  rowOf: Map<Event, number>;
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

  /** The dataset of `model` served under `baseUrl` (normalized), what was made anew, and the data files it was read from. */
  make(model: Model, baseUrl: string): { dataset: Dataset; stats: MemoryStats; files: DistSource } {
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
    const { events, order, fresh } = listOrder(model.events, last);
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
      ['manifest.json', JSON.stringify(this.manifestOf(model, baseUrl, events.length))],
    ]);
    // the search index made when first read: most edits are served, and replaced, before a request searches
    const source = withSearchFile(memorySource(files, 'memory'), () => searchIndexOf(new EventRows(Buffer.concat(parts), data.starts)));
    phase('files');
    const kept = this.directory!;
    // the searcher is made from the index text: the same text, the same searcher
    const stored = kept.dataset && !stats.directory ? readStore(source, { lazy: true }) : null;
    const dataset = stored ? { ...stored, autocomplete: kept.dataset!.autocomplete, search: searchOf(source, stored, true) } : datasetFrom(source, { lazy: true });
    kept.dataset = dataset;
    phase('dataset');
    const rowOf = new Map<Event, number>();
    events.forEach((e, row) => rowOf.set(e, row));
    const made = data.files;
    // the next make reads these columns row by row where its changes are in place (event-data.ts)
    let table: EventTable | null = null;
    const columns = () => (table ??= readColumns(memorySource(made, 'memory'), events.length, true));
    this.last = { events, rowOf, context, parts, data: { starts: data.starts, bounds: data.bounds, values: data.values, file: (rel) => made.get(rel)!, calendar: () => readCalendarFile(made.get(DATA_FILES.calendar)!, events.length), table: columns, bytes: (begin, end) => bytesOfParts(parts, data.bounds, begin, end) } };
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
 * The events in list order, where each was in the last make's rows (negative: the new event
 * -order[i] - 1), and the new events. After an edit most of them are the last make's records in
 * the last order: those are kept in it, and the few new ones sorted and merged in (the order is
 * total: ids are unique), the order a sort of all of them gives.
 */
function listOrder(events: readonly Event[], last: Last | null): { events: Event[]; order: Int32Array | null; fresh: Event[] } {
  if (!last) {
    const sorted = [...events].sort(compareListOrder);
    return { events: sorted, order: null, fresh: sorted };
  }
  const fresh: Event[] = [];
  const kept = new Uint8Array(last.events.length);
  for (const e of events) {
    const was = last.rowOf.get(e);
    if (was === undefined) fresh.push(e);
    else kept[was] = 1;
  }
  fresh.sort(compareListOrder);
  const out: Event[] = new Array(events.length);
  const order = new Int32Array(events.length);
  let n = 0;
  let f = 0;
  const takeFresh = () => {
    order[n] = -(f + 1);
    out[n++] = fresh[f++];
  };
  for (let was = 0; was < last.events.length; was++) {
    if (kept[was] === 0) continue;
    const e = last.events[was];
    while (f < fresh.length && compareListOrder(fresh[f], e) < 0) takeFresh();
    order[n] = was;
    out[n++] = e;
  }
  while (f < fresh.length) takeFresh();
  return { events: out, order, fresh };
}
