// The render stage over the event state (load/state-load.ts): the new events' rows rendered and
// merged into the state's list order, the event data files made by the build's one data stage
// (store/write/event-data.ts) from them and the previous dist's, the changed event parts written
// on a worker thread (write/events-file.ts), the files no event shapes linked from the previous
// dist where the ledger proves them, and the manifest. What it gives the next stages is what the
// full render stage gives them (render-stage.ts Rendered).
import { compareListOrder, type RenderContext } from '../../render/event.ts';
import { readSmallFile } from '../cache/cache-file.ts';
import { join } from 'node:path';
import { AUTOCOMPLETE_DATA_FILE, AUTOCOMPLETE_DIR, AUTOCOMPLETE_INDEX_FILE, AUTOCOMPLETE_MODULE_FILE, DATA_FILES, eventOffsetsFiles, eventPartFiles } from '../../store/format/dist-paths.ts';
import { EventRows, FIELD_COUNT } from '../../store/format/event-rows.ts';
import type { ColumnValues } from '../../store/format/event-table.ts';
import { columnValuesFromRows } from '../../store/write/column-values.ts';
import { renderRows, type DistFiles } from '../../store/write/data-files.ts';
import { digestOf, type FileDigest } from '../../store/format/manifest.ts';
import { eventData, type EventData } from '../../store/write/event-data.ts';
import { hashedAutocompleteFiles } from '../../store/write/hashed-files.ts';
import { appendRows, rowHash, rowKeyer, rowsPath } from '../rows/render-cache.ts';
import { manifestOf, sealManifest } from '../write/manifest-of.ts';
import type { Plan } from '../load/state-load.ts';
import type { BuildOptions } from '../run.ts';
import type { StagedDist } from '../write/staged-dist.ts';
import { eventParts } from '../write/events-file.ts';
import { changedWhileBuilt } from '../ledger/dist-ledger.ts';
import { KEY_BYTES, stateRows, type StateRows } from '../state/event-state.ts';
import { calendarData } from './calendar-data.ts';
import type { Rendered } from './render-stage.ts';

const STRIDE = FIELD_COUNT + 1;

/** The new events' rows, rendered, with their keys in the rows cache and their hashes. */
interface FreshRows {
  rows: EventRows;
  keys: Buffer[];
  hashes: Buffer[];
}

/**
 * The new events' rows: each is kept in the rows file under its source's key (render-cache.ts),
 * its file's parse key, which no row of the previous build has (a file read again here has a
 * path or text of its own). The pages' keys are made of the rows' hashes.
 */
function freshRows(plan: Plan): FreshRows {
  const { state, fresh } = plan;
  const ctx: RenderContext = { site: state.site, baseUrl: plan.baseUrl, pages: state.pages, media: state.media };
  const keyOf = rowKeyer(ctx);
  const keys = fresh.map((e, j) => {
    const file = plan.freshFiles[j];
    return keyOf(e, plan.eventKeys.subarray(file * KEY_BYTES, (file + 1) * KEY_BYTES));
  });
  const rows = renderRows(fresh, ctx);
  return { rows, keys, hashes: fresh.map((_, j) => rowHash(rows.bytes(j))) };
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

/**
 * The event data over the state, from the previous data files (proven by the ledger) and the rows
 * made anew, and the sizes of the previous parts. A function of its own: the columns' values made
 * from the previous files are let go when it returns, not held by the caller's frame while the
 * pages are answered; only what the new files take of them stays.
 */
function stateData(plan: Plan, made: { rows: EventRows; values: ColumnValues; order: Int32Array }): { data: Omit<EventData, 'values'>; oldSizes: number[]; oldBytes: number } {
  const before = plan.data;
  const oldSizes = eventPartFiles(plan.previous).map((_, j) => before.bounds[j + 1] - before.bounds[j]);
  const { values: _values, ...data } = eventData({ ...made, previous: before, timezone: plan.state.site.timezone, partRows: plan.previous.event_part_rows, calendar: calendarData, linkReused: true });
  return { data, oldSizes, oldBytes: before.bounds[oldSizes.length] };
}

/**
 * The files no event shapes, taken from the previous dist (proven when the plan was made:
 * load/state-load.ts provenDist): categories and the autocomplete files linked, with their twins
 * where the levels they were made at still hold; where they do not, the autocomplete's public
 * files are read and handed on, to be written and compressed as a full build does (`files`,
 * `copies`). Where a directory file changed, the autocomplete files are its job's (`directory`).
 * And the event data files whose bytes are the previous ones (`reused`, never read).
 */
async function carriedFiles(options: BuildOptions, plan: Plan, eventBytes: number, oldBytes: number, reused: Iterable<string>): Promise<{ twins: number | null; files: DistFiles; copies: ReadonlyMap<string, string>; link(dist: StagedDist): void }> {
  const { previous, ledger } = plan;
  const carried: [string, string, { volume: number | null; measure?: number; served?: boolean }][] = [];
  for (const rel of reused) carried.push([rel, previous.files[rel].sha256, { volume: null }]);
  const link = (dist: StagedDist) => {
    // a link that fails (the previous dist changed since it was proven) fails the build, as a page's does
    for (const [rel, sha, how] of carried) if (!dist.carried(rel, sha, how)) throw changedWhileBuilt(rel);
  };
  const files: DistFiles = new Map();
  if (plan.directory !== null) {
    carried.push([DATA_FILES.categories, ledger.entry(DATA_FILES.categories)!.sha, { volume: null }]);
    // imported here: a build after an event edit takes the autocomplete files as they are
    const { autocompleteBytes, directoryDistFiles } = await import('./autocomplete-data.ts');
    const copies = await directoryDistFiles(plan.directory.job, plan.state.site.page_size, options.minisearch !== false, files, async () => {});
    return { twins: options.precompress !== false ? eventBytes + autocompleteBytes(files) : null, files, copies, link };
  }
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
  if (text === null || !ledger.proves(rel, sha)) throw changedWhileBuilt(rel);
  return text;
}

export interface StateRendered extends Rendered {
  /** the next event state's rows */
  stateRows: StateRows;
  /** keeps the rows made here in the rows cache, for the next full build */
  keepRows(): void;
}

/** The render stage over the state: the state's rows and the new ones, their data files, the files linked, the manifest. */
export async function renderFromState(options: BuildOptions, cacheDir: string, plan: Plan, dist: StagedDist, inFlight: Promise<unknown>[]): Promise<StateRendered> {
  const { state, previous } = plan;
  const fresh = freshRows(plan);
  const { sequence, fileOf } = mergedOrder(plan);
  const count = sequence.length;
  const { data, oldSizes, oldBytes } = stateData(plan, { rows: fresh.rows, values: columnValuesFromRows(plan.fresh, fresh.rows), order: sequence });
  const eventBytes = data.bounds[data.parts.length];
  const oldFiles = new Set([...eventPartFiles(previous), ...eventOffsetsFiles(previous)]);
  const digests = await eventParts({ previous, out: plan.state.out, data, oldSizes }, dist, inFlight);
  const carried = await carriedFiles(options, plan, eventBytes, oldBytes, data.reused);
  carried.link(dist);
  // the data files' digests: the previous ones where their bytes are, else of their bytes
  for (const [rel, bytes] of data.files) if (!data.reused.has(rel)) digests.set(rel, digestOf(bytes));
  if (plan.directory !== null) {
    // the directory's files anew: the previous ones (their hashed names among them) are gone
    for (const rel of Object.keys(previous.files)) if (rel === AUTOCOMPLETE_DATA_FILE || rel.startsWith(`${AUTOCOMPLETE_DIR}/`)) oldFiles.add(rel);
    for (const [rel, text] of carried.files) digests.set(rel, digestOf(text));
  }
  const files: Record<string, FileDigest> = { ...previous.files };
  // parts past the new last one are gone
  for (const rel of oldFiles) delete files[rel];
  for (const rel of data.reused) digests.set(rel, previous.files[rel]);
  for (const [rel, digest] of digests) files[rel] = digest;
  const next = nextRows(plan, sequence, fresh.hashes, fileOf);
  let newest = 0;
  for (let row = 0; row < count; row++) newest = Math.max(newest, next.lastModified[row]);
  const counts = { ...previous.counts, events: count, directory: plan.directory?.count ?? previous.counts.directory };
  const manifest = manifestOf(state.site, plan.baseUrl, newest, counts, previous.event_part_rows);
  const out: DistFiles = new Map([...data.files, ...carried.files]);
  const mediaFiles = sealManifest(manifest, files, out, state.media);
  const keepRows = () => appendRows(rowsPath(cacheDir, options.content), fresh.hashes.map((hash, j) => ({ key: fresh.keys[j], hash, json: fresh.rows.bytes(j), starts: fresh.rows.starts.subarray(j * STRIDE, (j + 1) * STRIDE) })));
  return { files: out, manifest, hashedCopies: carried.copies, eventBytes, volume: carried.twins ?? 0, eventCount: count, hashes: next.keys, mediaFiles, stateRows: next, keepRows };
}

/** The state's rows for the new list order. */
function nextRows(plan: Plan, sequence: Int32Array, freshHashes: readonly Buffer[], fileOf: readonly number[]): StateRows {
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
      freshHashes[j].copy(rows.keys, i * KEY_BYTES);
    }
  }
  return rows;
}
