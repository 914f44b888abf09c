// The render stage over the plan (load/state-load.ts, over a prior or an empty base), one for
// every build: the fresh events' rows made (or taken from the parse threads) and merged into the prior's list order, the event data files made by the
// build's one data stage (store/write/event-data.ts) from them and the previous dist's, the
// changed event parts written, the files no event shapes linked from the previous dist where the
// ledger proves them or made (the load's, the directory's job's), and the manifest.
import { compareListOrder, type RenderContext } from '../../render/event.ts';
import { readSmallFile } from '../cache/cache-file.ts';
import { join } from 'node:path';
import { AUTOCOMPLETE_DATA_FILE, AUTOCOMPLETE_DIR, AUTOCOMPLETE_INDEX_FILE, AUTOCOMPLETE_MODULE_FILE, DATA_FILES, EVENT_PART_ROWS, eventOffsetsFiles, eventPartFiles } from '../../store/format/dist-paths.ts';
import { searchIndexBeside } from '../../store/write/search-thread.ts';
import type { EventRows } from '../../store/format/event-rows.ts';
import { columnValuesFromRows } from '../../store/write/column-values.ts';
import type { DistFiles } from '../../store/write/data-files.ts';
import { digestOf, type FileDigest, type Manifest } from '../../store/format/manifest.ts';
import { eventData, type EventData } from '../../store/write/event-data.ts';
import { hashedAutocompleteFiles } from '../../store/write/hashed-files.ts';
import { madeRows } from '../rows/row-entries.ts';
import { manifestOf, newestOf, sealManifest } from '../write/manifest-of.ts';
import type { Plan } from '../load/state-load.ts';
import type { BuildOptions, Clock } from '../run.ts';
import { StagedDist, type DistOutput } from '../write/staged-dist.ts';
import { changedWhileBuilt } from '../ledger/dist-ledger.ts';
import { KEY_BYTES, stateRows, type StateRows } from '../state/event-state.ts';
import { calendarData } from './calendar-data.ts';
import { useZoneTable } from '../../time/offsets.ts';
import { collectGarbage } from './collect-garbage.ts';

/**
 * Rows made here from which they and their events are most of the heap: the search index is then
 * made on a thread of its own (a thread's start costs what indexing a few thousand rows does), the
 * garbage of making them collected at once, and the calendar, the search index and the columns
 * each written as it is made and let go (the dataset reads them back from the staging folder).
 * Below it, a collection and a read-back cost more than they save.
 */
const MANY_ROWS = 10_000;

/**
 * The fresh events' rows: those the parse threads made against this very context (plan.ahead), else
 * rendered here; with a cache, their hashes (the pages' keys are made of them). The rows that stay
 * are the previous dist's (plan.data).
 */
function freshRows(options: BuildOptions, plan: Plan, dist: DistOutput): { rows: EventRows; hashes: Buffer | null } {
  const { state, fresh, ahead: source } = plan;
  const ctx: RenderContext = { site: state.site, baseUrl: plan.baseUrl, pages: state.pages, media: state.media };
  // (the rows made ahead hold their events' texts: those events came without them, parse-payload.ts)
  const ahead = source.rowsFor(ctx);
  try {
    dist.reused.rows.reused += plan.keep.reduce((n, k) => n + k, 0);
    dist.reused.rows.rendered += fresh.length;
    return madeRows(fresh, ctx, ahead, options.cache !== undefined);
  } finally {
    source.dropRows();
  }
}

/**
 * The new list order: the state's rows that stay merged with the new events (-1 - j for new event
 * j); each row's file; and the newest last_modified of them (the manifest's built_at).
 */
function mergedOrder(plan: Plan): { sequence: Int32Array; fileOf: number[]; newest: number } {
  const { fresh } = plan;
  const old = plan.state.rows;
  const order: number[] = [];
  const fileOf: number[] = [];
  let newest = newestOf(fresh);
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
    newest = Math.max(newest, old.lastModified[row]);
  }
  while (f < fresh.length) takeFresh();
  return { sequence: Int32Array.from(order), fileOf, newest };
}

/**
 * The event data files made by the build's one data stage (store/write/event-data.ts) from the
 * rows made anew and the previous data (none over an empty prior), which it takes from the plan:
 * the previous columns are let go when it returns, not held while the pages are answered. The
 * parts are written as soon as they are cut (StagedDist.parts), then the columns and the calendar
 * (and, where every row is new and they are many, a thread the search index); the events are let
 * go once their columns' values are made. Resolves with whether MANY_ROWS were
 * made, the files as made and written (but those written as they were made, then), their digests,
 * the parts' bytes, of the previous parts' bytes those the new ones replace, and the previous data
 * files whose bytes these are (`reused`: linked, not written).
 */
async function eventDataFiles(options: BuildOptions, plan: Plan, made: { rows: EventRows; order: Int32Array }, dist: DistOutput) {
  const { rows } = made;
  const before = plan.data;
  plan.data = null;
  const many = rows.length >= (options.manyRows ?? MANY_ROWS);
  const beside = before !== null || !many || options.search === false ? null : searchIndexBeside(rows);
  beside?.catch(() => undefined); // awaited below; not an unhandled rejection should this one throw first
  // a whole list of MANY_ROWS: each string column read once, by its file (made when read, let go once written)
  const values = columnValuesFromRows(plan.fresh, rows, before !== null || !many);
  plan.fresh.length = 0;
  if (many) collectGarbage();
  const onParts = (data: Pick<EventData, 'parts' | 'bounds'>) => dist.parts(data.parts, before?.bytes);
  const partRows = options.eventPartRows ?? EVENT_PART_ROWS;
  // written as made (MANY_ROWS, or staged)
  const onFile = many || dist instanceof StagedDist ? (rel: string, bytes: Uint8Array) => dist.data(rel, bytes) : undefined;
  const { values: _values, ...data } = eventData({ ...made, values, previous: before, timezone: plan.state.site.timezone, partRows, calendar: calendarData, linkReused: true, search: options.search !== false && beside === null, onParts, onFile });
  // (awaited before anything else is made: the thread holds the rows until it answers)
  if (beside) onFile!(DATA_FILES.search, await beside);
  for (const [rel, bytes] of [...plan.made, ...data.files]) if (!data.reused.has(rel)) dist.data(rel, bytes);
  const files: DistFiles = new Map<string, string | Uint8Array>([...plan.made, ...data.files]);
  return { many, files, digests: new Map(dist.digests), eventBytes: data.bounds[data.parts.length], oldBytes: before?.bounds.at(-1) ?? 0, reused: data.reused };
}

/**
 * The files no event shapes, taken from the previous dist (proven when the plan was made:
 * load/state-load.ts provenDist): those the plan lists and the autocomplete files linked, with their twins
 * where the levels they were made at still hold; where they do not, the autocomplete's public
 * files are read and handed on, to be written and compressed as a full build does (`files`,
 * `copies`). Where a directory file changed, the autocomplete files are its job's (`directory`).
 * And the event data files whose bytes are the previous ones (`reused`, never read).
 */
async function carriedFiles(options: BuildOptions, plan: Plan, made: Awaited<ReturnType<typeof eventDataFiles>>, between: () => Promise<void>): Promise<{ twins: number | null; files: DistFiles; copies: ReadonlyMap<string, string>; link(dist: DistOutput): void; data?: Promise<Uint8Array> }> {
  const { eventBytes, oldBytes } = made;
  const carried: [string, string, { volume: number | null; measure?: number; served?: boolean }][] = [];
  for (const rel of made.reused) carried.push([rel, plan.previous!.files[rel].sha256, { volume: null }]);
  const link = (dist: DistOutput) => {
    // a link that fails (the previous dist changed since it was proven) fails the build, as a page's does
    for (const [rel, sha, how] of carried) if (!dist.carried(rel, sha, how)) throw changedWhileBuilt(rel);
  };
  for (const rel of plan.carried) carried.push([rel, plan.ledger!.entry(rel)!.sha, { volume: null }]);
  const files: DistFiles = new Map();
  if (plan.directory !== null) {
    // imported here: a build after an event edit takes the autocomplete files as they are
    const { autocompleteBytes, directoryDistFiles } = await import('./autocomplete-data.ts');
    const { copies, data } = await directoryDistFiles(plan.directory.job, plan.state.site.page_size, options.minisearch !== false, files, between);
    return { twins: options.precompress !== false ? eventBytes + autocompleteBytes(files) : null, files, copies, link, data };
  }
  // no previous dist to take them from: they are the load's (`aula dev`'s, made in memory)
  if (plan.ledger === null) return { twins: null, files, copies: new Map(), link };
  const previous = plan.previous!;
  const ledger = plan.ledger;
  const twins = options.precompress !== false ? eventBytes + ledger.precompressed!.volume - oldBytes : null;
  const browser = Object.entries(previous.public_files!).filter(([rel]) => rel.startsWith(`${AUTOCOMPLETE_DIR}/`));
  let copies: ReadonlyMap<string, string> = new Map();
  if (browser.every(([rel, sha]) => ledger.wouldReuse(rel, { sha }, twins, ledger.entry(rel)!.measure))) {
    for (const [rel, sha] of browser) carried.push([rel, sha, { volume: twins, measure: ledger.entry(rel)!.measure, served: true }]);
  } else {
    for (const [rel, sha] of browser) files.set(rel, provenText(plan, rel, sha));
    const ac = (name: string) => files.get(`${AUTOCOMPLETE_DIR}/${name}`) as string;
    copies = hashedAutocompleteFiles(ac(AUTOCOMPLETE_INDEX_FILE), ac(AUTOCOMPLETE_MODULE_FILE)).copies;
  }
  await between();
  return { twins, files, copies, link };
}

/** The previous dist's `rel` as text, proven by the ledger to be `sha` once read: one changed or gone since the load fails the build. */
function provenText({ state, ledger }: Plan, rel: string, sha: string): string {
  const text = readSmallFile(join(state.out, rel), Number.MAX_SAFE_INTEGER);
  if (text === null || !ledger!.wouldReuse(rel, { sha }, null)) throw changedWhileBuilt(rel);
  return text;
}

export interface Rendered {
  /** the files not written yet (autocomplete, documents' inputs) and the small data files */
  files: DistFiles;
  manifest: Manifest;
  /** the autocomplete files that are hashed copies of others (compressed once) */
  hashedCopies: ReadonlyMap<string, string>;
  /**
   * the measure of what the dist compresses, known before the pages exist (every event appears on
   * exactly one page): the event parts' bytes and the autocomplete files'
   */
  volume: number;
  /** the rows' hashes in list order (row-entries.ts rowHash), of which the pages' keys are made; null without a cache */
  hashes: Buffer | null;
  /** the next event state's rows (none: no state is kept) */
  stateRows: StateRows | null;
  /** data/autocomplete.bin being made, not yet in `files` nor the manifest (autocomplete-data.ts addAutocompleteData) */
  autocompleteData: Promise<Uint8Array> | null;
}

/**
 * The render stage over the plan: the fresh rows made and merged with the prior's rows that stay,
 * their data files (with the prior's data, over a prior), the files no event shapes (the prior's
 * linked, or the directory's job's), the manifest.
 */
export async function renderFromState(options: BuildOptions, clock: Clock, plan: Plan, dist: DistOutput): Promise<Rendered> {
  const { state, previous } = plan;
  const { made, next, hashes, newest, count } = await eventFiles(options, plan, dist);
  // one collection for the rows and the columns' files before the directory's are awaited: once
  // the parts are written, nothing holds the rows (MANY_ROWS)
  if (made.many) collectGarbage();
  const oldFiles = new Set(previous ? [...eventPartFiles(previous), ...eventOffsetsFiles(previous)] : []);
  const minisearch = options.minisearch !== false && plan.directory !== null;
  const carried = await carriedFiles(options, plan, made, () => clock.nextPhase('render data', minisearch ? 'minisearch' : 'write data'));
  if (minisearch) await clock.nextPhase('minisearch', 'write data');
  carried.link(dist);
  const { digests } = made;
  if (previous !== null && plan.directory !== null) {
    // the directory's files anew: the previous ones (their hashed names among them) are gone
    for (const rel of Object.keys(previous.files)) if (rel === AUTOCOMPLETE_DATA_FILE || rel.startsWith(`${AUTOCOMPLETE_DIR}/`)) oldFiles.add(rel);
  }
  const out: DistFiles = new Map([...made.files, ...carried.files]);
  for (const rel of made.reused) digests.set(rel, previous!.files[rel]);
  // the files made here digested (the data files were as they were written)
  for (const [rel, content] of out) if (!digests.has(rel)) digests.set(rel, digestOf(content));
  const files: Record<string, FileDigest> = { ...previous?.files };
  // parts past the new last one are gone
  for (const rel of oldFiles) delete files[rel];
  for (const [rel, digest] of digests) files[rel] = digest;
  const counts = { events: count, pages: state.pages.size, categories: state.categoryIds.length, media: state.media.size, directory: plan.directory?.count ?? plan.directoryCount ?? previous!.counts.directory };
  // the zone's table from the prior's manifest (the same code and ICU: of this build's identity), not asked of Intl again
  if (previous !== null && previous.site.timezone === state.site.timezone) useZoneTable(state.site.timezone, previous.site.offsets);
  const manifest = manifestOf(state.site, plan.baseUrl, newest, counts, options.eventPartRows ?? EVENT_PART_ROWS);
  sealManifest(manifest, files, out, state.media);
  const volume = carried.twins ?? 0;
  return { files: out, manifest, hashedCopies: carried.copies, volume, hashes, stateRows: next, autocompleteData: carried.data ?? null };
}

/**
 * The fresh rows and the event data files: the next state's rows and the newest event are taken
 * before the events are let go of. A function of its own: once it returns, nothing holds the rows.
 */
async function eventFiles(options: BuildOptions, plan: Plan, dist: DistOutput) {
  const order = mergedOrder(plan);
  const fresh = freshRows(options, plan, dist);
  const next = plan.stateless ? null : nextRows(plan, order.sequence, fresh.hashes, order.fileOf);
  const made = await eventDataFiles(options, plan, { rows: fresh.rows, order: order.sequence }, dist);
  // (the pages' keys: the fresh rows' hashes are the list's where no state is kept)
  return { made, next, hashes: fresh.hashes && (next?.keys ?? fresh.hashes), newest: order.newest, count: order.sequence.length };
}

/** The state's rows for the new list order (without their hashes where the fresh rows have none: no cache). */
function nextRows(plan: Plan, sequence: Int32Array, freshHashes: Buffer | null, fileOf: readonly number[]): StateRows {
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
      if (freshHashes !== null && (i === 0 || from === 0 || sequence[i - 1] !== from - 1)) {
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
      freshHashes?.copy(rows.keys, i * KEY_BYTES, j * KEY_BYTES, (j + 1) * KEY_BYTES);
    }
  }
  return rows;
}
