// The data `aula dev` serves an edit from, made in memory before dist/ is written, by the build's
// own render stage (pipeline/render/state-render.ts renderFromState) into a dist in memory
// (MemoryDist), and read by the server's own loader (datasetFrom over those files): the answers
// are those of the dist a build writes from the same content.
//
// The last make is the render's prior, as the previous build is a build's. The content state keeps
// the record objects of files that did not change, so an event is "the same" when its record is
// the same object: each of the model's events stands for the file of its row (the plan's files are
// the events), the fresh events are those that are not the last make's, and the rest keep their
// rows, as long as the render context is the same too (the whole render context, as the parse
// threads' rows are matched to it: renderInputs, so a media file whose size changed counts, and so does anything the
// context gains); any change to it renders every row again. The autocomplete index and its
// searcher are made again only when the directory's records are not all the same objects, and
// given to the render as files already made. data/search.bin is made when a request first
// searches (most edits are served, and replaced, before one does); over a make that has one, the
// render splices it.
import { createHash, randomBytes } from 'node:crypto';
import type { DirectoryObject, Event, Model } from '../model/types.ts';
import { compareListOrder, renderCategory, type RenderContext } from '../render/event.ts';
import { bytesOfParts, partBytes, type EventData } from '../store/write/event-data.ts';
import { toJson } from '../util/json.ts';
import { AUTOCOMPLETE_DATA_FILE, AUTOCOMPLETE_DIR, AUTOCOMPLETE_INDEX_FILE, DATA_FILES, eventPartFile, eventPartFiles } from '../store/format/dist-paths.ts';
import { autocompleteData } from '../pipeline/render/autocomplete-data.ts';
import { previousData } from '../pipeline/render/previous-data.ts';
import { renderFromState } from '../pipeline/render/state-render.ts';
import { renderInputs } from '../pipeline/rows/row-entries.ts';
import { NONE_AHEAD, type Plan } from '../pipeline/load/state-load.ts';
import { startClock } from '../pipeline/run.ts';
import { emptyState, stateRows, type StateRows } from '../pipeline/state/event-state.ts';
import { NO_STATS } from '../pipeline/state/stat-fields.ts';
import type { DistOutput } from '../pipeline/write/staged-dist.ts';
import type { FileDigest, Manifest } from '../store/format/manifest.ts';
import { memorySource, type DistSource } from '../store/read/dist-source.ts';
import { readStore } from '../store/read/stored-data.ts';
import { withSearchFile } from '../store/read/search-index.ts';
import { searchIndexOf } from '../store/write/search-index.ts';
import type { EventRows } from '../store/format/event-rows.ts';
import { buildIndexJson } from '../store/write/index-builder.ts';
import { datasetFrom, searchOf, type Dataset } from '../query/dataset.ts';

const INDEX = `${AUTOCOMPLETE_DIR}/${AUTOCOMPLETE_INDEX_FILE}`;

export interface MemoryStats {
  /** rows rendered anew / copied from the last rows */
  rendered: number;
  reused: number;
  /** whether the autocomplete index was made anew */
  directory: boolean;
}

/** The last make, the next one's prior: its model's events (each its rows' file), its rows, its dist in memory. */
interface Last {
  events: readonly Event[];
  context: string;
  rows: StateRows;
  manifest: Manifest;
  files: ReadonlyMap<string, Content>;
}


export class MemoryBuild {
  private last: Last | null = null;
  private directory: { objects: readonly DirectoryObject[]; pageSize: number; index: string; data: Uint8Array; dataset: Dataset | null } | null = null;
  /** tells this session's builds apart from any other's (see make) */
  private readonly session = randomBytes(8).toString('hex');
  private made = 0;

  /**
   * The dataset of `model` served under `baseUrl` (normalized), what was made anew, the data files
   * it was read from, and the browser's autocomplete index (dist/autocomplete/index.json).
   */
  async make(model: Model, baseUrl: string): Promise<{ dataset: Dataset; stats: MemoryStats; files: DistSource; index: string }> {
    const stats: MemoryStats = { rendered: 0, reused: 0, directory: false };
    const ctx: RenderContext = { site: model.site, baseUrl, pages: model.pages, media: model.media };
    const context = renderInputs(ctx);
    const { index, data: autocomplete } = this.index(model.directory, model.site.page_size, stats);
    const made = new Map<string, string | Uint8Array>([[DATA_FILES.categories, toJson(model.categories.map(renderCategory))], [INDEX, index], [AUTOCOMPLETE_DATA_FILE, autocomplete]]);
    // the last make's rows are this one's only under the same render context
    const plan = planOf(model, baseUrl, this.last?.context === context ? this.last : null, made);
    stats.rendered = plan.fresh.length;
    stats.reused = model.events.length - plan.fresh.length;
    const dist = new MemoryDist(this.last?.files ?? null);
    // data/search.bin spliced over the last make's where a search made one; else made when first searched
    const search = plan.data !== null && this.last!.files.has(DATA_FILES.search);
    const rendered = await renderFromState({ content: '', out: '', precompress: false, minisearch: false, search }, startClock(undefined), plan, dist);
    // The manifest served lists no files (their digests here are sizes alone: the server verifies
    // no file of a trusted source), and its build id is unique to each make of this session, so
    // the answers' validators (made from the manifest) change whenever the data may have, and
    // never match a dist's.
    const { manifest } = rendered;
    const served = { ...manifest, files: {} };
    served.build_id = createHash('sha256').update(`aula dev ${this.session} ${++this.made}\n${JSON.stringify(served)}`).digest('hex').slice(0, 16);
    const files = new Map([...dist.files, ...rendered.files, ['manifest.json', `${JSON.stringify(served, null, 2)}\n`]]);
    const inMemory = { ...memorySource(files, 'memory'), rowsMadeHere: true };
    const source = search ? inMemory : withSearchFile(inMemory, () => searchMade(files, manifest, dataset.events.rows));
    const kept = this.directory!;
    // the searcher is made from the index text: the same text, the same searcher
    const stored = kept.dataset && !stats.directory ? readStore(source, { lazy: true }) : null;
    const dataset: Dataset = stored ? { ...stored, autocomplete: kept.dataset!.autocomplete, search: searchOf(source, stored, true) } : datasetFrom(source, { lazy: true });
    kept.dataset = dataset;
    this.last = { events: model.events, context, rows: rendered.stateRows!, manifest, files };
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
}

/**
 * The render's plan over the last make (none: an empty prior), whose files are the model's events:
 * the last make's rows whose event is still in the model stay, the events that are not the last
 * make's are fresh, in list order.
 */
function planOf(model: Model, baseUrl: string, last: Last | null, made: ReadonlyMap<string, string | Uint8Array>): Plan {
  const { events } = model;
  const files = last === null ? null : last.files;
  const data = last && previousData(last.manifest, (rel) => files!.get(rel) as Uint8Array, (bounds) => {
    const parts = eventPartFiles(last.manifest).map((rel) => files!.get(rel) as Uint8Array);
    return (begin, end) => bytesOfParts(parts, bounds, begin, end);
  });
  const prior = data ? last : null;
  const fileMap = prior ? eventsKept(events, prior.events) : new Int32Array(0);
  const taken = new Uint8Array(events.length);
  for (const i of fileMap) if (i >= 0) taken[i] = 1;
  const freshFiles: number[] = [];
  for (let i = 0; i < events.length; i++) if (taken[i] === 0) freshFiles.push(i);
  freshFiles.sort((a, b) => compareListOrder(events[a], events[b]));
  const rows = prior?.rows ?? stateRows(0);
  const keep = new Uint8Array(rows.id.length);
  for (let row = 0; row < keep.length; row++) keep[row] = fileMap[rows.file[row]] >= 0 ? 1 : 0;
  const { site, pages, media } = model;
  const state = emptyState({ site, pages, media, categoryIds: model.categories.map((c) => c.id), rows });
  return {
    ...NO_STATS, state, previous: prior?.manifest ?? null, ledger: null, data, baseUrl, fileMap, fresh: freshFiles.map((i) => events[i]), freshFiles, keep, removed: 0,
    directory: null, directoryCount: model.directory.length, ahead: NONE_AHEAD, made, carried: [], stateless: false, abandon: () => {},
  };
}

/**
 * Where each of the last make's events (`prev`, in the model's order) is in `events` (-1: gone).
 * After an edit most of them are the last make's records in the last order: each is found by
 * identity where it stood, its neighbours told apart without a look-up (comparing every record's
 * fields, or a map of them all, costs an edit more than the rest of its render); one kept but
 * taken for new renders the same row.
 */
function eventsKept(events: readonly Event[], prev: readonly Event[]): Int32Array {
  const map = new Int32Array(prev.length).fill(-1);
  let lookup: Map<Event, number> | null = null;
  for (let i = 0, j = 0; i < events.length && j < prev.length; i++) {
    const e = events[i];
    let k = prev[j] === e ? j : prev[j + 1] === e ? j + 1 : -1;
    // neither new before prev[j] nor in its place: looked up (a reorder, several changes together)
    if (k < 0 && events[i + 1] !== prev[j] && events[i + 1] !== prev[j + 1]) k = (lookup ??= new Map(prev.map((p, at) => [p, at]))).get(e) ?? -1;
    if (k < 0) continue;
    map[k] = i;
    j = k + 1;
  }
  return map;
}

type Content = string | Uint8Array;

/**
 * data/search.bin of a make's rows, made when first searched: kept with that make's files and
 * listed in its manifest as the render lists what it makes, so the next make splices it.
 */
function searchMade(files: Map<string, Content>, manifest: Manifest, rows: EventRows): Uint8Array {
  const bytes = searchIndexOf(rows);
  files.set(DATA_FILES.search, bytes);
  manifest.files[DATA_FILES.search] = { sha256: '', bytes: bytes.byteLength };
  return bytes;
}

/**
 * The dist a make puts in memory (the render stage's DistOutput): every file by path, the last
 * make's carried by reference. Its digests give the sizes the manifest lists but no SHA-256: no
 * one reads these files but this process, and hashing every part again costs more than making it.
 */
class MemoryDist implements DistOutput {
  readonly files = new Map<string, Content>();
  readonly digests = new Map<string, FileDigest>();
  readonly reused = { rows: { reused: 0, rendered: 0 }, pages: 0 };

  constructor(private readonly last: ReadonlyMap<string, Content> | null) {}

  data(rel: string, content: Content): void {
    this.files.set(rel, content);
    this.digests.set(rel, { sha256: '', bytes: typeof content === 'string' ? Buffer.byteLength(content) : content.byteLength });
  }

  parts({ parts, cut }: Pick<EventData, 'parts' | 'cut'>, bytes?: (begin: number, end: number) => Uint8Array): Map<string, FileDigest> {
    parts.forEach((segments, j) => (segments === null ? this.carried(eventPartFile(cut[j].name)) : this.data(eventPartFile(cut[j].name), partBytes(segments, bytes!))));
    return new Map();
  }

  carried(rel: string): boolean {
    const content = this.last?.get(rel);
    if (content !== undefined) this.data(rel, content);
    return content !== undefined;
  }
}
