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
import { compressionPool } from '../deploy/precompress.ts';
import { isPublicFile, MEDIA_FILES_INDEX, mediaFileName, type MediaFile } from '../store/format/public-files.ts';
import { renderDataFiles, type DistFiles } from '../store/write/data-files.ts';
import { AUTOCOMPLETE_DIR, DATA_FILES } from '../store/format/dist-paths.ts';
import { routingFiles } from './routing-files.ts';
import { datasetFrom } from '../query/dataset.ts';
import { memorySource } from '../store/read/dist-source.ts';
import { buildIdOf, DIST_FORMAT, digestOf, digestsOf, type Manifest } from '../store/format/manifest.ts';
import { AULA_VERSION } from '../version.ts';
import { AUTOCOMPLETE_INDEX_FILE, AUTOCOMPLETE_MODULE_FILE } from '../store/format/dist-paths.ts';
import { copyTwins, hashedAutocompleteFiles } from '../store/write/hashed-files.ts';
import { DEFAULT_UPSTREAM } from '../defaults.ts';
import { lockOut } from './lock.ts';
import { checkOutFolder } from './out-folder.ts';
import { createStaging, recoverDist, removeStaging, removeStaleStaging, swapIn } from './swap.ts';
import { carryOver } from './carry-over.ts';
import { BuildCache, packPath, type CacheStats } from './build-cache.ts';
import { outputsPath } from './directory-outputs.ts';
import { startDirectoryJob, type DirectoryJob } from './directory-job.ts';
import { changesBetween, CHANGES_FILE, previousManifest, previousPublicFiles, sortedRecord } from './changes.ts';
import { COMPRESSOR, compressedReuse } from './compressed-reuse.ts';

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
  /** how long to wait for another build into `out` (default 10 minutes) */
  lockWaitMs?: number;
  /** also write dist/edge/: the API bundled as a Workers/workerd module, with example configs */
  edge?: boolean;
  /** build cache folder (the CLI's default is node_modules/.cache/aula); none when absent */
  cache?: string;
}

export { DEFAULT_UPSTREAM };

export type BuildResult =
  | { ok: true; manifest: Manifest; files: number; ms: number; phases: Record<string, number>; cache?: CacheStats }
  | { ok: false; problems: Problem[]; cache?: CacheStats };

export const FIRST_PAGE = 'v1/cms/event/index.json';
export const FURTHER_PAGES = 'v1/cms/event/offset/{offset}.json';

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

function writeAll(dir: string, files: DistFiles): void {
  for (const [rel, content] of files) {
    const path = join(dir, rel);
    try {
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, content);
    } catch (e) {
      // node names no path when the write itself fails (ENOSPC, EIO); the user needs to know where.
      const errno = e as NodeJS.ErrnoException;
      if (typeof errno.code === 'string' && errno.path === undefined) errno.path = path;
      throw e;
    }
  }
}

export async function build(options: BuildOptions): Promise<BuildResult> {
  const started = performance.now();
  const phases: Record<string, number> = {};
  let mark = started;
  const phase = (name: string, next?: string) => {
    const now = performance.now();
    phases[name] = Math.round(now - mark);
    mark = now;
    if (next) options.progress?.(next);
  };
  options.progress?.('load content');
  const out = resolve(options.out);
  // Refused before anything is created: --out is replaced wholesale, so it must be ours to replace.
  checkOutFolder(out, options.content);
  mkdirSync(dirname(out), { recursive: true });
  const unlock = await lockOut(out, { onWait: options.onWait, waitMs: options.lockWaitMs });
  try {
    // Checked again under the lock: while this build waited, another may have changed --out.
    checkOutFolder(out, options.content);
    recoverDist(out);
    removeStaleStaging(out);
    return await buildLocked(options, out, started, phases, phase);
  } finally {
    unlock();
  }
}

async function buildLocked(
  options: BuildOptions,
  out: string,
  started: number,
  phases: Record<string, number>,
  phase: (name: string, next?: string) => void,
): Promise<BuildResult> {
  const cache = options.cache === undefined ? undefined : new BuildCache(packPath(options.cache, options.content));
  let loaded: Awaited<ReturnType<typeof loadContent>>;
  try {
    loaded = await loadContent(resolve(options.content), { cache });
  } catch (e) {
    cache?.release(); // removes its spill file
    throw e;
  }
  const { model, problems } = loaded;
  cache?.save();
  // the directory indexes are kept under the directory files' key (directory-outputs.ts)
  const directoryKeyed = model && cache ? cache.inputsKey('directory') : null;
  cache?.release();
  phase('load content', 'render data');
  if (!model) return { ok: false, problems, cache: cache?.stats };
  const baseUrl = normalizeBaseUrl(options.baseUrl ?? model.site.base_url);

  const previous = previousManifest(out);
  const staging = createStaging(out);
  let directory: DirectoryJob | undefined;
  try {
    const kept = (index: string) => (options.cache === undefined ? null : outputsPath(options.cache, options.content, index));
    const minisearch = options.minisearch !== false;
    // the directory indexes are made on a worker thread while this one renders the events
    directory = startDirectoryJob(model.directory, { minisearch, compress: options.precompress !== false, kept, key: directoryKeyed });
    const files = await renderDataFiles(model, baseUrl, () => directory!.autocomplete);
    // content-hashed twins of the browser module and its index, cacheable as immutable
    const ac = (name: string) => files.get(`${AUTOCOMPLETE_DIR}/${name}`) as string;
    const hashed = hashedAutocompleteFiles(ac(AUTOCOMPLETE_INDEX_FILE), ac(AUTOCOMPLETE_MODULE_FILE));
    for (const [name, text] of hashed.files) files.set(`${AUTOCOMPLETE_DIR}/${name}`, text);
    phase('render data', minisearch ? 'minisearch' : 'write data');
    if (minisearch) {
      for (const [rel, text] of Object.entries(await directory.minisearch)) files.set(`${AUTOCOMPLETE_DIR}/${rel}`, text);
      phase('minisearch', 'write data');
    }
    const limit = model.site.page_size;
    const manifest: Manifest = {
      format: DIST_FORMAT,
      version: AULA_VERSION,
      // not the clock: two builds of the same content are byte-identical (events.ics's DTSTAMP is this)
      built_at: new Date(model.events.reduce((newest, e) => Math.max(newest, e.last_modified), 0)).toISOString(),
      base_url: baseUrl,
      site: { timezone: model.site.timezone, page_size: limit, max_page_size: model.site.max_page_size },
      counts: {
        events: model.events.length,
        pages: model.pages.size,
        categories: model.categories.length,
        media: model.media.size,
        directory: model.directory.length,
        event_list_pages: Math.max(1, Math.ceil(model.events.length / limit)),
      },
      event_list: { first: FIRST_PAGE, further: FURTHER_PAGES, limit },
      // the data files only: those are what the server loads and verifies
      files: digestsOf(files),
    };
    manifest.build_id = buildIdOf(manifest);
    // media records backed by a file in content/ are answered from a copy at the URL the API gives
    const mediaFiles: MediaFile[] = [];
    for (const m of [...model.media.values()].sort((a, b) => a.id - b.id)) {
      if (m.source) mediaFiles.push({ id: m.id, file: mediaFileName(m.id, basename(m.source)), mimetype: m.mimetype });
    }
    files.set(MEDIA_FILES_INDEX, `${JSON.stringify(mediaFiles)}\n`);
    files.set('manifest.json', `${JSON.stringify(manifest, null, 2)}\n`);
    writeAll(staging, files);
    phase('write data', 'load dataset');

    // The pages come from the API core over the data just written, read by the server's own
    // loader (from memory rather than back from disk), exactly as the server will answer.
    const api = createApi(datasetFrom(memorySource(files, staging)), { cacheLimits: { entries: 0, bytes: 0 } });
    phase('load dataset', 'answer pages');
    // Every event appears on exactly one page, so the serialized events measure the pages'
    // volume before they exist; workers compress each page while the next ones are answered.
    const volume = (files.get(DATA_FILES.events) as string).length + sizeOf(files, AUTOCOMPLETE_DIR);
    const pool = options.precompress !== false ? compressionPool(volume, undefined, await directory.compressed) : null;
    if (pool) manifest.precompressed = { compressor: COMPRESSOR, volume };
    const reuse = pool ? compressedReuse(out, previous, staging, volume) : null;
    const pages = new Map<string, string | Uint8Array>();
    const emit = (rel: string, content: string | Uint8Array) => {
      pages.set(rel, content);
      if (!reuse?.(rel, content)) pool?.add(rel, content);
    };
    for (let offset = 0; offset === 0 || offset < model.events.length; offset += limit) {
      const query = offset === 0 ? '' : `limit=${limit}&offset=${offset}`;
      const response = api({ method: 'GET', path: EVENT_LIST_PATH, query, headers: {} });
      if (response.status !== 200) throw new Error(`page at offset ${offset} answered ${response.status}: ${bodyText(response.body)}`);
      emit(pageFile(offset), bodyBuffer(response.body));
      options.progress?.('answer pages', offset / limit + 1, manifest.counts.event_list_pages);
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
      if (hashed.copies.has(rel.slice(AUTOCOMPLETE_DIR.length + 1))) pages.set(rel, text);
      else emit(rel, text);
    }
    phase('answer pages', 'write pages');
    writeAll(staging, pages);
    phase('write pages', 'compress');
    if (pool) {
      writeAll(staging, await pool.finish());
      copyTwins(staging, hashed.copies, AUTOCOMPLETE_DIR);
    }
    phase('compress', 'copy media');
    const served = new Map<string, string>();
    for (const m of mediaFiles) {
      // read once: the copy and its hash in public_files are the same bytes
      const bytes = readFileSync(model.media.get(m.id)!.source!);
      mkdirSync(dirname(join(staging, m.file)), { recursive: true });
      writeFileSync(join(staging, m.file), bytes);
      served.set(m.file, digestOf(bytes).sha256);
    }
    phase('copy media', 'manifest');
    const publicFiles = [...pages.keys()].filter(isPublicFile).sort();
    writeAll(staging, routingFiles(manifest, options.upstream ?? DEFAULT_UPSTREAM, { files: publicFiles, media: mediaFiles }));
    if (options.edge) writeAll(staging, await (await import('./edge-bundle.ts')).edgeFiles());
    // the data and autocomplete files were hashed for manifest.files already
    for (const [rel, content] of pages) served.set(rel, manifest.files[rel]?.sha256 ?? digestOf(content).sha256);
    manifest.public_files = sortedRecord(served);
    const changes = changesBetween(previousPublicFiles(previous), manifest.public_files);
    writeAll(staging, new Map([
      ['manifest.json', `${JSON.stringify(manifest, null, 2)}\n`],
      [CHANGES_FILE, `${JSON.stringify(changes, null, 2)}\n`],
    ]));
    phase('manifest', 'carry over');
    carryOver(out, staging);
    phase('carry over', 'swap');
    swapIn(staging, out);
    phase('swap');
    return { ok: true, manifest, files: files.size + pages.size, ms: performance.now() - started, phases, cache: cache?.stats };
  } catch (e) {
    directory?.cancel();
    removeStaging(staging);
    throw e;
  }
}
