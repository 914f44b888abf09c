// The patch build: when only event files changed since the last build into --out and
// that build left its event state (event-state.ts), the previous dist is patched instead of the
// whole model being loaded and rendered again. Only the changed files are read, parsed and checked
// (against the state: every event id, the page tree, category and media ids); their rows are
// rendered, and the event data files made by the build's one stage (store/write/event-data.ts)
// from them and the previous dist's (the changed event parts written on a worker thread); only the
// list pages whose key changed and the documents are answered (by the API core, over the spliced
// data, as a full build answers them; events.ics only when its first rows or stamp changed); every
// other file is linked from the previous dist where the ledger proves it.
// The dist is byte-identical to a clean build's (test/incremental.test.ts, patch-build.test.ts).
//
// Anything else — another file changed, no or a damaged state, a dist the ledger does not prove, a
// problem in a changed file, anything unexpected — is not patched: the full build runs, and
// reports problems exactly as ever. So the patch never has to report a problem itself.
import { mkdirSync, readFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { dirname, join } from 'node:path';
import { bodyBuffer, bodyText } from '../../api/body.ts';
import { createApi } from '../../api/core.ts';
import { CALENDAR_CAP } from '../../api/events/calendar.ts';
import { EVENT_LIST_PATH } from '../../api/events/list.ts';
import { DEFAULT_UPSTREAM } from '../../defaults.ts';
import { compressionPool } from '../../deploy/precompress.ts';
import { contentSchemas } from '../../docs/content-schemas.ts';
import { autocompleteOf, type Autocomplete } from '../../query/autocomplete/searcher.ts';
import { readAutocompleteFile } from '../../store/read/autocomplete-file.ts';
import type { Dataset } from '../../query/dataset.ts';
import { compareListOrder, type RenderContext } from '../../render/event.ts';
import { AUTOCOMPLETE_DATA_FILE, AUTOCOMPLETE_DIR, DATA_FILES, EVENT_PART_ROWS, eventOffsetsFile, eventOffsetsFiles, eventPartFile, eventPartFiles } from '../../store/format/dist-paths.ts';
import { COLUMN_FILES } from '../../store/format/column-files.ts';
import { readColumns } from '../../store/read/column-files.ts';
import { readCalendarFile } from '../../store/read/calendar-file.ts';
import { calendarData } from '../render/calendar-data.ts';
import { previousFiles } from '../render/previous-data.ts';
import { memorySource } from '../../store/read/dist-source.ts';
import { EventRows, FIELD_COUNT } from '../../store/format/event-rows.ts';
import type { Event } from '../../model/types.ts';
import { renderRows } from '../../store/write/data-files.ts';
import { buildIdOf, digestOf, type FileDigest, type Manifest } from '../../store/format/manifest.ts';
import { isPublicFile, MEDIA_FILES_INDEX } from '../../store/format/public-files.ts';
import type { EventTable } from '../../store/format/event-table.ts';
import { FileRows } from '../../store/read/file-rows.ts';
import { decodeSearchIndex } from '../../store/format/search/search-index-file.ts';
import { eventData, type EventData } from '../../store/write/event-data.ts';
import { WordIndex } from '../../query/events/search/word-index.ts';
import { toJson } from '../../store/format/json.ts';
import { AULA_VERSION } from '../../version.ts';
import type { CacheStats } from '../cache/build-cache.ts';
import { appendRows, rowHash, rowKeyer, rowsPath, type RowsCacheStats } from '../rows/render-cache.ts';
import { carryFile } from '../ledger/carry-over.ts';
import { changesBetween, CHANGES_FILE, previousPublicFiles, sortedRecord } from '../ledger/changes.ts';
import { DOCUMENTS, manifestSite, pageFile } from '../write/manifest-of.ts';
import { copyMediaFiles, mediaFilesOf } from '../write/media-copies.ts';
import { shaIn } from '../write/write-stage.ts';
import { COMPRESSOR, compressedReuse } from '../ledger/compressed-reuse.ts';
import { stagedIdentities, writeLedger, type Written } from '../ledger/dist-ledger.ts';
import { calendarKey, pageKeys } from '../rows/page-keys.ts';
import { routingFiles } from '../write/routing-files.ts';
import { createStaging, removeStaging, swapInLater } from '../out-folder/swap.ts';
import { writeFiles, writeFilesLater } from '../write/write-files.ts';
import { KEY_BYTES, writeEventState, type StateRows } from './event-state.ts';
import { writeEventParts, type PartJob } from './events-file.ts';
import { NoPatch, refuse } from './no-patch.ts';
import { planPatch, type PatchHost, type PatchOptions, type Plan } from './plan.ts';

export type { PatchHost, PatchOptions } from './plan.ts';

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

/** Patches the previous dist when it can; otherwise changes nothing and says why. */
export async function tryPatch(options: PatchOptions, host: PatchHost): Promise<Patched> {
  let staging: string | null = null;
  const inFlight: Promise<unknown>[] = [];
  try {
    const plan = await planPatch(options, host);
    staging = createStaging(host.out);
    return await applyPatch(options, host, plan, staging, inFlight);
  } catch (e) {
    // links and writes still being made into the staging folder would land in it while it is removed
    await Promise.allSettled(inFlight);
    if (staging !== null) removeStaging(staging);
    if (e instanceof NoPatch) return { ok: false, stats: { taken: false, reason: e.message } };
    if (e instanceof Committed) throw e.cause;
    // anything unexpected before the swap: the full build decides
    return { ok: false, stats: { taken: false, reason: `unexpected: ${(e as Error).message}` } };
  }
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

/** An error after the new dist was swapped in: not a reason to build again. */
class Committed extends Error {}

/** `inFlight`: what this adds that is still being made into `staging` on other threads (awaited before it is removed). */
async function applyPatch(options: PatchOptions, host: PatchHost, plan: Plan, staging: string, inFlight: Promise<unknown>[]): Promise<Patched> {
  const { state, previous, ledger, fresh } = plan;
  const old = state.rows;
  const n = old.id.length;

  // The new events' rows are rendered: each is kept in the rows file under its source's key
  // (render-cache.ts), its file's parse key, which no row of the previous build has (a file read
  // again here has a path or text of its own). The pages' keys are made of the rows' hashes.
  const ctx: RenderContext = { site: state.site, baseUrl: plan.baseUrl, pages: state.pages, media: state.media };
  const keyOf = rowKeyer(ctx);
  const freshKeys = fresh.map((e, j) => {
    const file = plan.freshFiles[j];
    return keyOf(e, plan.eventKeys.subarray(file * KEY_BYTES, (file + 1) * KEY_BYTES));
  });
  const freshRows = renderRows(fresh, ctx);
  const hashes = fresh.map((_, j) => rowHash(freshRows.bytes(j)));
  const rendered = fresh.length;

  // the new list order: the rows that stay, merged with the new events; and each row's file
  const order: number[] = [];
  const fileOf: number[] = [];
  let f = 0;
  const takeFresh = () => {
    order.push(-(f + 1));
    fileOf.push(plan.freshFiles[f++]);
  };
  for (let row = 0; row < n; row++) {
    if (plan.keep[row] === 0) continue;
    // (the list order of the state's row, as renderers sort: render/event.ts)
    const kept = { start: old.start[row], end: old.end[row], id: old.id[row] };
    while (f < fresh.length && compareListOrder(fresh[f], kept) < 0) takeFresh();
    order.push(row);
    fileOf.push(plan.fileMap[old.file[row]]);
  }
  while (f < fresh.length) takeFresh();
  const count = order.length;
  const sequence = Int32Array.from(order);

  // the event data files (store/write/event-data.ts): what stays taken from the previous ones
  const partRows = previous.event_part_rows;
  const oldParts = eventPartFiles(previous);
  const { data, oldSizes, oldBytes } = patchedData(plan, host.out, options.eventPartRows ?? EVENT_PART_ROWS, { rows: freshRows, events: fresh, order: sequence });
  const { bounds, starts: newStarts } = data;
  const partCount = data.parts.length;
  const parts = Array.from({ length: partCount }, (_, j) => eventPartFile(j));
  const keptPart = data.parts.map((segments) => segments === null);
  const total = bounds[partCount];
  mkdirSync(join(staging, dirname(parts[0])), { recursive: true });
  const jobs: PartJob[] = [];
  /** the part each job writes */
  const jobPart: number[] = [];
  parts.forEach((rel, j) => {
    if (keptPart[j]) return;
    jobs.push({ to: join(staging, rel), segments: data.parts[j]! });
    jobPart.push(j);
  });
  // made on a worker thread while this one splices the columns and links the unchanged files
  const eventsFile = jobs.length === 0 ? null : writeEventParts({ paths: oldParts.map((rel) => join(host.out, rel)), sizes: oldSizes }, jobs);
  eventsFile?.catch(() => undefined); // awaited below; not an unhandled rejection meanwhile
  if (eventsFile) inFlight.push(eventsFile); // a refusal before it is awaited must not remove the folder it writes into

  // the files no event shapes, linked from the previous dist: categories, the media index, the
  // autocomplete files (with their twins when the levels they were made at still hold)
  const written: Written = new Map();
  /** every file this patch wrote into the staging folder (the rest are links): what may equal a previous file */
  const wrote = new Set<string>();
  const served = new Map<string, string>();
  let linked = 0;
  /** other files linked from the previous dist (not written) */
  let filesLinked = 0;
  const eventBytes = total;
  const precompress = options.precompress !== false;
  const then = ledger.precompressed;
  if (precompress && (!then || !previous.precompressed || then.compressor !== COMPRESSOR || previous.precompressed.volume !== then.volume)) refuse('no twins to reuse');
  const volume = precompress ? eventBytes + then!.volume - oldBytes : 0;
  const twins = precompress ? volume : null;
  for (const rel of [DATA_FILES.categories, MEDIA_FILES_INDEX, AUTOCOMPLETE_DATA_FILE]) {
    const entry = ledger.entry(rel) ?? refuse(`${rel} is not in the ledger`);
    if (!ledger.reuse(rel, staging, { sha: entry.sha }, null)) refuse(`${rel} is not proven`);
    filesLinked++;
    written.set(rel, { sha: entry.sha });
  }
  if (previous.files[DATA_FILES.categories]?.sha256 !== written.get(DATA_FILES.categories)!.sha) refuse('categories.json is not the manifest\'s');
  const autocomplete = Object.keys(previous.public_files ?? refuse('no public files')).filter((rel) => rel.startsWith(`${AUTOCOMPLETE_DIR}/`));
  for (const rel of autocomplete) {
    const entry = ledger.entry(rel) ?? refuse(`${rel} is not in the ledger`);
    if (entry.sha !== previous.public_files![rel] || !ledger.reuse(rel, staging, { sha: entry.sha }, twins, entry.measure)) refuse(`${rel} is not proven`);
    filesLinked++;
    served.set(rel, entry.sha);
    written.set(rel, { sha: entry.sha, measure: entry.measure });
  }
  const dataFiles: readonly string[] = [...parts.map((_, j) => eventOffsetsFile(j)), DATA_FILES.calendar, DATA_FILES.search, ...COLUMN_FILES];
  const oldOffsets = eventOffsetsFiles(previous);
  for (const rel of Object.keys(previous.files)) {
    if (!dataFiles.includes(rel) && !oldParts.includes(rel) && !oldOffsets.includes(rel) && rel !== DATA_FILES.categories && rel !== AUTOCOMPLETE_DATA_FILE && !served.has(rel)) refuse(`${rel} is not accounted for`);
  }

  // the data files: linked when their bytes did not change, else written
  const digests = new Map<string, FileDigest>();
  parts.forEach((rel, j) => {
    if (!keptPart[j]) return;
    const digest = previous.files[rel];
    if (digest.bytes !== bounds[j + 1] - bounds[j] || !ledger.reuse(rel, staging, { sha: digest.sha256 }, null)) refuse(`${rel} is not proven`);
    filesLinked++;
    digests.set(rel, digest);
  });
  // the list pages whose key is unchanged are linked meanwhile (they need no dataset); the rows'
  // hashes in the new order are the next state's
  const rows = nextRows(plan, sequence, hashes, fileOf);
  const limit = state.site.page_size;
  const pageKeyOf = pageKeys(rows.keys, { baseUrl: plan.baseUrl, site: state.site, limit });
  const unproven: [number, string][] = [];
  for (let offset = 0; offset === 0 || offset < count; offset += limit) {
    const rel = pageFile(offset);
    const inputs = pageKeyOf(offset);
    const proven = ledger.reuseLater(rel, staging, { inputs }, twins);
    if (!proven) {
      unproven.push([offset, inputs]);
      continue;
    }
    served.set(rel, proven.sha);
    written.set(rel, { sha: proven.sha, inputs, measure: proven.measure });
    linked++;
  }
  // proven here, linked on a worker thread meanwhile (a link call per file); awaited
  // before the swap
  const pageLinks = ledger.linkQueued();
  pageLinks.catch(() => undefined); // awaited below; not an unhandled rejection meanwhile
  inFlight.push(pageLinks);

  // the data files: linked where their bytes are the previous ones, the others written on
  // libuv's pool meanwhile, awaited before the swap
  const dataFilesWritten = new Map<string, Uint8Array>();
  for (const [rel, bytes] of data.files) {
    const digest = data.reused.has(rel) ? previous.files[rel] : digestOf(bytes);
    digests.set(rel, digest);
    if (ledger.reuse(rel, staging, { sha: digest.sha256 }, null)) filesLinked++;
    else dataFilesWritten.set(rel, bytes);
  }
  const dataWrites = writeFilesLater(staging, dataFilesWritten, wrote);
  dataWrites.catch(() => undefined); // awaited below; not an unhandled rejection meanwhile
  inFlight.push(dataWrites);

  if (eventsFile) {
    const partsWritten = await eventsFile;
    partsWritten.forEach((file, m) => {
      const j = jobPart[m];
      if (file.bytes !== bounds[j + 1] - bounds[j]) refuse(`${parts[j]} does not add up`);
      digests.set(parts[j], { sha256: file.sha, bytes: file.bytes });
      // the rows' keys changed, yet their bytes may not have: then kept as the previous file
      if (file.sha === previous.files[parts[j]]?.sha256) wrote.add(parts[j]);
    });
  }
  if (bounds[partCount] !== total) refuse('the event parts do not add up');
  for (const rel of [...parts, ...dataFiles]) written.set(rel, { sha: digests.get(rel)!.sha256 });
  const files: Record<string, FileDigest> = { ...previous.files };
  // parts past the new last one are gone
  for (const rel of [...oldParts, ...oldOffsets]) delete files[rel];
  for (const [rel, digest] of digests) files[rel] = digest;
  let newest = 0;
  for (let row = 0; row < n; row++) if (plan.keep[row] === 1) newest = Math.max(newest, old.lastModified[row]);
  for (const e of fresh) newest = Math.max(newest, e.last_modified);
  const manifest: Manifest = {
    format: previous.format,
    version: AULA_VERSION,
    built_at: new Date(newest).toISOString(),
    base_url: plan.baseUrl,
    site: manifestSite(state.site),
    counts: { ...previous.counts, events: count, event_list_pages: Math.max(1, Math.ceil(count / limit)) },
    event_part_rows: partRows,
    event_list: previous.event_list,
    files: Object.fromEntries(Object.entries(files).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))),
  };
  manifest.build_id = buildIdOf(manifest);
  host.phase('patch: data', 'patch: load dataset');

  // The dataset the pages are answered from: the patched data as the server's loader would hold
  // it (read/stored-data.ts), made from the bytes in hand; they are this build's own, so the
  // loader's checks of a dist from elsewhere are not repeated. The columns are read only if an
  // answer reads them (a default list page reads the rows alone).
  let table: EventTable | undefined;
  const full = () => (table ??= readColumns(memorySource(data.files, staging), count));
  const categories = JSON.parse(readFileSync(join(staging, DATA_FILES.categories), 'utf8')) as { id: number }[];
  let searcher: Autocomplete | undefined;
  const dataset: Dataset = {
    manifest: { ...manifest },
    baseUrl: manifest.base_url,
    site: manifest.site,
    events: {
      table: {
        length: count,
        get columns() {
          return full().columns;
        },
        get rowById() {
          return full().rowById;
        },
        get stored() {
          return full().stored;
        },
      },
      rows: new EventRows(new FileRows(parts.map((rel) => join(staging, rel))), newStarts),
      calendar: readCalendarFile(data.files.get(DATA_FILES.calendar)!, count),
    },
    categories: { ids: new Set(categories.map((c) => c.id)), json: new Map(categories.map((c) => [c.id, toJson(c)])) },
    // no list page or document searches the directory: made only if one ever did
    get autocomplete() {
      return (searcher ??= autocompleteOf(readAutocompleteFile(readFileSync(join(staging, AUTOCOMPLETE_DATA_FILE)))));
    },
    // nor the events
    search: new WordIndex(() => decodeSearchIndex(data.files.get(DATA_FILES.search)!)),
  };
  // no work limit: the build answers its documents once (events.ics holds every event up to its cap)
  const api = createApi(dataset, { cacheLimits: { entries: 0, bytes: 0 }, workLimit: Infinity });
  host.phase('patch: load dataset', 'patch: answer pages');

  // from here on as a full build (build.ts): each file answered is written, and compressed unless
  // its bytes and levels are the previous dist's
  let poolDone = false;
  const pool = precompress ? compressionPool(volume, undefined, undefined, { dir: staging, wrote: (rel) => wrote.add(rel) }) : null;
  try {
    if (pool) manifest.precompressed = { compressor: COMPRESSOR, volume };
    const reuse = pool ? compressedReuse(host.out, previous, staging, volume) : null;
    const emit = (rel: string, content: string | Uint8Array, inputs?: string) => {
      const sha = shaIn(manifest, rel, content);
      const measure = typeof content === 'string' ? content.length : content.byteLength;
      served.set(rel, sha);
      written.set(rel, { sha, inputs, measure });
      if (ledger.reuse(rel, staging, { sha }, twins, measure)) {
        filesLinked++;
        return;
      }
      writeFiles(staging, new Map([[rel, content]]), wrote);
      if (!reuse?.(rel, content)) pool?.add(rel, content);
    };
    let answered = 0;
    for (const [offset, inputs] of unproven) {
      const query = offset === 0 ? '' : `limit=${limit}&offset=${offset}`;
      const response = api({ method: 'GET', path: EVENT_LIST_PATH, query, headers: {} });
      if (response.status !== 200) throw new Error(`page at offset ${offset} answered ${response.status}: ${bodyText(response.body)}`);
      emit(pageFile(offset), bodyBuffer(response.body), inputs);
      answered++;
    }
    // the calendar feed holds the first rows: unchanged when they and its stamp are (calendarKey)
    const calendar = calendarKey(rows.keys, count, CALENDAR_CAP, { baseUrl: plan.baseUrl, site: state.site }, manifest.built_at);
    let documents = 0;
    for (const [rel, path, query] of DOCUMENTS) {
      const entry = query === 'format=ics' && calendar === state.calendarKey ? ledger.entry(rel) : undefined;
      if (entry && ledger.reuse(rel, staging, { sha: entry.sha }, twins, entry.measure)) {
        filesLinked++;
        served.set(rel, entry.sha);
        written.set(rel, { sha: entry.sha, measure: entry.measure });
        continue;
      }
      documents++;
      const response = api({ method: 'GET', path, query, headers: {} });
      if (response.status !== 200) throw new Error(`${path}?${query} answered ${response.status}: ${bodyText(response.body)}`);
      emit(rel, typeof response.body === 'string' ? response.body : bodyBuffer(response.body));
    }
    for (const [name, schema] of Object.entries(contentSchemas())) emit(`schemas/${name}`, `${JSON.stringify(schema, null, 2)}\n`);
    dataset.events.rows.close();
    host.phase('patch: answer pages', 'patch: compress');
    if (pool) writeFiles(staging, await pool.finish(), wrote);
    poolDone = true;
    host.phase('patch: compress', 'patch: manifest');

    // media copies, routing rules, manifest and changes: as a full build makes them
    const publicFiles = [...served.keys()].filter(isPublicFile).sort();
    const mediaFiles = mediaFilesOf(state.media);
    if (`${JSON.stringify(mediaFiles)}\n` !== readFileSync(join(staging, MEDIA_FILES_INDEX), 'utf8')) refuse('the media index differs');
    copyMediaFiles(mediaFiles, state.media, staging, served, wrote);
    writeFiles(staging, routingFiles(manifest, options.upstream ?? DEFAULT_UPSTREAM, { files: publicFiles, media: mediaFiles }), wrote);
    manifest.public_files = sortedRecord(served);
    const changes = changesBetween(previousPublicFiles(previous), manifest.public_files);
    const manifestJson = `${JSON.stringify(manifest, null, 2)}\n`;
    writeFiles(staging, new Map([
      ['manifest.json', manifestJson],
      [CHANGES_FILE, `${JSON.stringify(changes, null, 2)}\n`],
    ]), wrote);
    // The next patch's state, written while the page links are still being made. It is bound to
    // this manifest: should this build stop before its swap, it describes no dist and is not used.
    writeEventState(plan.statePath, {
      ...state,
      safe: plan.safe,
      manifestSha: createHash('sha256').update(manifestJson).digest('hex'),
      others: plan.others,
      eventFiles: plan.eventFiles,
      eventStats: plan.eventStats,
      eventKeys: plan.eventKeys,
      calendarKey: calendar,
      rows,
    });
    // a page whose link failed would be missing: no patch then
    await pageLinks.catch((e: Error) => refuse(`a list page could not be linked: ${e.message}`));
    await dataWrites;
    host.phase('patch: manifest', 'patch: swap');
    try {
      // from here on a failure is the build's own, as in a full build (not a reason to build again)
      // what was linked is the previous file already: only what was written may equal one
      for (const rel of wrote) carryFile(join(host.out, rel), join(staging, rel));
      // as written, before anybody else can reach them: what changes after the swap is not proven
      const staged = stagedIdentities(staging, written, ledger.linked);
      // the former dist is removed on a worker thread while this one writes the rows; the ledger
      // waits for it (an unlink changes the ctime of the files both dists share)
      const removal = swapInLater(staging, host.out, options.onWarning);
      removal.catch(() => undefined); // awaited below; not an unhandled rejection meanwhile
      // the rows made here, for the next full build's render cache
      appendRows(rowsPath(host.cacheDir, options.content), hashes.map((hash, j) => ({ key: freshKeys[j], hash, json: freshRows.bytes(j), starts: freshRows.starts.subarray(j * STRIDE, (j + 1) * STRIDE) })));
      // A failed removal fails the build as before, the new dist in place: without a ledger of it
      // the state written before the swap proves nothing (no file of the new dist has an identity
      // the old ledger recorded), so the next build is a full one.
      await removal;
      writeLedger(plan.ledgerFile, host.out, written, manifest.precompressed, staged);
    } catch (e) {
      throw new Committed('while swapping', { cause: e });
    }
    host.phase('patch: swap');
    const all = new Set([...served.keys(), ...written.keys(), 'manifest.json']);
    return {
      ok: true,
      manifest,
      files: all.size,
      stats: { taken: true, parsed: plan.parsed, removed: plan.removed, rendered, events: count, answered, linked, documents },
      // as a full build counts them (build.ts): files taken without a parse, rows not rendered, files linked
      cache: { hits: plan.contentFiles - plan.parsed, misses: plan.parsed, corrupt: 0, foreign: false },
      reuse: { rows: { reused: count - rendered, rendered, corrupt: 0 }, pages: linked, files: filesLinked },
    };
  } catch (e) {
    if (!poolDone) await pool?.finish().catch(() => undefined);
    throw e;
  }
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
