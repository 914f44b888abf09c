// The data the server answers from, and its replacement: loaded at start, the deferred part read
// a moment after listening and the filter indexes built in the background after it, reloaded
// (with retries, indexes built again) when dist/ is replaced or on request.
import { join } from 'node:path';
import { createApi, type Api, type ApiOptions } from '../api/core.ts';
import { prepareInBackground, type BackgroundBuild } from '../query/events/prepare-in-background.ts';
import { loadDataset, warmAutocomplete, warmDataset, type Dataset } from '../query/dataset.ts';
import { reloader, watchManifest } from './reload.ts';
import { rowsVerifier, type RowsVerifierOptions } from './rows-verifier.ts';
import { StaticFiles } from './static-files.ts';

export interface LiveDataOptions extends ApiOptions {
  dist: string;
  baseUrl?: string;
  watch?: boolean;
  log(line: string): void;
  onFatal?(error: Error): void;
  /** data made in memory (aula dev) to start with, instead of loading dist/ */
  dataset?: Dataset;
  /** how the event rows are checked at start (tests: a thread that fails) */
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
  /**
   * reads what loading deferred, after `ms` (corruption there surfaces at start, not under load),
   * then builds the filter indexes in the background
   */
  warmLater(ms: number): void;
  /** the background build of the current data's indexes, once started */
  readonly indexes: BackgroundBuild | undefined;
  reload(): boolean;
  /**
   * swaps in data made in memory (aula dev), and reads dist/'s public files afresh; its filter
   * indexes are built in the background after `indexesAfterMs` (until then a request builds
   * what it needs), so a burst of edits does not build them for data replaced a moment later
   */
  use?(dataset: Dataset, indexesAfterMs?: number): void;
  /** stops the background build of the filter indexes and starts it again after `ms` (aula dev: an edit is coming) */
  deferIndexes?(ms: number): void;
  stop(): void;
}

/**
 * Loads dist/ at start: the event rows are checked on a worker thread while this one reads the
 * rest, and both are done before this resolves. Nothing is served from a dist that fails either.
 */
async function loadChecked(options: LiveDataOptions): Promise<Dataset> {
  const verifier = rowsVerifier(options.dist, options.rowsCheck);
  let dataset: Dataset;
  try {
    dataset = loadDataset(options.dist, { baseUrl: options.baseUrl, verifyRows: verifier.verifyRows, lazyAutocomplete: true });
  } catch (e) {
    verifier.cancel();
    throw e;
  }
  try {
    // decoded while the thread checks the rows (this thread would wait for it otherwise): it
    // would block the first requests if it came right after listening instead
    warmAutocomplete(dataset);
    await verifier.done();
  } catch (e) {
    verifier.cancel();
    dataset.events.rows.close();
    throw e;
  }
  return dataset;
}

/** Loads dist/ (rejects with a DistError when it cannot be served) and keeps it current. */
export async function liveData(options: LiveDataOptions): Promise<LiveData> {
  const load = (warm: boolean, given?: Dataset) => {
    // a reload checks on this thread (the old data answers meanwhile; reloads are rare)
    const dataset = given ?? loadDataset(options.dist, { baseUrl: options.baseUrl });
    if (warm) warmDataset(dataset);
    return { dataset, api: createApi(dataset, { ...options, pooledCache: true }), files: new StaticFiles(options.dist, dataset.baseUrl, options.cacheControl) };
  };
  let current = load(false, options.dataset ?? (await loadChecked(options)));
  let warmUp: NodeJS.Timeout | undefined;
  let indexes: BackgroundBuild | undefined;
  const buildIndexes = (dataset: Dataset) => {
    indexes?.stop();
    indexes = prepareInBackground(dataset.events.table, (e) => options.log(`building the filter indexes: ${e.message}`));
  };
  let indexesLater: NodeJS.Timeout | undefined;
  const use = (given: Dataset, indexesAfterMs = 0) => {
    const previous = current;
    current = load(false, given);
    // answers are made synchronously, so nothing reads the old rows any more
    previous.dataset.events.rows.close();
    deferIndexes(indexesAfterMs);
  };
  const deferIndexes = (ms: number) => {
    indexes?.stop();
    clearTimeout(indexesLater);
    const data = current.dataset;
    indexesLater = setTimeout(() => current.dataset === data && buildIndexes(data), ms);
    indexesLater.unref();
  };
  const reloads = reloader({
    load() {
      const previous = current;
      current = load(true);
      // answers are made synchronously, so nothing reads the old rows any more
      previous.dataset.events.rows.close();
      buildIndexes(current.dataset);
      options.log(`reloaded ${options.dist}/`);
    },
    log: options.log,
  });
  const stopWatching = options.watch !== false ? watchManifest(join(options.dist, 'manifest.json'), () => reloads.reload()) : () => {};
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
    warmLater(ms) {
      const first = current.dataset;
      warmUp = setTimeout(() => {
        if (current.dataset !== first) return;
        // data made in memory has no file to turn out corrupt: only its indexes are built
        if (first === options.dataset) return buildIndexes(first);
        try {
          warmDataset(first);
          buildIndexes(first);
        } catch (e) {
          options.log((e as Error).message);
          // the deferred file may belong to a dist that replaced this one before the watcher
          // noticed: only when the dist on disk cannot be loaded either is the server done for
          if (!reloads.reload()) options.onFatal?.(e as Error);
        }
      }, ms);
      warmUp.unref();
    },
    get indexes() {
      return indexes;
    },
    reload: () => reloads.reload(),
    use,
    deferIndexes,
    stop() {
      clearTimeout(warmUp);
      clearTimeout(indexesLater);
      indexes?.stop();
      stopWatching();
      reloads.stop();
    },
  };
}
