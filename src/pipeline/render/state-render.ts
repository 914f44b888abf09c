// The render stage over the plan (load/state-load.ts, over a prior or an empty base): the fresh
// events' rows made (or taken from the parse threads) and merged into the prior's list order, the
// event data files made from them and the previous dist's, the files no event shapes linked from
// the previous dist where the ledger proves them or made (the load's, the directory job's), and
// the manifest.
import { compareListOrder, type RenderContext } from '../../render/event.ts';
import { AUTOCOMPLETE_DATA_FILE, AUTOCOMPLETE_DIR, AUTOCOMPLETE_INDEX_FILE, AUTOCOMPLETE_MODULE_FILE, calendarPartFiles, DATA_FILES, EVENT_PART_ROWS, eventOffsetsFiles, eventPartFiles } from '../../store/format/dist-paths.ts';
import { searchIndexBeside } from '../../store/write/search-thread.ts';
import type { EventRows } from '../../store/format/event-rows.ts';
import { columnValuesFromRows } from '../../store/write/column-values.ts';
import type { DistFiles } from '../../store/write/data-files.ts';
import { digestOf, type FileDigest, type Manifest } from '../../store/format/manifest.ts';
import { eventData } from '../../store/write/event-data.ts';
import { hashedAutocompleteFiles } from '../../store/write/hashed-files.ts';
import { madeRows } from '../rows/row-entries.ts';
import { manifestOf, sealManifest } from '../write/manifest-of.ts';
import type { Plan } from '../load/state-load.ts';
import type { BuildOptions, Clock } from '../run.ts';
import type { DistOutput } from '../write/staged-dist.ts';
import { changedWhileBuilt } from '../ledger/dist-ledger.ts';
import { stateRows, type StateRows } from '../state/event-state.ts';
import { KEY_BYTES } from '../state/stat-fields.ts';
import { calendarData } from './calendar-data.ts';
import { useZoneTable } from '../../time/offsets.ts';
import { collectGarbage } from '../../util/collect-garbage.ts';
import { provenFile } from './previous-data.ts';

/**
 * Rows made here from which they and their events are most of the heap: over an empty base the
 * search index is then made on a thread (whose start costs what indexing a few thousand rows does)
 * and each string column read once, by its file; the garbage is collected at once. Below it, a
 * collection and a read-back cost more than they save.
 */
const MANY_ROWS = 10_000;

/**
 * The fresh rows, the next state's rows (taken before the events are let go of) and the event data
 * files (store/write/event-data.ts) of the rows made anew and the previous data, taken from the
 * plan: the previous columns are not held while the pages are answered. The parts are written as
 * they are cut, the other files each as it is made; the events are let go once their columns'
 * values are made. `reused`: the previous data files whose bytes these are (linked, never read).
 * A function of its own: once it returns, nothing holds the rows.
 */
async function eventFiles(options: BuildOptions, plan: Plan, dist: DistOutput) {
  const { rows: next, sequence } = mergedRows(plan);
  const made = freshRows(options, plan, dist, next, sequence);
  const previous = plan.data;
  plan.data = null;
  const many = made.rows.length >= (options.manyRows ?? MANY_ROWS);
  const whole = previous === null && many;
  const beside = whole && options.search !== false ? searchIndexBeside(made.rows) : null;
  beside?.catch(() => undefined); // awaited below; not an unhandled rejection should this one throw first
  const values = columnValuesFromRows(plan.fresh, made.rows, !whole);
  plan.fresh.length = 0;
  if (many) collectGarbage();
  const { values: _values, ...data } = eventData({ rows: made.rows, order: sequence, values, previous, timezone: plan.state.site.timezone, ids: next.id, partRows: options.eventPartRows ?? EVENT_PART_ROWS, calendar: calendarData, linkReused: true, search: options.search !== false && beside === null, onParts: (made) => dist.parts(made, previous?.bytes), onFile: (rel, bytes) => dist.data(rel, bytes) });
  // (awaited before anything else is made: the thread holds the rows until it answers)
  if (beside) dist.data(DATA_FILES.search, await beside);
  const files: DistFiles = new Map([...plan.made, ...data.files]);
  // (the offsets of a part kept are among `files` and `reused`: linked, not written)
  for (const [rel, bytes] of files) if (!data.reused.has(rel)) dist.data(rel, bytes);
  const newest = next.lastModified.reduce((a, b) => Math.max(a, b), 0);
  return { many, files, digests: new Map(dist.digests), cut: data.cut, eventBytes: data.bounds[data.parts.length], oldBytes: previous?.bounds.at(-1) ?? 0, reused: data.reused, next: plan.stateless ? null : next, hashes: made.hashes && next.keys, newest, count: sequence.length };
}

/**
 * The files no event shapes, taken from the previous dist (proven when the plan was made:
 * load/state-load.ts provenDist) and linked: the event data files whose bytes are the previous
 * ones (`reused`, never read), those the plan lists, and the autocomplete files with their twins
 * where the levels they were made at still hold; where they do not, the autocomplete's public
 * files are read and handed on, to be written and compressed as a full build does (`files`).
 * Where a directory file changed, the autocomplete files are its job's (`directory`), MiniSearch's
 * awaited after `between` (the build's clock starts its phase); data/autocomplete.bin is then made
 * of its index on a thread while the build goes on (`data`), for the publish stage to add once the
 * pages are answered, past the render's peak.
 */
async function carriedFiles(options: BuildOptions, plan: Plan, made: Awaited<ReturnType<typeof eventFiles>>, dist: DistOutput, between: () => Promise<void>): Promise<{ twins: number | null; files: DistFiles; copies: ReadonlyMap<string, string>; data?: Promise<Uint8Array> }> {
  // a link that fails (the previous dist changed since it was proven) fails the build, as a page's does
  const link = (rel: string, sha: string, how: Parameters<DistOutput['carried']>[2] = { volume: null }) => {
    if (!dist.carried(rel, sha, how)) throw changedWhileBuilt(rel);
  };
  for (const rel of made.reused) link(rel, plan.previous!.files[rel].sha256);
  for (const rel of plan.carried) link(rel, plan.ledger!.entry(rel)!.sha);
  const { directory, ledger } = plan;
  const files: DistFiles = new Map();
  const ac = (name: string) => files.get(`${AUTOCOMPLETE_DIR}/${name}`) as string;
  let twins: number | null = null;
  let data: Promise<Uint8Array> | undefined;
  if (directory !== null) {
    for (const [rel, text] of Object.entries((await directory.job.files).autocomplete)) files.set(`${AUTOCOMPLETE_DIR}/${rel}`, text);
    // imported here: a build after an event edit takes the autocomplete files as they are
    data = (await import('./autocomplete-data.ts')).autocompleteDataBeside(ac(AUTOCOMPLETE_INDEX_FILE), plan.state.site.page_size);
    data.catch(() => undefined); // (awaited by the publish stage)
  } else if (ledger !== null) {
    twins = options.precompress !== false ? made.eventBytes + ledger.precompressed!.volume - made.oldBytes : null;
    const browser = Object.entries(plan.previous!.public_files!).filter(([rel]) => rel.startsWith(`${AUTOCOMPLETE_DIR}/`));
    const linked = browser.every(([rel, sha]) => ledger.wouldReuse(rel, sha, twins));
    for (const [rel, sha] of browser) {
      if (linked) link(rel, sha, { volume: twins, measure: ledger.entry(rel)!.measure, served: true });
      else files.set(rel, provenFile(plan.state.out, ledger, rel, sha).toString());
    }
  }
  // content-hashed twins of the browser module and its index, cacheable as immutable (the copies among them
  // compressed once); none where they are linked, or the load's (`aula dev`'s: no previous dist to take them from)
  const hashed = files.size === 0 ? { files: [], copies: new Map<string, string>() } : hashedAutocompleteFiles(ac(AUTOCOMPLETE_INDEX_FILE), ac(AUTOCOMPLETE_MODULE_FILE));
  for (const [name, text] of hashed.files) files.set(`${AUTOCOMPLETE_DIR}/${name}`, text);
  await between();
  if (directory !== null && options.minisearch !== false) {
    for (const [rel, text] of Object.entries((await directory.job.files).minisearch)) files.set(`${AUTOCOMPLETE_DIR}/${rel}`, text);
  }
  // (`files` holds the autocomplete files alone)
  if (directory !== null && options.precompress !== false) twins = made.eventBytes + [...files.values()].reduce((n, c) => n + c.length, 0);
  return { twins, files, copies: hashed.copies, data };
}

export interface Rendered {
  /** the files not written yet (autocomplete, documents' inputs) and the small data files */
  files: DistFiles;
  manifest: Manifest;
  /** the autocomplete files that are hashed copies of others (compressed once) */
  hashedCopies: ReadonlyMap<string, string>;
  /** what the dist compresses, known before the pages exist (each event is on one page): the event parts' bytes and the autocomplete files'; null: no twins are made */
  twins: number | null;
  /** the rows' hashes in list order (row-entries.ts rowHash), of which the pages' keys are made; null without a cache */
  hashes: Buffer | null;
  /** the next event state's rows (none: no state is kept) */
  stateRows: StateRows | null;
  /** data/autocomplete.bin being made (carriedFiles), not yet in `files` nor the manifest */
  autocompleteData: Promise<Uint8Array> | null;
}

export async function renderFromState(options: BuildOptions, clock: Clock, plan: Plan, dist: DistOutput): Promise<Rendered> {
  const { state, previous } = plan;
  const made = await eventFiles(options, plan, dist);
  // one collection for the rows and the columns' files before the directory's are awaited: once
  // the parts are written, nothing holds the rows (MANY_ROWS)
  if (made.many) collectGarbage();
  const minisearch = options.minisearch !== false && plan.directory !== null;
  const carried = await carriedFiles(options, plan, made, dist, () => clock.nextPhase('render data', minisearch ? 'minisearch' : 'write data'));
  if (minisearch) await clock.nextPhase('minisearch', 'write data');
  const { digests } = made;
  const out: DistFiles = new Map([...made.files, ...carried.files]);
  for (const rel of made.reused) digests.set(rel, previous!.files[rel]);
  // the files made here digested (the data files were as they were written)
  for (const [rel, content] of out) if (!digests.has(rel)) digests.set(rel, digestOf(content));
  const files: Record<string, FileDigest> = { ...previous?.files };
  // the event files anew (parts past the new last one are gone)
  for (const rel of previous ? [...eventPartFiles(previous), ...eventOffsetsFiles(previous), ...calendarPartFiles(previous)] : []) delete files[rel];
  if (plan.directory !== null) {
    // the directory's files anew: the previous ones (their hashed names among them) are gone
    for (const rel of Object.keys(files)) if (rel === AUTOCOMPLETE_DATA_FILE || rel.startsWith(`${AUTOCOMPLETE_DIR}/`)) delete files[rel];
  }
  for (const [rel, digest] of digests) files[rel] = digest;
  const counts = { events: made.count, pages: state.pages.size, categories: state.categoryIds.length, media: state.media.size, directory: plan.directory?.count ?? plan.directoryCount ?? previous!.counts.directory };
  // the zone's table from the prior's manifest (the same code and ICU: of this build's identity), not asked of Intl again
  if (previous !== null && previous.site.timezone === state.site.timezone) useZoneTable(state.site.timezone, previous.site.offsets);
  const manifest = manifestOf(state.site, plan.baseUrl, made.newest, counts, made.cut);
  sealManifest(manifest, files, out, state.media);
  return { files: out, manifest, hashedCopies: carried.copies, twins: carried.twins, hashes: made.hashes, stateRows: made.next, autocompleteData: carried.data ?? null };
}

/**
 * The fresh events' rows (made on the parse threads against this very context, else here) and their
 * hashes, put among the next state's keys. Not async: what it holds of the threads' rows is let go as it returns.
 */
function freshRows(options: BuildOptions, plan: Plan, dist: DistOutput, next: StateRows, sequence: Int32Array): { rows: EventRows; hashes: Buffer | null } {
  const { state, fresh, ahead } = plan;
  const ctx: RenderContext = { site: state.site, baseUrl: plan.baseUrl, pages: state.pages, media: state.media };
  const made = madeRows(fresh, ctx, ahead.rowsFor(ctx), options.cache !== undefined);
  ahead.dropRows(); // (a build that fails drops them as it abandons the plan)
  dist.reused.rows.reused += sequence.length - fresh.length;
  dist.reused.rows.rendered += fresh.length;
  if (made.hashes !== null) copyKeys(next, sequence, state.rows.keys, made.hashes);
  return made;
}

/**
 * The next state's rows (their keys copyKeys'): the state's rows that stay merged with the fresh
 * events as renderers sort (render/event.ts); `sequence`: the state's row, or -1 - j for fresh event j.
 */
function mergedRows({ fresh, freshFiles, keep, fileMap, state }: Plan): { rows: StateRows; sequence: Int32Array } {
  const old = state.rows;
  const rows = stateRows(keep.reduce((n, k) => n + k, 0) + fresh.length);
  const sequence = new Int32Array(rows.id.length);
  let i = 0;
  let f = 0;
  const put = (from: number, id: number, start: number, end: number, lastModified: number, file: number) => {
    [sequence[i], rows.id[i], rows.start[i], rows.end[i], rows.lastModified[i], rows.file[i]] = [from, id, start, end, lastModified, file];
    i++;
  };
  const takeFresh = () => put(-(f + 1), fresh[f].id, fresh[f].start, fresh[f].end, fresh[f].last_modified, freshFiles[f++]);
  for (let row = 0; row < old.id.length; row++) {
    if (keep[row] === 0) continue;
    while (f < fresh.length && compareListOrder(fresh[f], { start: old.start[row], end: old.end[row], id: old.id[row] }) < 0) takeFresh();
    put(row, old.id[row], old.start[row], old.end[row], old.lastModified[row], fileMap[old.file[row]]);
  }
  while (f < fresh.length) takeFresh();
  return { rows, sequence };
}

/** The rows' keys: each fresh row's hash, and of a run of the state's rows that stay in order, one copy of theirs. */
function copyKeys(rows: StateRows, sequence: Int32Array, oldKeys: Buffer, freshHashes: Buffer): void {
  for (let i = 0; i < sequence.length; ) {
    const from = sequence[i];
    let end = i + 1;
    if (from < 0) freshHashes.copy(rows.keys, i * KEY_BYTES, (-from - 1) * KEY_BYTES, -from * KEY_BYTES);
    else {
      while (end < sequence.length && sequence[end] === sequence[end - 1] + 1) end++;
      oldKeys.copy(rows.keys, i * KEY_BYTES, from * KEY_BYTES, (from + end - i) * KEY_BYTES);
    }
    i = end;
  }
}
