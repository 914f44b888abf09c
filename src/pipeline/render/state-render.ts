// The render stage over the plan (load/state-load.ts over a prior, load/whole-load.ts over an
// empty one), one for every build: the fresh events' rows made (over an empty prior, taken from
// the parse threads and the rows cache) and merged into the prior's list order, the event data
// files made by the build's one data stage (store/write/event-data.ts) from them and the previous
// dist's, the changed event parts written (on a worker thread over a prior, as cut over an empty
// one), the files no event shapes linked from the previous dist where the ledger proves them or
// made (categories, the directory's job's files), and the manifest.
import { randomBytes } from 'node:crypto';
import { compareListOrder, renderCategory, type RenderContext } from '../../render/event.ts';
import { readSmallFile } from '../cache/cache-file.ts';
import { join } from 'node:path';
import { AUTOCOMPLETE_DATA_FILE, AUTOCOMPLETE_DIR, AUTOCOMPLETE_INDEX_FILE, AUTOCOMPLETE_MODULE_FILE, DATA_FILES, EVENT_PART_ROWS, eventOffsetsFiles, eventPartFile, eventPartFiles } from '../../store/format/dist-paths.ts';
import { COLUMN_FILES } from '../../store/format/column-files.ts';
import { splitParts } from '../../store/format/event-parts.ts';
import { toJson } from '../../util/json.ts';
import type { MediaFile } from '../../store/format/public-files.ts';
import { searchIndexBeside } from '../../store/write/search-thread.ts';
import { EventRows, FIELD_COUNT } from '../../store/format/event-rows.ts';
import type { TextlessEvent } from '../../model/event-texts.ts';
import type { ColumnValues } from '../../store/format/event-table.ts';
import { columnValuesFromRows } from '../../store/write/column-values.ts';
import { renderRows, rowsRenderer, type DistFiles } from '../../store/write/data-files.ts';
import { digestOf, type FileDigest, type Manifest } from '../../store/format/manifest.ts';
import { eventData } from '../../store/write/event-data.ts';
import { hashedAutocompleteFiles } from '../../store/write/hashed-files.ts';
import { appendRows, cachedRows, rowHash, rowKeyer, rowsPath } from '../rows/render-cache.ts';
import { manifestOf, newestOf, sealManifest } from '../write/manifest-of.ts';
import type { Plan } from '../load/state-load.ts';
import type { BuildOptions, Clock } from '../run.ts';
import type { StagedDist } from '../write/staged-dist.ts';
import { eventParts } from '../write/events-file.ts';
import { changedWhileBuilt } from '../ledger/dist-ledger.ts';
import { KEY_BYTES, stateRows, type StateRows } from '../state/event-state.ts';
import { STAT_FIELDS } from '../state/stat-fields.ts';
import { calendarData } from './calendar-data.ts';
import { collectGarbage } from './collect-garbage.ts';

const STRIDE = FIELD_COUNT + 1;
/** Rows from which the search index is made on a thread of its own: a thread's start costs what indexing a few thousand rows does. */
const SEARCH_THREAD_ROWS = 10_000;

/** The fresh events' rows, with their hashes (none without a cache), and how the rows cache keeps those made here. */
interface FreshRows {
  rows: EventRows;
  hashes: Buffer | null;
  keepRows(): void;
}

/**
 * The fresh events' rows. Each is kept in the rows file under its source's key (render-cache.ts),
 * its file's parse key, which no row of the previous build has (a file read again here has a path
 * or text of its own); a file whose key is not known gives a key no row has. Over an empty prior,
 * the parse threads' rows where they were made against this very context, else from the rows
 * cache by their keys, else rendered here (render-cache.ts cachedRows); over a prior, the few
 * fresh events rendered here, appended to the rows file once the build is done (keepRows).
 */
function freshRows(options: BuildOptions, plan: Plan, dist: StagedDist): FreshRows {
  const { state, fresh } = plan;
  const ctx: RenderContext = { site: state.site, baseUrl: plan.baseUrl, pages: state.pages, media: state.media };
  if (plan.whole !== null) return { ...rowsAhead(options, plan, ctx, dist), keepRows: keepNone };
  const keyOf = sourceKeyer(plan, ctx);
  const keys = fresh.map((e, j) => keyOf(e, j));
  const rows = renderRows(fresh, ctx);
  const hashes = Buffer.concat(fresh.map((_, j) => rowHash(rows.bytes(j))));
  const entry = (key: Buffer, j: number) => ({ key, hash: hashes.subarray(j * KEY_BYTES, (j + 1) * KEY_BYTES), json: rows.bytes(j), starts: rows.starts.subarray(j * STRIDE, (j + 1) * STRIDE) });
  return { rows, hashes, keepRows: () => appendRows(rowsPath(options.cache!, options.content), keys.map(entry)) };
}

/** (a closure made where the rows made ahead are in scope would hold them, and every event with them, for the rest of the build) */
const keepNone = () => {};

/** Fresh event j's row key: of its file's parse key, or, where the file's key is not known, of one no row has. */
function sourceKeyer(plan: Plan, ctx: RenderContext): (e: TextlessEvent, j: number) => Buffer {
  const keyOf = rowKeyer(ctx);
  return (e, j) => {
    const file = plan.freshFiles[j];
    const known = file !== undefined && plan.eventStats[file * STAT_FIELDS] >= 0n; // (none where no records are kept)
    return keyOf(e, known ? plan.eventKeys.subarray(file * KEY_BYTES, (file + 1) * KEY_BYTES) : randomBytes(KEY_BYTES));
  };
}

/** Over an empty prior: the rows the parse threads made against this very context, else from the rows cache, else rendered here; the threads' rows let go of. */
function rowsAhead(options: BuildOptions, plan: Plan, ctx: RenderContext, dist: StagedDist): Omit<FreshRows, 'keepRows'> {
  const { parsing } = plan.whole!;
  const { fresh } = plan;
  // (the rows made ahead hold their events' texts: those events came without them, parse-payload.ts)
  const ahead = parsing.rowsFor(ctx);
  try {
    if (options.cache === undefined) return { rows: rowsRenderer(ahead.premade, ahead.whole)(fresh, ctx), hashes: null };
    const keyOf = sourceKeyer(plan, ctx);
    const keys = fresh.map((e, j) => ahead.premade?.get(e)?.key ?? keyOf(e, j));
    // (the threads' file of rows: kept as the rows file when it is written whole)
    return cachedRows(rowsPath(options.cache, options.content), fresh, keys, ctx, dist.reused.rows, ahead, ahead.premade ? parsing.rowsMade() : null);
  } finally {
    parsing.dropRows();
  }
}

/** The new list order: the state's rows that stay merged with the new events (-1 - j for new event j); and each row's file. */
function mergedOrder(plan: Plan): { sequence: Int32Array; fileOf: number[] } {
  const { fresh } = plan;
  const old = plan.state.rows;
  const order: number[] = [];
  const fileOf: number[] = [];
  let f = 0;
  const takeFresh = () => {
    order.push(-(f + 1));
    fileOf.push(plan.freshFiles[f++]);
  };
  for (let row = 0; row < old.id.length; row++) {
    if (plan.keep[row] === 0) continue;
    // (the list order of the state's row, as renderers sort: render/event.ts)
    const kept = { start: old.start[row], end: old.end[row], id: old.id[row] };
    while (f < fresh.length && compareListOrder(fresh[f], kept) < 0) takeFresh();
    order.push(row);
    fileOf.push(plan.fileMap[old.file[row]]);
  }
  while (f < fresh.length) takeFresh();
  return { sequence: Int32Array.from(order), fileOf };
}

/** The event data files as made (`files`, not written yet), their digests where known, the parts' bytes, and of the previous parts' bytes those the new ones replace. */
interface MadeData {
  files: DistFiles;
  digests: Map<string, FileDigest>;
  eventBytes: number;
  oldBytes: number;
  /** the previous data files whose bytes these are (linked, not written) */
  reused: Set<string>;
}

/**
 * The event data over the state, from the previous data files (proven by the ledger) and the rows
 * made anew, the changed event parts written on a worker thread. It takes the previous data from
 * the plan: the previous columns and their values are let go when it returns, not held while the
 * pages are answered; only what the new files take of them stays.
 */
async function stateData(plan: Plan, made: { rows: EventRows; values: ColumnValues; order: Int32Array }, dist: StagedDist, inFlight: Promise<unknown>[]): Promise<MadeData> {
  const [before, previous] = [plan.data!, plan.previous!];
  plan.data = null;
  const oldSizes = eventPartFiles(previous).map((_, j) => before.bounds[j + 1] - before.bounds[j]);
  const { values: _values, ...data } = eventData({ ...made, previous: before, timezone: plan.state.site.timezone, partRows: previous.event_part_rows, calendar: calendarData, linkReused: true });
  const digests = await eventParts({ previous, out: plan.state.out, data, oldSizes }, dist, inFlight);
  // the data files' digests: the previous ones where their bytes are, else of their bytes
  for (const [rel, bytes] of data.files) if (!data.reused.has(rel)) digests.set(rel, digestOf(bytes));
  return { files: data.files, digests, eventBytes: data.bounds[data.parts.length], oldBytes: before.bounds[oldSizes.length], reused: data.reused };
}

/**
 * The event data over an empty prior: every row new. The search index is made on a thread of its
 * own (past SEARCH_THREAD_ROWS) and the parts written on libuv's pool as they are cut, while this
 * thread makes the columns and the calendar; the events (most of the heap) are let go once their
 * columns' values are made, and the large files leave the heap once written (the dataset reads
 * them back from the staging folder).
 */
async function wholeData(options: BuildOptions, plan: Plan, rows: EventRows, dist: StagedDist): Promise<MadeData> {
  const partRows = options.eventPartRows ?? EVENT_PART_ROWS;
  const beside = rows.length < SEARCH_THREAD_ROWS ? null : searchIndexBeside(rows);
  beside?.catch(() => undefined); // awaited below; not an unhandled rejection should this one throw first
  const values = columnValuesFromRows(plan.fresh, rows);
  plan.fresh.length = 0;
  collectGarbage();
  let eventBytes = 0;
  const later = new Map<string, Uint8Array>();
  splitParts(rows.lineBytes, rows.starts, partRows).forEach((part, i) => {
    dist.data(eventPartFile(i), part, later);
    eventBytes += part.byteLength;
  });
  dist.writeLater(later);
  const files: DistFiles = eventData({ rows, values, order: null, previous: null, timezone: plan.state.site.timezone, partRows, calendar: calendarData, search: beside === null }).files;
  // (awaited before anything else is made: the thread holds the rows until it answers)
  if (beside) files.set(DATA_FILES.search, await beside);
  files.set(DATA_FILES.categories, toJson(plan.whole!.categories.map(renderCategory)));
  for (const rel of [...Object.values(DATA_FILES), ...COLUMN_FILES]) dist.data(rel, files.get(rel)!);
  for (const rel of COLUMN_FILES) files.delete(rel);
  return { files, digests: new Map(dist.digests), eventBytes, oldBytes: 0, reused: new Set() };
}

/**
 * The files no event shapes, taken from the previous dist (proven when the plan was made:
 * load/state-load.ts provenDist): categories and the autocomplete files linked, with their twins
 * where the levels they were made at still hold; where they do not, the autocomplete's public
 * files are read and handed on, to be written and compressed as a full build does (`files`,
 * `copies`). Where a directory file changed, the autocomplete files are its job's (`directory`).
 * And the event data files whose bytes are the previous ones (`reused`, never read).
 */
async function carriedFiles(options: BuildOptions, plan: Plan, made: MadeData, between: () => Promise<void>): Promise<{ twins: number | null; files: DistFiles; copies: ReadonlyMap<string, string>; link(dist: StagedDist): void }> {
  const { eventBytes, oldBytes } = made;
  const carried: [string, string, { volume: number | null; measure?: number; served?: boolean }][] = [];
  for (const rel of made.reused) carried.push([rel, plan.previous!.files[rel].sha256, { volume: null }]);
  const link = (dist: StagedDist) => {
    // a link that fails (the previous dist changed since it was proven) fails the build, as a page's does
    for (const [rel, sha, how] of carried) if (!dist.carried(rel, sha, how)) throw changedWhileBuilt(rel);
  };
  const files: DistFiles = new Map();
  if (plan.directory !== null) {
    if (plan.ledger !== null) carried.push([DATA_FILES.categories, plan.ledger.entry(DATA_FILES.categories)!.sha, { volume: null }]);
    // imported here: a build after an event edit takes the autocomplete files as they are
    const { autocompleteBytes, directoryDistFiles } = await import('./autocomplete-data.ts');
    const copies = await directoryDistFiles(plan.directory.job, plan.state.site.page_size, options.minisearch !== false, files, between);
    return { twins: options.precompress !== false ? eventBytes + autocompleteBytes(files) : null, files, copies, link };
  }
  const previous = plan.previous!;
  const ledger = plan.ledger!;
  const twins = options.precompress !== false ? eventBytes + ledger.precompressed!.volume - oldBytes : null;
  for (const rel of [DATA_FILES.categories, AUTOCOMPLETE_DATA_FILE]) carried.push([rel, ledger.entry(rel)!.sha, { volume: null }]);
  const browser = Object.entries(previous.public_files!).filter(([rel]) => rel.startsWith(`${AUTOCOMPLETE_DIR}/`));
  let copies: ReadonlyMap<string, string> = new Map();
  if (browser.every(([rel, sha]) => ledger.wouldReuse(rel, { sha }, twins, ledger.entry(rel)!.measure))) {
    for (const [rel, sha] of browser) carried.push([rel, sha, { volume: twins, measure: ledger.entry(rel)!.measure, served: true }]);
  } else {
    for (const [rel, sha] of browser) files.set(rel, provenText(plan, rel, sha));
    const ac = (name: string) => files.get(`${AUTOCOMPLETE_DIR}/${name}`) as string;
    copies = hashedAutocompleteFiles(ac(AUTOCOMPLETE_INDEX_FILE), ac(AUTOCOMPLETE_MODULE_FILE)).copies;
  }
  return { twins, files, copies, link };
}

/** The previous dist's `rel` as text, proven by the ledger to be `sha` once read: one changed or gone since the load fails the build. */
function provenText({ state, ledger }: Plan, rel: string, sha: string): string {
  const text = readSmallFile(join(state.out, rel), Number.MAX_SAFE_INTEGER);
  if (text === null || !ledger!.proves(rel, sha)) throw changedWhileBuilt(rel);
  return text;
}

export interface Rendered {
  /** the files not written yet (autocomplete, documents' inputs) and the small data files */
  files: DistFiles;
  manifest: Manifest;
  /** the autocomplete files that are hashed copies of others (compressed once) */
  hashedCopies: ReadonlyMap<string, string>;
  /** the event parts' bytes */
  eventBytes: number;
  /**
   * the measure of what the dist compresses, known before the pages exist (every event appears on
   * exactly one page): the event parts' bytes and the autocomplete files'
   */
  volume: number;
  eventCount: number;
  /** the rows' hashes in list order (render-cache.ts rowHash), of which the pages' keys are made; null without a cache */
  hashes: Buffer | null;
  mediaFiles: MediaFile[];
  /** the next event state's rows (none: no state is kept) */
  stateRows: StateRows | null;
  /** keeps the rows made here in the rows cache, for the next build */
  keepRows(): void;
}

/**
 * The render stage over the plan: the fresh rows made and merged with the prior's rows that stay,
 * their data files (with the prior's data, over a prior), the files no event shapes (the prior's
 * linked, or the directory's job's), the manifest.
 */
export async function renderFromState(options: BuildOptions, clock: Clock, plan: Plan, dist: StagedDist, inFlight: Promise<unknown>[]): Promise<Rendered> {
  const { state, previous } = plan;
  const { made, next, hashes, newest, keepRows, count } = await eventFiles(options, plan, dist, inFlight);
  if (plan.whole) {
    // one collection for the rows and the columns' files before the directory's are awaited: once
    // the parts are written (they were while the columns were made), nothing holds the rows
    await dist.settled();
    collectGarbage();
  }
  const oldFiles = new Set(previous ? [...eventPartFiles(previous), ...eventOffsetsFiles(previous)] : []);
  const minisearch = options.minisearch !== false && plan.whole !== null;
  const carried = await carriedFiles(options, plan, made, plan.whole ? () => clock.nextPhase('render data', minisearch ? 'minisearch' : 'write data') : async () => {});
  if (minisearch) await clock.nextPhase('minisearch', 'write data');
  carried.link(dist);
  const { digests } = made;
  if (previous !== null && plan.directory !== null) {
    // the directory's files anew: the previous ones (their hashed names among them) are gone
    for (const rel of Object.keys(previous.files)) if (rel === AUTOCOMPLETE_DATA_FILE || rel.startsWith(`${AUTOCOMPLETE_DIR}/`)) oldFiles.add(rel);
  }
  const out: DistFiles = new Map([...made.files, ...carried.files]);
  // the files made here digested: over an empty prior every one not hashed as written, else the directory's
  for (const [rel, content] of plan.whole ? out : plan.directory !== null ? carried.files : []) if (!digests.has(rel)) digests.set(rel, digestOf(content));
  const files: Record<string, FileDigest> = { ...previous?.files };
  // parts past the new last one are gone
  for (const rel of oldFiles) delete files[rel];
  for (const rel of made.reused) digests.set(rel, previous!.files[rel]);
  for (const [rel, digest] of digests) files[rel] = digest;
  const counts = previous ? { ...previous.counts, events: count, directory: plan.directory?.count ?? previous.counts.directory } : { events: count, pages: state.pages.size, categories: state.categoryIds.length, media: state.media.size, directory: plan.directory!.count };
  const manifest = manifestOf(state.site, plan.baseUrl, newest, counts, previous?.event_part_rows ?? options.eventPartRows ?? EVENT_PART_ROWS);
  const mediaFiles = sealManifest(manifest, files, out, state.media);
  const volume = carried.twins ?? 0;
  return { files: out, manifest, hashedCopies: carried.copies, eventBytes: made.eventBytes, volume, eventCount: count, hashes, mediaFiles, stateRows: next, keepRows };
}

/**
 * The fresh rows and the event data files: the next state's rows and the newest event are taken
 * before the events are let go of. A function of its own: once it returns, nothing holds the rows
 * (but keepRows, over a prior: a few).
 */
async function eventFiles(options: BuildOptions, plan: Plan, dist: StagedDist, inFlight: Promise<unknown>[]) {
  const order = mergedOrder(plan);
  const fresh = freshRows(options, plan, dist);
  const next = fresh.hashes === null || plan.whole?.stateless ? null : nextRows(plan, order.sequence, fresh.hashes, order.fileOf);
  const newest = newestRow(plan);
  const made = plan.whole ? await wholeData(options, plan, fresh.rows, dist) : await stateData(plan, { rows: fresh.rows, values: columnValuesFromRows(plan.fresh, fresh.rows), order: order.sequence }, dist, inFlight);
  // (the pages' keys: over an empty prior, the fresh rows' hashes are the list's, a state kept or not)
  return { made, next, hashes: next?.keys ?? (plan.whole ? fresh.hashes : null), newest, keepRows: fresh.keepRows, count: order.sequence.length };
}

/** The newest last_modified of the rows that stay and the fresh events (the manifest's built_at). */
function newestRow(plan: Plan): number {
  let newest = newestOf(plan.fresh);
  const { keep, state } = plan;
  for (let row = 0; row < keep.length; row++) if (keep[row] === 1) newest = Math.max(newest, state.rows.lastModified[row]);
  return newest;
}

/** The state's rows for the new list order. */
function nextRows(plan: Plan, sequence: Int32Array, freshHashes: Buffer, fileOf: readonly number[]): StateRows {
  const old = plan.state.rows;
  const count = sequence.length;
  const rows = stateRows(count);
  for (let i = 0; i < count; i++) {
    const from = sequence[i];
    if (from >= 0) {
      rows.id[i] = old.id[from];
      rows.start[i] = old.start[from];
      rows.end[i] = old.end[from];
      rows.lastModified[i] = old.lastModified[from];
      rows.file[i] = fileOf[i];
      // the hashes of a run of rows that stay in order: one copy, not one per row
      if (i === 0 || from === 0 || sequence[i - 1] !== from - 1) {
        let end = i + 1;
        while (end < count && sequence[end] === sequence[end - 1] + 1) end++;
        old.keys.copy(rows.keys, i * KEY_BYTES, from * KEY_BYTES, (from + end - i) * KEY_BYTES);
      }
    } else {
      const j = -from - 1;
      const e = plan.fresh[j];
      rows.id[i] = e.id;
      rows.start[i] = e.start;
      rows.end[i] = e.end;
      rows.lastModified[i] = e.last_modified;
      rows.file[i] = fileOf[i];
      freshHashes.copy(rows.keys, i * KEY_BYTES, j * KEY_BYTES, (j + 1) * KEY_BYTES);
    }
  }
  return rows;
}
