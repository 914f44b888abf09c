// The load over an empty prior (a first build, no cache, a prior refused): the content folder read
// whole, parsed on the parse threads (from the build cache where a file is unchanged) and checked
// into the model; the directory handed to its job as soon as it is read, and the events' rows made
// on the parse threads as they are parsed. It gives the plan the load over a prior gives
// (state-load.ts): no previous rows or data, every event fresh, the content files' stats and keys
// as this load took them (stat-table.ts); the render over the plan is then the same for every build.
import { resolve } from 'node:path';
import { loadContent } from '../../content/index.ts';
import type { Listed, LoadOptions } from '../../content/load.ts';
import type { MediaSource } from '../../content/media.ts';
import type { Sourced } from '../../content/records.ts';
import type { DirectoryObject, Event, Model } from '../../model/types.ts';
import { renderCategory, sortListOrder } from '../../render/event.ts';
import { DATA_FILES } from '../../store/format/dist-paths.ts';
import { toJson } from '../../util/json.ts';
import { BuildCache, packPath, type CacheStats } from '../cache/build-cache.ts';
import type { DirectoryJob } from '../directory/directory-job.ts';
import { directoryJob, type DirectoryStage } from '../directory/directory-stage.ts';
import { rowsPath } from '../rows/render-cache.ts';
import { normalizeBaseUrl, type BuildOptions } from '../run.ts';
import { stateRows } from '../state/event-state.ts';
import { patchOptions } from '../state/previous-build.ts';
import type { FileStats } from '../state/stat-fields.ts';
import { ParsePool } from './parse-pool.ts';
import { StatTable, type RecordedStats, type StatRecord } from './stat-table.ts';
import type { Loaded, Plan } from './state-load.ts';

/** The content loaded whole, as a plan over an empty prior; or its problems. */
export async function loadWhole(options: BuildOptions, out: string, reason: string, recorded: FileStats | null, listed: Listed, taking: RecordedStats): Promise<Loaded> {
  const content = resolve(options.content);
  const packFile = options.cache === undefined ? undefined : packPath(options.cache, options.content);
  const pack = packFile === undefined ? undefined : new BuildCache(packFile);
  const cache = pack && StatTable.open(pack, packFile!, recorded, 'files' in listed ? listed.files : null, options.statMarginNs, taking.safe);
  // the recorded event files judged by the stats taken on the stat thread (load.ts)
  if (cache && taking.finish !== null) cache.current = await taking.finish().catch(() => null);
  else taking.abandon();
  // The directory indexes are made on a worker thread from as soon as the directory is read:
  // while this thread reads the events (the loaded model's directory is then left empty).
  let directory: DirectoryJob | undefined;
  let count = 0;
  const onDirectory = (objects: readonly DirectoryObject[]) => {
    directory = directoryJob(options, pack?.inputsKey('directory') ?? null, objects);
    count = objects.length;
    return true;
  };
  let mediaSources: Sourced<MediaSource>[] = [];
  const parsing = new ParsePool(content, cache, { threads: options.parseThreads, rowsPath: options.cache === undefined ? undefined : rowsPath(options.cache, options.content) });
  const abandon = () => {
    directory?.cancel();
    parsing.dropRows();
  };
  let result: Awaited<ReturnType<typeof loadContent>>;
  try {
    // the threads render the events' rows as they parse them, against the context as read (it is
    // checked against the build's own before they are used: ParsePool.rowsFor)
    const onContext: LoadOptions['onContext'] = ({ site, pages, media }) => {
      mediaSources = media as Sourced<MediaSource>[];
      let baseUrl: string;
      try {
        baseUrl = normalizeBaseUrl(options.baseUrl ?? site.base_url);
      } catch {
        return; // reported after the load
      }
      parsing.render({ site, baseUrl, pages: new Map(pages.map((r) => [r.value.uid, r.value])), media: new Map(media.map((r) => [r.value.media.id, r.value.media])) });
    };
    result = await loadContent(content, { cache, eventFiles: cache !== undefined, onDirectory, onContext, parseMany: parsing.parseMany, listed });
  } catch (e) {
    abandon();
    cache?.release(); // removes its spill file
    throw e;
  } finally {
    parsing.close();
  }
  if (result.notRead && result.notRead.length > 0) options.onNotRead?.(result.notRead);
  pack?.save();
  const stats = cache?.nextStats() ?? null;
  cache?.release();
  // the directory's large files are compressed on its thread while this one renders the data
  directory?.compressNow();
  const { model } = result;
  if (!model) {
    abandon();
    return { problems: result.problems, cache: pack?.stats, refused: reason };
  }
  let baseUrl: string;
  try {
    baseUrl = normalizeBaseUrl(options.baseUrl ?? model.site.base_url);
  } catch (e) {
    abandon();
    throw e;
  }
  // a model whose directory was not handed over early: an empty one, loaded without a call
  if (directory === undefined) {
    count = model.directory.length;
    directory = directoryJob(options, pack?.inputsKey('directory') ?? null, model.directory);
  }
  const loaded = { out, baseUrl, model, stats, fileOf: result.eventFiles ?? new Map<number, string>(), mediaSources, directory: { job: directory, count, files: 0 } };
  return { plan: wholePlan(options, loaded, { ahead: parsing, cache: pack?.stats, abandon, refused: reason }) };
}

/** The plan over an empty prior of the model loaded whole: every event fresh, the files as the build cache recorded them (`stats`). */
function wholePlan(
  options: BuildOptions,
  loaded: { out: string; baseUrl: string; model: Model; stats: StatRecord | null; fileOf: Map<number, string>; mediaSources: Sourced<MediaSource>[]; directory: DirectoryStage },
  whole: Pick<Plan, 'ahead' | 'cache' | 'abandon' | 'refused'>,
): Plan {
  const { model, stats, fileOf } = loaded;
  const zone = model.site.timezone;
  const fresh = sortListOrder(model.events as Event[]);
  // each event's file among the files listed; none kept where one is not known
  const at = stats && fresh.map((e) => stats.eventIndex.get(fileOf.get(e.id) ?? '') ?? -1);
  const files = at?.includes(-1) ? null : stats;
  const none = { safe: 0n, eventFiles: [], eventStats: new BigInt64Array(0), eventKeys: Buffer.alloc(0), otherFiles: [], otherStats: new BigInt64Array(0), otherKeys: Buffer.alloc(0), eventIndex: null, otherIndex: null };
  const { eventIndex: _events, otherIndex: _others, ...recorded } = files ?? none;
  const content = resolve(options.content);
  const base = { content, out: loaded.out, options: patchOptions(options), manifestSha: '', zone, site: model.site, pages: model.pages, media: model.media };
  const state = { ...base, categoryIds: model.categories.map((c) => c.id), mediaSources: loaded.mediaSources, rows: stateRows(0), ...recorded };
  return {
    ...recorded, state, previous: null, ledger: null, data: null, baseUrl: loaded.baseUrl, fresh, freshFiles: files === null ? [] : at!, fileMap: new Int32Array(0), keep: new Uint8Array(0), removed: 0,
    directory: loaded.directory, ...whole, stateless: files === null,
    made: new Map([[DATA_FILES.categories, toJson(model.categories.map(renderCategory))]]), carried: [],
  };
}
