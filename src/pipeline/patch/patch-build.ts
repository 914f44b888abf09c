// The patch build: when only event files changed since the last build into --out and
// that build left its event state (event-state.ts), the model is not loaded and rendered again:
// the load and render stages take the state in its place. Only the changed files are read, parsed
// and checked (plan.ts: against the state's event ids, page tree, category and media ids); their
// rows are rendered and merged into the state's list order, and the event data files made by the
// build's one data stage (store/write/event-data.ts) from them and the previous dist's (the changed
// event parts written on a worker thread); the files no event shapes are linked from the previous
// dist where the ledger proves them. From there the build's own stages run, as in any build: the
// pages and documents answered (or linked where their keys are the previous ones), compressed,
// published and swapped in (publish/). The dist is byte-identical to a clean build's
// (test/incremental.test.ts, patch-build.test.ts).
//
// Anything else — another file changed, no or a damaged state, a dist the ledger does not prove, a
// problem in a changed file, anything unexpected before the dist is published — is not patched:
// the full build runs, and reports problems exactly as ever. So the patch never has to report a
// problem itself.
import { existsSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { dirname, join } from 'node:path';
import { mkdirSync } from 'node:fs';
import { compareListOrder, type RenderContext } from '../../render/event.ts';
import { AUTOCOMPLETE_DATA_FILE, AUTOCOMPLETE_DIR, DATA_FILES, EVENT_PART_ROWS, eventOffsetsFiles, eventPartFile, eventPartFiles } from '../../store/format/dist-paths.ts';
import { calendarData } from '../render/calendar-data.ts';
import { previousFiles } from '../render/previous-data.ts';
import { EventRows, FIELD_COUNT } from '../../store/format/event-rows.ts';
import type { Event } from '../../model/types.ts';
import { renderRows, type DistFiles } from '../../store/write/data-files.ts';
import { buildIdOf, digestOf, type FileDigest, type Manifest } from '../../store/format/manifest.ts';
import { MEDIA_FILES_INDEX } from '../../store/format/public-files.ts';
import { eventData, type EventData } from '../../store/write/event-data.ts';
import { AULA_VERSION } from '../../version.ts';
import type { CacheStats } from '../cache/build-cache.ts';
import { appendRows, rowHash, rowKeyer, rowsPath, type RowsCacheStats } from '../rows/render-cache.ts';
import { manifestSite } from '../write/manifest-of.ts';
import { mediaFilesOf } from '../write/media-copies.ts';
import { COMPRESSOR } from '../ledger/compressed-reuse.ts';
import { createStaging, removeStaging } from '../out-folder/swap.ts';
import { answerStage } from '../publish/answer-stage.ts';
import { publishStage } from '../publish/publish-stage.ts';
import type { Rendered } from '../render/render-stage.ts';
import type { BuildOptions } from '../run.ts';
import { StagedDist } from '../write/staged-dist.ts';
import { writeStage } from '../write/write-stage.ts';
import { KEY_BYTES, writeEventState, type StateRows } from './event-state.ts';
import { writeEventParts, type PartJob } from './events-file.ts';
import { NoPatch, refuse } from './no-patch.ts';
import { planPatch, type PatchHost, type Plan } from './plan.ts';

export type { PatchHost } from './plan.ts';

const STRIDE = FIELD_COUNT + 1;

/** What a patch did, or why the build was not patched. */
export interface PatchStats {
  taken: boolean;
  /** why the full build ran instead */
  reason?: string;
  /** event files read and parsed (changed or added), and removed */
  parsed?: number;
  removed?: number;
  /** rows rendered anew, and the list's length */
  rendered?: number;
  events?: number;
  /** list pages answered, and linked from the previous dist */
  answered?: number;
  linked?: number;
  /** documents answered (the others were linked) */
  documents?: number;
}

export type Patched =
  | { ok: true; manifest: Manifest; files: number; stats: PatchStats; cache: CacheStats; reuse: { rows: RowsCacheStats; pages: number; files: number } }
  | { ok: false; stats: PatchStats };

/** The new events' rows, rendered, with their keys in the rows cache and their hashes. */
interface FreshRows {
  rows: EventRows;
  keys: Buffer[];
  hashes: Buffer[];
}

/** Patches the previous dist when it can; otherwise changes nothing and says why. */
export async function tryPatch(options: BuildOptions, host: PatchHost): Promise<Patched> {
  let staging: string | null = null;
  const inFlight: Promise<unknown>[] = [];
  let publishing = false;
  try {
    const plan = await planPatch(options, host);
    staging = createStaging(host.out);
    const dist = new StagedDist(staging, host.out, { dir: host.cacheDir, content: options.content }, plan.ledger);
    const fresh = freshRows(plan);
    const rendered = await patchedRender(options, host, plan, fresh, dist, inFlight);
    await writeStage(rendered, dist);
    await host.clock.nextPhase('patch: data', 'load dataset');
    const { state } = plan;
    const documents = await answerStage(options, host.clock, { out: host.out, previous: plan.previous, baseUrl: plan.baseUrl, site: state.site, directoryTwins: null }, rendered, dist);
    // the rows made here, for the next full build's render cache
    appendRows(rowsPath(host.cacheDir, options.content), fresh.hashes.map((hash, j) => ({ key: fresh.keys[j], hash, json: fresh.rows.bytes(j), starts: fresh.rows.starts.subarray(j * STRIDE, (j + 1) * STRIDE) })));
    // from here on a failure is the build's own, as in a full build (not a reason to build again)
    publishing = true;
    const record = (manifestJson: string) => writeEventState(plan.statePath, {
      ...state,
      safe: plan.safe,
      manifestSha: createHash('sha256').update(manifestJson).digest('hex'),
      others: plan.others,
      eventFiles: plan.eventFiles,
      eventStats: plan.eventStats,
      eventKeys: plan.eventKeys,
      rows: rendered.stateRows,
    });
    await publishStage(options, host.clock, { out: host.out, previous: plan.previous, media: state.media, record }, rendered, dist);
    const count = rendered.eventCount;
    const linked = dist.reused.pages;
    const pages = rendered.manifest.counts.event_list_pages;
    return {
      ok: true,
      manifest: rendered.manifest,
      files: new Set([...dist.served.keys(), ...dist.written.keys(), 'manifest.json']).size,
      stats: { taken: true, parsed: plan.parsed, removed: plan.removed, rendered: plan.fresh.length, events: count, answered: pages - linked, linked, documents },
      // as a full build counts them (build.ts): files taken without a parse, rows not rendered, files linked
      cache: { hits: plan.contentFiles - plan.parsed, misses: plan.parsed, corrupt: 0, foreign: false },
      reuse: { rows: { reused: count - plan.fresh.length, rendered: plan.fresh.length, corrupt: 0 }, pages: linked, files: dist.reused.files },
    };
  } catch (e) {
    // links and writes still being made into the staging folder would land in it while it is removed
    await Promise.allSettled(inFlight);
    if (staging !== null && existsSync(staging)) removeStaging(staging);
    if (publishing) throw e;
    if (e instanceof NoPatch) return { ok: false, stats: { taken: false, reason: e.message } };
    // anything unexpected before the dist is published: the full build decides
    return { ok: false, stats: { taken: false, reason: `unexpected: ${(e as Error).message}` } };
  }
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
 * The patch's event data, from the previous data files (proven by the ledger) and the rows made
 * anew, and the sizes of the previous parts. A function of its own: the previous files read and
 * the columns' values made from them are let go when it returns, not held by the patch's frame
 * while it answers the pages; only what the new files take of them stays.
 */
function patchedData(plan: Plan, out: string, partRows: number, made: { rows: EventRows; events: readonly Event[]; order: Int32Array }): { data: Omit<EventData, 'values'>; oldSizes: number[]; oldBytes: number } {
  const before = previousFiles(plan, out, partRows) ?? refuse('the previous data files are not proven');
  const oldSizes = eventPartFiles(plan.previous).map((_, j) => before.bounds[j + 1] - before.bounds[j]);
  const { values: _values, ...data } = eventData({ ...made, previous: before, timezone: plan.state.site.timezone, partRows: plan.previous.event_part_rows, calendar: calendarData });
  return { data, oldSizes, oldBytes: before.bounds[oldSizes.length] };
}

/**
 * The event parts in the staging folder: those whose rows are the previous ones linked, the
 * others written on a worker thread (`inFlight` holds it until it is awaited); resolves with
 * every part's digest.
 */
async function eventParts(plan: Plan, out: string, data: Omit<EventData, 'values'>, oldSizes: number[], dist: StagedDist, inFlight: Promise<unknown>[]): Promise<Map<string, FileDigest>> {
  const { previous } = plan;
  const { bounds } = data;
  const parts = data.parts.map((_, j) => eventPartFile(j));
  mkdirSync(join(dist.staging, dirname(parts[0])), { recursive: true });
  const jobs: PartJob[] = [];
  /** the part each job writes */
  const jobPart: number[] = [];
  parts.forEach((rel, j) => {
    if (data.parts[j] === null) return;
    jobs.push({ to: join(dist.staging, rel), segments: data.parts[j]! });
    jobPart.push(j);
  });
  const writing = jobs.length === 0 ? Promise.resolve([]) : writeEventParts({ paths: eventPartFiles(previous).map((rel) => join(out, rel)), sizes: oldSizes }, jobs);
  writing.catch(() => undefined); // awaited below; not an unhandled rejection meanwhile
  inFlight.push(writing); // a refusal before it is awaited must not remove the folder it writes into
  const digests = new Map<string, FileDigest>();
  parts.forEach((rel, j) => {
    if (data.parts[j] !== null) return;
    const digest = previous.files[rel];
    if (digest.bytes !== bounds[j + 1] - bounds[j] || !dist.ledger?.reuse(rel, dist.staging, { sha: digest.sha256 }, null)) refuse(`${rel} is not proven`);
    dist.reused.files++;
    digests.set(rel, digest);
  });
  (await writing).forEach((file, m) => {
    const j = jobPart[m];
    if (file.bytes !== bounds[j + 1] - bounds[j]) refuse(`${parts[j]} does not add up`);
    digests.set(parts[j], { sha256: file.sha, bytes: file.bytes });
  });
  for (const [rel, digest] of digests) dist.written.set(rel, { sha: digest.sha256 });
  return digests;
}

/**
 * The files no event shapes, linked from the previous dist: categories, the autocomplete files
 * (with their twins when the levels they were made at still hold); returns the twins' volume
 * (null without them). Every other file of the previous manifest must be one the data stage makes.
 */
function carriedFiles(options: BuildOptions, plan: Plan, eventBytes: number, oldBytes: number, dist: StagedDist): number | null {
  const { previous, ledger } = plan;
  const then = ledger.precompressed;
  const precompress = options.precompress !== false;
  if (precompress && (!then || !previous.precompressed || then.compressor !== COMPRESSOR || previous.precompressed.volume !== then.volume)) refuse('no twins to reuse');
  const twins = precompress ? eventBytes + then!.volume - oldBytes : null;
  for (const rel of [DATA_FILES.categories, AUTOCOMPLETE_DATA_FILE]) {
    const entry = ledger.entry(rel) ?? refuse(`${rel} is not in the ledger`);
    if (!dist.carried(rel, entry.sha, { volume: null })) refuse(`${rel} is not proven`);
  }
  if (previous.files[DATA_FILES.categories]?.sha256 !== ledger.entry(DATA_FILES.categories)!.sha) refuse("categories.json is not the manifest's");
  const publicFiles = previous.public_files ?? refuse('no public files');
  for (const rel of Object.keys(publicFiles).filter((r) => r.startsWith(`${AUTOCOMPLETE_DIR}/`))) {
    const entry = ledger.entry(rel) ?? refuse(`${rel} is not in the ledger`);
    if (entry.sha !== publicFiles[rel] || !dist.carried(rel, entry.sha, { volume: twins, measure: entry.measure, served: true })) refuse(`${rel} is not proven`);
  }
  return twins;
}

/** The render stage of a patch: the state's rows and the new ones, their data files, the files linked, the manifest. */
async function patchedRender(options: BuildOptions, host: PatchHost, plan: Plan, fresh: FreshRows, dist: StagedDist, inFlight: Promise<unknown>[]): Promise<Rendered & { stateRows: StateRows }> {
  const { state, previous } = plan;
  const { sequence, fileOf } = mergedOrder(plan);
  const count = sequence.length;
  const { data, oldSizes, oldBytes } = patchedData(plan, host.out, options.eventPartRows ?? EVENT_PART_ROWS, { rows: fresh.rows, events: plan.fresh, order: sequence });
  const eventBytes = data.bounds[data.parts.length];
  const twins = carriedFiles(options, plan, eventBytes, oldBytes, dist);
  const oldFiles = new Set([...eventPartFiles(previous), ...eventOffsetsFiles(previous)]);
  const made = new Set([...data.files.keys(), DATA_FILES.categories, AUTOCOMPLETE_DATA_FILE, MEDIA_FILES_INDEX]);
  for (const rel of Object.keys(previous.files)) {
    if (!made.has(rel) && !oldFiles.has(rel) && !dist.served.has(rel)) refuse(`${rel} is not accounted for`);
  }
  const digests = await eventParts(plan, host.out, data, oldSizes, dist, inFlight);
  // the data files' digests: the previous ones where their bytes are, else of their bytes
  for (const [rel, bytes] of data.files) if (!data.reused.has(rel)) digests.set(rel, digestOf(bytes));
  const files: Record<string, FileDigest> = { ...previous.files };
  // parts past the new last one are gone
  for (const rel of oldFiles) delete files[rel];
  for (const rel of data.reused) digests.set(rel, previous.files[rel]);
  for (const [rel, digest] of digests) files[rel] = digest;
  const stateRows = nextRows(plan, sequence, fresh.hashes, fileOf);
  let newest = 0;
  for (let row = 0; row < count; row++) newest = Math.max(newest, stateRows.lastModified[row]);
  const limit = state.site.page_size;
  const manifest: Manifest = {
    format: previous.format,
    version: AULA_VERSION,
    built_at: new Date(newest).toISOString(),
    base_url: plan.baseUrl,
    site: manifestSite(state.site),
    counts: { ...previous.counts, events: count, event_list_pages: Math.max(1, Math.ceil(count / limit)) },
    event_part_rows: previous.event_part_rows,
    event_list: previous.event_list,
    files: Object.fromEntries(Object.entries(files).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))),
  };
  manifest.build_id = buildIdOf(manifest);
  const mediaFiles = mediaFilesOf(state.media);
  const out: DistFiles = new Map(data.files);
  out.set(MEDIA_FILES_INDEX, `${JSON.stringify(mediaFiles)}\n`);
  out.set('manifest.json', `${JSON.stringify(manifest, null, 2)}\n`);
  return { files: out, manifest, hashedCopies: new Map(), eventBytes, volume: twins ?? 0, eventCount: count, hashes: stateRows.keys, mediaFiles, stateRows };
}

/** The state's rows for the new list order. */
function nextRows(plan: Plan, sequence: Int32Array, freshHashes: readonly Buffer[], fileOf: readonly number[]): StateRows {
  const old = plan.state.rows;
  const count = sequence.length;
  const rows: StateRows = {
    id: new Float64Array(count),
    start: new Float64Array(count),
    end: new Float64Array(count),
    lastModified: new Float64Array(count),
    file: new Uint32Array(count),
    keys: Buffer.allocUnsafe(count * KEY_BYTES),
  };
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
