// The first stage of a build: the content folder read, parsed (on the parse threads, from the
// build cache where a file is unchanged) and checked into the model; the directory handed to its
// worker as soon as it is read, and the events' rows rendered on the parse threads as they come.
import { resolve } from 'node:path';
import { loadContent } from '../../content/index.ts';
import type { LoadOptions } from '../../content/load.ts';
import type { DirectoryObject } from '../../model/types.ts';
import type { BuildModel } from '../../model/event-texts.ts';
import { BuildCache, packPath } from '../cache/build-cache.ts';
import type { StatRecord } from '../cache/stat-index.ts';
import type { DirectoryJob } from '../directory/directory-job.ts';
import { directoryJob } from '../directory/directory-stage.ts';
import { StateRecorder } from '../state/state-recorder.ts';
import { rowsPath } from '../rows/render-cache.ts';
import { normalizeBaseUrl, type BuildOptions } from '../run.ts';
import { ParsePool } from './parse-pool.ts';

export interface Loaded {
  /** the model's events come without their texts where the parse threads made their rows (parse-payload.ts) */
  result: Omit<Awaited<ReturnType<typeof loadContent>>, 'model'> & { model: BuildModel | null };
  cache: BuildCache | undefined;
  /** the stat index this build read its files by (for the next build's patch) */
  statRecords: { safe: bigint; records: ReadonlyMap<string, StatRecord> } | null;
  parsing: ParsePool;
  /** the directory's indexes, being made on their worker (none when the content has problems) */
  directory: DirectoryJob | undefined;
  /** the directory objects' count (the job has the objects themselves) */
  directoryCount: number;
  /** what the next build needs to build over this one's state (state/event-state.ts) */
  recorder: StateRecorder;
  /** lets go of the directory's worker and the rows the parse threads left (a build that stops) */
  abandon(): void;
}

export async function loadStage(options: BuildOptions): Promise<Loaded> {
  const recorder = new StateRecorder();
  const cache = options.cache === undefined ? undefined : new BuildCache(packPath(options.cache, options.content), resolve(options.content), { racyMarginNs: options.statMarginNs });
  // The directory indexes are made on a worker thread from as soon as the directory is read:
  // while this thread reads the events and renders them (the loaded model's directory is then
  // left empty).
  let directory: DirectoryJob | undefined;
  let handedOver = 0;
  const onDirectory = (objects: readonly DirectoryObject[]) => {
    directory = directoryJob(options, cache?.inputsKey('directory') ?? null, objects);
    handedOver = objects.length;
    return true;
  };
  const parseCache = cache && recorder.wrap(cache);
  // the directory's and the events' files are parsed on threads of their own (parse-pool.ts)
  const parsing = new ParsePool(resolve(options.content), parseCache, {
    threads: options.parseThreads,
    rowsPath: options.cache === undefined ? undefined : rowsPath(options.cache, options.content),
  });
  const abandon = () => {
    directory?.cancel();
    parsing.dropRows();
  };
  let result: Loaded['result'];
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
    result = await loadContent(resolve(options.content), { cache: parseCache, onDirectory, onContext, parseMany: parsing.parseMany });
  } catch (e) {
    abandon();
    cache?.release(); // removes its spill file
    throw e;
  } finally {
    parsing.close();
  }
  if (result.notRead && result.notRead.length > 0) options.onNotRead?.(result.notRead);
  cache?.save();
  const statRecords = cache?.statRecords() ?? null;
  cache?.release();
  // the directory's large files are compressed on its thread while this one renders the data
  directory?.compressNow();
  const directoryCount = directory ? handedOver : (result.model?.directory.length ?? 0);
  // a model whose directory was not handed over early: an empty one, loaded without a call
  if (result.model) directory ??= directoryJob(options, cache?.inputsKey('directory') ?? null, result.model.directory);
  return { result, cache, statRecords, parsing, directory, directoryCount, recorder, abandon };
}
