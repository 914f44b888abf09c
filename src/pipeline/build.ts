// `aula build`: content/ → validated model → data files → static pages, written to a staging
// folder and swapped in only when complete.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { bodyBuffer, bodyText } from '../api/body.ts';
import { createApi } from '../api/core.ts';
import { EVENT_LIST_PATH } from '../api/events/list.ts';
import { SCHEMA_PATH } from '../api/router.ts';
import { contentSchemas } from '../docs/content-schemas.ts';
import { loadContent, type Problem } from '../content/index.ts';
import type { LoadOptions } from '../content/load.ts';
import { compressionPool, type CompressionPool } from '../deploy/precompress.ts';
import { isPublicFile, MEDIA_FILES_INDEX, mediaFileName, type MediaFile } from '../store/format/public-files.ts';
import { renderDataFiles, rowsRenderer, type DistFiles } from '../store/write/data-files.ts';
import { AUTOCOMPLETE_DIR, DATA_FILES, EVENT_PART_ROWS } from '../store/format/dist-paths.ts';
import { routingFiles } from './write/routing-files.ts';
import { removeStaleTemps } from './cache/stale-temps.ts';
import { writeFiles, writeFilesLater } from './write/write-files.ts';
import { datasetFrom } from '../query/dataset.ts';
import { buildSource } from './write/build-source.ts';
import { collectGarbage } from './render/collect-garbage.ts';
import { buildIdOf, digestOf, digestsOf, type FileDigest, type Manifest } from '../store/format/manifest.ts';
import { FIRST_PAGE, FURTHER_PAGES, manifestOf } from './write/manifest-of.ts';
import { AUTOCOMPLETE_INDEX_FILE, AUTOCOMPLETE_MODULE_FILE } from '../store/format/dist-paths.ts';
import { copyTwins, hashedAutocompleteFiles } from '../store/write/hashed-files.ts';
import { DEFAULT_UPSTREAM } from '../defaults.ts';
import { lockOut } from './out-folder/lock.ts';
import { checkCacheFolder, checkOutFolder } from './out-folder/out-folder.ts';
import { createStaging, recoverDist, removeStaging, removeStaleStaging, swapIn } from './out-folder/swap.ts';
import { carryOver } from './out-folder/carry-over.ts';
import { BuildCache, packPath, type CacheStats } from './cache/build-cache.ts';
import { outputsPath } from './directory/directory-outputs.ts';
import { startDirectoryJob, type DirectoryJob } from './directory/directory-job.ts';
import { ParsePool } from './load/parse-pool.ts';
import { changesBetween, CHANGES_FILE, previousManifest, previousPublicFiles, sortedRecord } from './publish/changes.ts';
import { COMPRESSOR, compressedReuse } from './publish/compressed-reuse.ts';
import { cachedRows, eventKeys, rowsPath, type RowsCacheStats } from './render/render-cache.ts';
import { DistLedger, ledgerPath, stagedIdentities, writeLedger, type Written } from './publish/dist-ledger.ts';
import { pageKeys } from './render/page-keys.ts';
import type { RowMaker } from '../store/write/data-files.ts';
import type { EventRows } from '../store/format/event-rows.ts';
import { tryPatch, type PatchStats } from './patch/patch-build.ts';
import { patchOptions, StateRecorder } from './patch/state-recorder.ts';
import { eventStatePath } from './patch/event-state.ts';
import type { DirectoryObject } from '../model/types.ts';
import { isPooled, releaseBuffer } from '../store/read/page-buffers.ts';
import { makeFolders } from '../util/make-folders.ts';

export interface BuildOptions {
  content: string;
  out: string;
  /** overrides site.yaml's base_url */
  baseUrl?: string;
  /** the bundled server as static-host rules should reach it (default http://127.0.0.1:8000) */
  upstream?: string;
  /** write .gz/.br beside the public files (default true; `aula dev` skips it) */
  precompress?: boolean;
  /** called as each phase starts (done/total within a phase that counts its steps) */
  progress?: (phase: string, done?: number, total?: number) => void;
  /** write autocomplete/minisearch.json and minisearch-options.js (default true) */
  minisearch?: boolean;
  /** told when another build holds the lock on `out` and this one waits */
  onWait?: (message: string) => void;
  /** told, one line each, what the user should know of a build that succeeded (a file of theirs in --out that could not be kept in place) */
  onWarning?: (message: string) => void;
  /** told the names in the content folder that look meant as content but are not read (a typo), each with what it resembles */
  onNotRead?: (entries: readonly { path: string; like: string }[]) => void;
  /** how long to wait for another build into `out` (default 10 minutes) */
  lockWaitMs?: number;
  /** also write dist/edge/: the API bundled as a Workers/workerd module, with example configs */
  edge?: boolean;
  /** build cache folder (the CLI's default is node_modules/.cache/aula); none when absent */
  cache?: string;
  /** rows per part of the event rows (default EVENT_PART_ROWS, dist-paths.ts; tests make it small) */
  eventPartRows?: number;
  /** threads the content files are parsed on (default: one per core, at most 4; 0: none) */
  parseThreads?: number;
  /**
   * how much older than the last build a content file's times must be for its stat to be trusted
   * (default MARGIN_NS, stat-index.ts: the content may sit on another file system than the cache,
   * with a clock of its own); 0 where both share one, as in the tests
   */
  statMarginNs?: bigint;
}

export type BuildResult =
  | { ok: true; manifest: Manifest; files: number; ms: number; phases: Record<string, number>; cpu: Record<string, number>; cache?: CacheStats; reuse?: ReuseStats; patch?: PatchStats }
  | { ok: false; problems: Problem[]; cache?: CacheStats };

/** What an incremental build took over instead of making it again. */
export interface ReuseStats {
  rows: RowsCacheStats;
  /** event-list pages linked from the previous dist (not answered) */
  pages: number;
  /** other files (data, documents, autocomplete) linked from the previous dist (not written) */
  files: number;
}

/** Bytes of pages handed to the compression workers and not compressed yet, at most. */
const COMPRESS_AHEAD = 16 << 20;

/** Documents written from the API core's answers: [file, path, query]. */
const DOCUMENTS: readonly [string, string, string][] = [
  ['openapi.json', SCHEMA_PATH, ''],
  ['events.ics', EVENT_LIST_PATH, 'format=ics'],
];

export function pageFile(offset: number): string {
  return offset === 0 ? FIRST_PAGE : FURTHER_PAGES.replace('{offset}', String(offset));
}

export function normalizeBaseUrl(url: string): string {
  const parsed = new URL(url);
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new Error(`base URL must be http or https: ${url}`);
  return url.replace(/\/+$/, '');
}

function sizeOf(files: DistFiles, dir: string): number {
  let size = 0;
  for (const [rel, c] of files) if (rel.startsWith(`${dir}/`)) size += typeof c === 'string' ? c.length : c.byteLength;
  return size;
}

/** The digests of `files` and of those hashed already (`known`), in key order as digestsOf gives them. */
function digestsWith(files: DistFiles, known: ReadonlyMap<string, FileDigest>): Record<string, FileDigest> {
  const all = { ...digestsOf([...files].filter(([rel]) => !known.has(rel))), ...Object.fromEntries(known) };
  return Object.fromEntries(Object.entries(all).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

export async function build(options: BuildOptions): Promise<BuildResult> {
  const started = performance.now();
  const phases: Record<string, number> = {};
  // CPU time of the whole process (its threads too) per phase: what the phase costs, where the
  // wall time says how long it took (on two cores the two differ by up to twice)
  const cpu: Record<string, number> = {};
  let mark = started;
  let cpuMark = process.cpuUsage();
  const phase = (name: string, next?: string) => {
    const now = performance.now();
    const used = process.cpuUsage(cpuMark);
    phases[name] = Math.round(now - mark);
    cpu[name] = Math.round((used.user + used.system) / 1000);
    mark = now;
    cpuMark = process.cpuUsage();
    if (next) options.progress?.(next);
  };
  options.progress?.('load content');
  const out = resolve(options.out);
  // Refused before anything is created: --out is replaced wholesale, so it must be ours to replace.
  checkOutFolder(out, options.content);
  if (options.cache !== undefined) checkCacheFolder(options.cache, options.content, out);
  makeFolders(dirname(out));
  const unlock = await lockOut(out, { onWait: options.onWait, waitMs: options.lockWaitMs });
  try {
    // Checked again under the lock: while this build waited, another may have changed --out.
    checkOutFolder(out, options.content);
    recoverDist(out, options.onWarning);
    removeStaleStaging(out);
    return await buildLocked(options, out, started, { phases, cpu }, phase);
  } finally {
    unlock();
  }
}

async function buildLocked(
  options: BuildOptions,
  out: string,
  started: number,
  timings: { phases: Record<string, number>; cpu: Record<string, number> },
  phase: (name: string, next?: string) => void,
): Promise<BuildResult> {
  // only event files changed since the last build into `out`: its dist is patched (patch/patch-build.ts)
  let patch: PatchStats | undefined;
  if (options.cache !== undefined) {
    // what builds stopped mid-way left in the cache folder (stale-temps.ts)
    removeStaleTemps(resolve(options.cache));
    const patched = await tryPatch(options, { out, cacheDir: options.cache, pageFile, documents: DOCUMENTS, normalizeBaseUrl, phase });
    if (patched.ok) return { ok: true, manifest: patched.manifest, files: patched.files, ms: performance.now() - started, ...timings, cache: patched.cache, reuse: patched.reuse, patch: patched.stats };
    patch = patched.stats;
  }
  const cache = options.cache === undefined ? undefined : new BuildCache(packPath(options.cache, options.content), resolve(options.content), { racyMarginNs: options.statMarginNs });
  // what the next build needs to patch this one's dist (patch/event-state.ts)
  const recorder = new StateRecorder();
  const minisearch = options.minisearch !== false;
  const kept = (index: string) => (options.cache === undefined ? null : outputsPath(options.cache, options.content, index));
  // The directory indexes are made on a worker thread from as soon as the directory is read:
  // while this thread reads the events and renders them. They are kept under the directory
  // files' key (directory-outputs.ts), complete once the directory is read.
  let directory: DirectoryJob | undefined;
  /** the objects handed over early: the job has them (the loaded model's directory is left empty) */
  let handedOver = 0;
  const onDirectory = (objects: readonly DirectoryObject[]) => {
    const key = cache ? cache.inputsKey('directory') : null;
    directory = startDirectoryJob(objects, { minisearch, compress: options.precompress !== false, kept, key });
    handedOver = objects.length;
    return true;
  };
  let loaded: Awaited<ReturnType<typeof loadContent>>;
  const parseCache = cache && recorder.wrap(cache);
  // the directory's and the events' files are parsed on threads of their own (parse-pool.ts)
  const parsing = new ParsePool(resolve(options.content), parseCache, {
    threads: options.parseThreads,
    rowsPath: options.cache === undefined ? undefined : rowsPath(options.cache, options.content),
  });
  // what a build that stops (failed, or with problems) lets go of: the directory's worker and the
  // rows the parse threads left in their file
  const abandon = () => {
    directory?.cancel();
    parsing.dropRows();
  };
  try {
    // the threads render the events' rows as they parse them, against the context as read (it is
    // checked against the build's own before they are used: rowsFor)
    const onContext: LoadOptions['onContext'] = ({ site, pages, media }) => {
      let baseUrl: string;
      try {
        baseUrl = normalizeBaseUrl(options.baseUrl ?? site.base_url);
      } catch {
        return; // reported after the load
      }
      parsing.render({ site, baseUrl, pages: new Map(pages.map((r) => [r.value.uid, r.value])), media: new Map(media.map((r) => [r.value.media.id, r.value.media])) });
    };
    loaded = await loadContent(resolve(options.content), { cache: parseCache, onDirectory, onContext, parseMany: parsing.parseMany });
  } catch (e) {
    abandon();
    cache?.release(); // removes its spill file
    throw e;
  } finally {
    parsing.close();
  }
  const { model, problems } = loaded;
  if (loaded.notRead && loaded.notRead.length > 0) options.onNotRead?.(loaded.notRead);
  cache?.save();
  const statRecords = cache?.statRecords() ?? null;
  cache?.release();
  phase('load content', 'render data');
  // the directory's large files are compressed on its thread while this one renders the data
  directory?.compressNow();
  if (!model) {
    abandon();
    return { ok: false, problems, cache: cache?.stats };
  }
  let baseUrl: string;
  try {
    baseUrl = normalizeBaseUrl(options.baseUrl ?? model.site.base_url);
  } catch (e) {
    abandon();
    throw e;
  }
  // the job has the objects (a worker its own copy): only their count is needed here
  const directoryCount = directory ? handedOver : model.directory.length;

  const previous = previousManifest(out);
  // A turn of the event loop between phases: a signal (Ctrl-C) is seen only there (stop-signals.ts),
  // and from here on a small site's build ran to its end without one.
  const nextPhase = async (name: string, next: string) => {
    phase(name, next);
    await new Promise((turn) => setImmediate(turn));
  };
  let staging: string;
  try {
    staging = createStaging(out);
  } catch (e) {
    abandon();
    throw e;
  }
  let pool: CompressionPool | null = null;
  // the event parts being written on libuv's pool (takeParts)
  let partsWritten: Promise<void> = Promise.resolve();
  try {
    // with a cache, each event's row is kept under the key of its inputs (render-cache.ts)
    const reused: ReuseStats = { rows: { reused: 0, rendered: 0, corrupt: 0 }, pages: 0, files: 0 };
    /** the rows' hashes in list order (render-cache.ts rowHash), of which the pages' keys are made */
    let hashes: Buffer | null = null;
    const cacheDir = options.cache;
    // The rows as made (where the threads left them, or strings) are dead once they are in list
    // order: let go and collected before the rest of the data files is made. (`premade` is
    // cleared, not left to go out of scope: the collection runs while this function's frame
    // still holds it.)
    const rowsOf: RowMaker = (events, ctx) => {
      // the rows the parse threads made, when they were made against this very context (their
      // events' bodies are in the rows alone: parse-pool.ts let go of them as the parses came)
      let premade = parsing.rowsFor(ctx);
      let rows: EventRows;
      if (cacheDir === undefined) rows = rowsRenderer(premade)(events, ctx);
      else {
        // (the threads' file of rows: kept as the rows file when it is written whole)
        const made = premade ? parsing.rowsMade() : null;
        const cached = cachedRows(rowsPath(cacheDir, options.content), events, eventKeys(events, ctx, recorder.sourceKeyOf, premade), ctx, reused.rows, premade, made);
        rows = cached.rows;
        hashes = cached.hashes;
        recorder.listOrder(events, hashes);
      }
      premade = undefined;
      // (the rows are in list order now: the threads' file is closed, and removed unless kept)
      parsing.dropRows();
      collectGarbage();
      return rows;
    };
    // (a model whose directory was not handed over early: an empty one, loaded without a call)
    directory ??= startDirectoryJob(model.directory, { minisearch, compress: options.precompress !== false, kept, key: cache ? cache.inputsKey('directory') : null });
    // The directory's files are awaited once the events and their data files have left the heap
    // (below): a directory still being indexed then no longer adds to a heap holding them all.
    const partRows = options.eventPartRows ?? EVENT_PART_ROWS;
    // The previous build's record of its dist (dist-ledger.ts): a file proven to be what this
    // build would write is linked from it, not written, hashed or compressed again.
    const ledgerFile = cacheDir === undefined ? null : ledgerPath(cacheDir, options.content, out);
    const ledger = ledgerFile === null ? null : DistLedger.read(ledgerFile, out);
    const written: Written = new Map();
    // The data files are written as they are made, before the directory is indexed, and the
    // large ones leave the heap: the dataset reads them back from the staging folder (the event
    // parts by offset). An event part whose rows did not change is linked like any other
    // unchanged file.
    const digests = new Map<string, FileDigest>();
    /** `later`: written on libuv's pool, collected there until `partsWritten` settles */
    const writeData = (rel: string, content: string | Uint8Array, later?: Map<string, string | Uint8Array>) => {
      const digest = digestOf(content);
      digests.set(rel, digest);
      if (ledger?.reuse(rel, staging, { sha: digest.sha256 }, null)) reused.files++;
      else if (later) later.set(rel, content);
      else writeFiles(staging, new Map([[rel, content]]));
      written.set(rel, { sha: digest.sha256 });
    };
    // The event parts, as soon as the rows are made: written on libuv's pool while this thread
    // makes the columns, on the core the "render data" phase left idle (written here, ~290 MB at
    // 100k events took ~0.5 s of it). Awaited before anything reads them back (load dataset),
    // and before the staging folder is removed on a failure.
    let eventBytes = 0;
    const takeParts = (parts: [string, Uint8Array][]) => {
      const later = new Map<string, string | Uint8Array>();
      for (const [rel, part] of parts) {
        writeData(rel, part, later);
        eventBytes += part.byteLength;
      }
      partsWritten = writeFilesLater(staging, later);
      partsWritten.catch(() => undefined); // awaited below; not an unhandled rejection meanwhile
    };
    const files = await renderDataFiles(model, baseUrl, async () => ({}), rowsOf, partRows, { take: takeParts, taken: () => collectGarbage() });
    // what the manifest needs of the events, before they are dropped
    const eventCount = model.events.length;
    const newest = model.events.reduce((latest, e) => Math.max(latest, e.last_modified), 0);
    // the events are in the data files now: their records (most of the model) need not outlive this
    model.events.length = 0;
    for (const rel of Object.values(DATA_FILES)) writeData(rel, files.get(rel)!);
    for (const rel of [DATA_FILES.columns, DATA_FILES.text]) files.delete(rel);
    collectGarbage();
    // where renderDataFiles puts them: after the data files (written and dropped already)
    for (const [rel, text] of Object.entries(await directory.autocomplete)) files.set(`${AUTOCOMPLETE_DIR}/${rel}`, text);
    // content-hashed twins of the browser module and its index, cacheable as immutable
    const ac = (name: string) => files.get(`${AUTOCOMPLETE_DIR}/${name}`) as string;
    const hashed = hashedAutocompleteFiles(ac(AUTOCOMPLETE_INDEX_FILE), ac(AUTOCOMPLETE_MODULE_FILE));
    for (const [name, text] of hashed.files) files.set(`${AUTOCOMPLETE_DIR}/${name}`, text);
    await nextPhase('render data', minisearch ? 'minisearch' : 'write data');
    if (minisearch) {
      for (const [rel, text] of Object.entries(await directory.minisearch)) files.set(`${AUTOCOMPLETE_DIR}/${rel}`, text);
      await nextPhase('minisearch', 'write data');
    }
    const limit = model.site.page_size;
    const manifest = manifestOf(model.site, baseUrl, newest, {
      events: eventCount,
      pages: model.pages.size,
      categories: model.categories.length,
      media: model.media.size,
      directory: directoryCount,
    }, partRows);
    // the data files only: those are what the server loads and verifies
    manifest.files = digestsWith(files, digests);
    manifest.build_id = buildIdOf(manifest);
    // media records backed by a file in content/ are answered from a copy at the URL the API gives
    const mediaFiles: MediaFile[] = [];
    for (const m of [...model.media.values()].sort((a, b) => a.id - b.id)) {
      if (m.source) mediaFiles.push({ id: m.id, file: mediaFileName(m.id, m.sourceName ?? basename(m.source)), mimetype: m.mimetype });
    }
    files.set(MEDIA_FILES_INDEX, `${JSON.stringify(mediaFiles)}\n`);
    files.set('manifest.json', `${JSON.stringify(manifest, null, 2)}\n`);
    const shaOf = (rel: string, content: string | Uint8Array) => manifest.files[rel]?.sha256 ?? digestOf(content).sha256;
    for (const [rel, content] of files) {
      // the autocomplete files are written with their twins below
      if (rel.startsWith(`${AUTOCOMPLETE_DIR}/`) || written.has(rel)) continue;
      if (rel === 'manifest.json') {
        writeFiles(staging, new Map([[rel, content]]));
        continue;
      }
      const sha = shaOf(rel, content);
      if (ledger?.reuse(rel, staging, { sha }, null)) reused.files++;
      else writeFiles(staging, new Map([[rel, content]]));
      written.set(rel, { sha });
    }
    await partsWritten;
    await nextPhase('write data', 'load dataset');

    // The pages come from the API core over the data just written, read by the server's own
    // loader (the large data files back from the staging folder), exactly as the server will answer.
    const dataset = datasetFrom(buildSource(files, staging));
    // no work limit: the build answers its documents once (events.ics holds every event up to its cap)
  const api = createApi(dataset, { cacheLimits: { entries: 0, bytes: 0 }, workLimit: Infinity });
    await nextPhase('load dataset', 'answer pages');
    // Every event appears on exactly one page, so the serialized events measure the pages'
    // volume before they exist; workers compress each page while the next ones are answered.
    const volume = eventBytes + sizeOf(files, AUTOCOMPLETE_DIR);
    // each .gz/.br is written by the worker that made it (or here, made by the directory's), not held until the end
    pool =
      options.precompress !== false
        ? compressionPool(volume, undefined, await directory.compressed, { dir: staging })
        : null;
    if (pool) manifest.precompressed = { compressor: COMPRESSOR, volume };
    const reuse = pool ? compressedReuse(out, previous, staging, volume) : null;
    const twins = pool ? volume : null;
    // Every served file this build makes, by its SHA-256 (public_files). Each is written as it is
    // made, and its bytes are then left to the compression pool: no page is held past that.
    const served = new Map<string, string>();
    const emit = (rel: string, content: string | Uint8Array, inputs?: string, compress = true) => {
      const sha = shaOf(rel, content);
      const measure = typeof content === 'string' ? content.length : content.byteLength;
      served.set(rel, sha);
      written.set(rel, { sha, inputs, measure });
      // A page's body is on a block of the answers' page pool: given back once written and copied
      // to a compression worker, the next page reuses it. Left to the GC, the 5,000 pages' blocks
      // at 100k events stood at ~300 MB of garbage through this phase.
      const release = typeof content !== 'string' && isPooled(content) ? () => releaseBuffer(content) : undefined;
      if (ledger?.reuse(rel, staging, { sha }, compress ? twins : null, measure)) {
        reused.files++;
        release?.();
        return;
      }
      writeFiles(staging, new Map([[rel, content]]));
      if (compress && pool && !reuse?.(rel, content)) pool.add(rel, content, release);
      else release?.();
    };
    // a page's key: its rows' hashes, the count and what its envelope is made of (page-keys.ts)
    const pageKeyOf = hashes === null ? null : pageKeys(hashes, { baseUrl, site: model.site, limit });
    for (let offset = 0; offset === 0 || offset < eventCount; offset += limit) {
      const rel = pageFile(offset);
      const inputs = pageKeyOf?.(offset);
      const proven = inputs === undefined ? null : ledger?.reuse(rel, staging, { inputs }, twins);
      if (proven && inputs !== undefined) {
        served.set(rel, proven.sha);
        written.set(rel, { sha: proven.sha, inputs, measure: proven.measure });
        reused.pages++;
        options.progress?.('answer pages', offset / limit + 1, manifest.counts.event_list_pages);
        continue;
      }
      const query = offset === 0 ? '' : `limit=${limit}&offset=${offset}`;
      const response = api({ method: 'GET', path: EVENT_LIST_PATH, query, headers: {} });
      if (response.status !== 200) throw new Error(`page at offset ${offset} answered ${response.status}: ${bodyText(response.body)}`);
      emit(rel, bodyBuffer(response.body), inputs);
      options.progress?.('answer pages', offset / limit + 1, manifest.counts.event_list_pages);
      // pages are answered faster than two threads compress them: without a bound each waited
      // as a copy in a worker's queue (at 100k events the peak RSS rose by ~0.5 GB while answering)
      await pool?.settled(COMPRESS_AHEAD);
    }
    for (const [rel, path, query] of DOCUMENTS) {
      const response = api({ method: 'GET', path, query, headers: {} });
      if (response.status !== 200) throw new Error(`${path}?${query} answered ${response.status}: ${bodyText(response.body)}`);
      emit(rel, typeof response.body === 'string' ? response.body : bodyBuffer(response.body));
    }
    for (const [name, schema] of Object.entries(contentSchemas())) emit(`schemas/${name}`, `${JSON.stringify(schema, null, 2)}\n`);
    for (const [rel, text] of files) {
      if (!rel.startsWith(`${AUTOCOMPLETE_DIR}/`)) continue;
      // a hashed copy of a file is compressed once: its twins are copied after the pool
      emit(rel, text, undefined, !hashed.copies.has(rel.slice(AUTOCOMPLETE_DIR.length + 1)));
    }
    dataset.events.rows.close();
    await nextPhase('answer pages', 'compress');
    if (pool) {
      writeFiles(staging, await pool.finish());
      copyTwins(staging, hashed.copies, AUTOCOMPLETE_DIR);
    }
    await nextPhase('compress', 'copy media');
    // the routing rules list the files made above; the media copies have rules of their own
    const publicFiles = [...served.keys()].filter(isPublicFile).sort();
    for (const m of mediaFiles) {
      // read once: the copy and its hash in public_files are the same bytes
      const bytes = readFileSync(model.media.get(m.id)!.source!);
      mkdirSync(dirname(join(staging, m.file)), { recursive: true });
      writeFileSync(join(staging, m.file), bytes);
      served.set(m.file, digestOf(bytes).sha256);
    }
    await nextPhase('copy media', 'manifest');
    writeFiles(staging, routingFiles(manifest, options.upstream ?? DEFAULT_UPSTREAM, { files: publicFiles, media: mediaFiles }));
    if (options.edge) writeFiles(staging, await (await import('./write/edge-bundle.ts')).edgeFiles());
    manifest.public_files = sortedRecord(served);
    const changes = changesBetween(previousPublicFiles(previous), manifest.public_files);
    writeFiles(staging, new Map([
      ['manifest.json', `${JSON.stringify(manifest, null, 2)}\n`],
      [CHANGES_FILE, `${JSON.stringify(changes, null, 2)}\n`],
    ]));
    await nextPhase('manifest', 'carry over');
    carryOver(out, staging);
    await nextPhase('carry over', 'swap');
    // as written, before anybody else can reach them: what changes after the swap is not proven
    const staged = ledgerFile === null ? null : stagedIdentities(staging, written, ledger?.linked);
    swapIn(staging, out, options.onWarning);
    // recorded once every file is in place: the identities a later build proves files by
    if (ledgerFile !== null) writeLedger(ledgerFile, out, written, manifest.precompressed, staged!);
    if (ledgerFile !== null) recorder.write(eventStatePath(ledgerFile), { content: resolve(options.content), out, options: patchOptions(options), zone: model.site.timezone, model, stats: statRecords });
    phase('swap');
    // the large data files left `files` once written; `written` still names them
    const count = new Set([...files.keys(), ...served.keys(), ...written.keys()]).size;
    return { ok: true, manifest, files: count, ms: performance.now() - started, ...timings, cache: cache?.stats, reuse: reused, patch };
  } catch (e) {
    abandon();
    // its workers and libuv's pool write into the staging folder: done before it is removed
    await pool?.finish().catch(() => undefined);
    await partsWritten.catch(() => undefined);
    removeStaging(staging);
    throw e;
  }
}
