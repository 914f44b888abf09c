// The data the server answers from, and its replacement: loaded whole at start (every filter
// index is in dist/ as the build wrote it, so nothing is left to build or read once the server
// listens), reloaded (with retries) when dist/ is replaced or on request, the same way while the
// old data answers. (With a base URL other than the dist's, the load rewrites the media URLs in
// the event rows on this thread, store/read/rebase-rows.ts: no request is answered meanwhile.)
import { join } from 'node:path';
import { createApi, type Api, type ApiOptions } from '../api/core.ts';
import { answerDocument, isDocument } from '../api/documents.ts';
import { datasetFrom, loadDataset, type Dataset } from '../query/dataset.ts';
import { warmZone } from '../time/offsets.ts';
import { prefetchDist, type PrefetchedDist } from '../store/read/prefetched-dist.ts';
import { decodeTextsSoon } from './decode-texts.ts';
import { reloader, watchManifest } from './reload.ts';
import { rowsVerifier, type RowsVerifierOptions } from './rows-verifier.ts';
import { distPublicSource, StaticFiles, type PublicSource } from './static-files.ts';

export interface LiveDataOptions extends ApiOptions {
  dist: string;
  baseUrl?: string;
  watch?: boolean;
  log(line: string): void;
  /** data made in memory (aula dev) to start with, instead of loading dist/ */
  dataset?: Dataset;
  /** … and its public files (dist/'s are another build's until it is written) */
  publicFiles?: PublicSource;
  /** how the event rows are checked (tests: a thread that fails); `vouched` at start only */
  rowsCheck?: RowsVerifierOptions;
}

export interface LiveData {
  readonly api: Api;
  readonly dataset: Dataset;
  /** dist/'s public files (calendar, OpenAPI, schemas, autocomplete module, media) */
  readonly files: StaticFiles;
  readonly ready: boolean;
  /** why not ready, for /readyz (a remote dist's problem: its URLs are the origin's), while not ready */
  readonly problem: string | undefined;
  /** loads dist/ again and swaps it in; resolves true when the new data is in */
  reload(): Promise<boolean>;
  /** swaps in data made in memory (aula dev) with its public files (default: dist/'s, read afresh) */
  use?(dataset: Dataset, files?: PublicSource): void;
  stop(): void;
}

/**
 * Loads dist/: the event rows are checked on a worker thread while this one reads the rest, and
 * both are done before this resolves. Nothing is served from a dist that fails either. With
 * `prefetched` (a reload) the rest was read and hashed ahead, with the event loop free between.
 */
async function loadChecked(options: LiveDataOptions, rowsCheck = options.rowsCheck, prefetched?: PrefetchedDist): Promise<Dataset> {
  const verifier = rowsVerifier(options.dist, rowsCheck);
  let dataset: Dataset;
  try {
    const { baseUrl } = options;
    const { verifyRows } = verifier;
    dataset = prefetched ? datasetFrom(prefetched.source, { baseUrl, verifyRows, sha256: prefetched.sha256, crc32: prefetched.crc32 }) : loadDataset(options.dist, { baseUrl, verifyRows });
    // while the thread checks the rows: a date filter's first request then reads no zone data
    warmZone(dataset.site.timezone);
  } catch (e) {
    verifier.cancel();
    throw e;
  } finally {
    // (a load that failed before it took the calendar read ahead)
    prefetched?.release();
  }
  try {
    await verifier.done();
  } catch (e) {
    verifier.cancel();
    dataset.close();
    throw e;
  }
  return dataset;
}

const TWIN = /\.(?:br|gz)$/;

/**
 * dist/'s public files. Under a base URL other than the build's, its documents (openapi.json,
 * events.ics) name the build's URL: they are answered anew from the served data, once per load
 * (StaticFiles keeps them), and their compressed twins are not served.
 */
function distFiles(dist: string, dataset: Dataset): PublicSource {
  const files = distPublicSource(dist);
  if (dataset.baseUrl === dataset.manifest.base_url) return files;
  return {
    ...files,
    read(rel) {
      const document = answerDocument(dataset, rel);
      if (document !== undefined) return document;
      return TWIN.test(rel) && isDocument(rel.replace(TWIN, '')) ? null : files.read(rel);
    },
  };
}

/** Loads dist/ (rejects with a DistError when it cannot be served) and keeps it current. */
export async function liveData(options: LiveDataOptions): Promise<LiveData> {
  /**
   * `loaded`: read from dist/ here, its column texts then decoded soon. Data made in memory (aula
   * dev) reads each column when an answer first uses it, and decodes each string it reads: decoding
   * them all would read every column after every edit.
   */
  const serve = (dataset: Dataset, files?: PublicSource, loaded = true) => ({
    dataset,
    api: createApi(dataset, { ...options, pooledCache: true }),
    files: new StaticFiles(files ?? distFiles(options.dist, dataset), dataset.baseUrl, options.cacheControl),
    stopDecoding: loaded ? decodeTextsSoon(dataset, options.log) : () => {},
  });
  let current = options.dataset ? serve(options.dataset, options.publicFiles, false) : serve(await loadChecked(options));
  let stopped = false;
  /** bumped by use(): a reload begun before it loaded data older than what is served now */
  let generation = 0;
  const swap = (dataset: Dataset, files?: PublicSource, loaded = true) => {
    const previous = current;
    current = serve(dataset, files, loaded);
    // answers are made synchronously, so nothing reads the old files any more
    previous.stopDecoding();
    previous.dataset.close();
  };
  // a reload's rows are other files than the ones another process vouched for at start
  const rowsCheck = { ...options.rowsCheck, vouched: undefined };
  const reloads = reloader({
    async load() {
      const began = generation;
      let dataset: Dataset;
      try {
        dataset = await loadChecked(options, rowsCheck, await prefetchDist(options.dist));
      } catch (e) {
        // (superseded by use(): its failure is not the served data's)
        if (generation !== began) return false;
        throw e;
      }
      if (stopped || generation !== began) {
        dataset.close();
        return false;
      }
      swap(dataset);
      options.log(`reloaded ${options.dist}/`);
    },
    log: options.log,
  });
  const stopWatching = options.watch !== false ? watchManifest(join(options.dist, 'manifest.json'), () => void reloads.reload()) : () => {};
  return {
    get api() {
      return current.api;
    },
    get dataset() {
      return current.dataset;
    },
    get files() {
      return current.files;
    },
    get ready() {
      return reloads.ready;
    },
    // the log line names it: its paths are this machine's, not for a public answer
    get problem() {
      return undefined;
    },
    reload: () => reloads.reload(),
    use(dataset, files) {
      generation++;
      reloads.replaced();
      swap(dataset, files, false);
    },
    stop() {
      stopped = true;
      current.stopDecoding();
      stopWatching();
      reloads.stop();
    },
  };
}
