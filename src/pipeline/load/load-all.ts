// The load over an empty base (a first build, no cache, a prior refused: load.ts): every content
// file read, parsed on the parse threads (from the build cache where a file's stat is as recorded)
// and checked across files as loadContent checks them (checkAcross), without a model: the context
// first (the threads render the events' rows against it as they parse them), the directory handed
// to its job as soon as it is read and checked (before the events: it is not held beside them),
// then the events, held as their records. It gives the plan the load over a prior gives
// (state-load.ts): no previous rows or data, every event fresh, the files' stats and keys as this
// load took them (stat-table.ts); the render over the plan is then the same for every build.
import { resolve } from 'node:path';
import type { Listed } from '../../content/load.ts';
import { checkAcross, collect, eventsKind, folderProblem, locateProblems, parseContext, zoneOf } from '../../content/load.ts';
import type { MediaSource } from '../../content/media.ts';
import { compareProblems, type FileIssue, type Problem } from '../../content/problems.ts';
import type { Parsed, Sourced } from '../../content/records.ts';
import type { Event } from '../../model/types.ts';
import { renderCategory } from '../../render/event.ts';
import { DATA_FILES } from '../../store/format/dist-paths.ts';
import { toJson } from '../../util/json.ts';
import { BuildCache, packPath } from '../cache/build-cache.ts';
import { directoryOnPool, type DirectoryStage } from '../directory/directory-stage.ts';
import { rowsPath } from '../rows/render-cache.ts';
import { fileStatsOf, stateRows, type EventState } from '../state/event-state.ts';
import { patchOptions } from '../state/previous-build.ts';
import type { FileStats } from '../state/stat-fields.ts';
import { normalizeBaseUrl, type BuildOptions, type Clock } from '../run.ts';
import { ParsePool } from './parse-pool.ts';
import { StatTable, type RecordedStats } from './stat-table.ts';
import type { Loaded, Plan } from './state-load.ts';

/** No stats kept (no cache). */
const NONE: Omit<FileStats, 'zone'> = { safe: 0n, eventFiles: [], eventStats: new BigInt64Array(0), eventKeys: Buffer.alloc(0), otherFiles: [], otherStats: new BigInt64Array(0), otherKeys: Buffer.alloc(0) };

/** What the load is over: an empty state (no rows, no previous dist), and why (the prior was not taken). */
export type Base = { state: EventState; reason: string };

/** The empty base: the files' stats and keys as last recorded (the build cache judges files by them); its site, pages, media and categories are those the load reads. */
export function emptyBase(options: BuildOptions, out: string, recorded: FileStats | null, reason: string): Base {
  const context = { site: null as never, pages: new Map(), media: new Map(), categoryIds: [], mediaSources: [], rows: stateRows(0) };
  return { reason, state: { ...NONE, zone: '', ...recorded, ...context, content: resolve(options.content), out, options: patchOptions(options), manifestSha: '' } };
}

type Files = Extract<Listed, { files: unknown }>['files'];

/** The content loaded whole over the empty `base`, as a plan; or its problems. */
export async function loadAll(options: BuildOptions, base: Base, clock: Clock, listed: Listed, taking: RecordedStats): Promise<Loaded> {
  const content = resolve(options.content);
  const packFile = options.cache === undefined ? undefined : packPath(options.cache, options.content);
  const pack = packFile === undefined ? undefined : new BuildCache(packFile);
  if ('folderProblem' in listed) {
    taking.abandon();
    return { problems: [folderProblem(content, listed.folderProblem)], cache: pack?.stats, refused: base.reason };
  }
  const { files } = listed;
  const table = pack && StatTable.open(pack, packFile!, fileStatsOf(base.state), files, options.statMarginNs, taking.safe);
  // the recorded event files judged by the stats taken on the stat thread (load.ts)
  if (table && taking.finish !== null) table.current = await taking.finish().catch(() => null);
  else taking.abandon();
  const parsing = new ParsePool(content, table, { threads: options.parseThreads, rowsPath: options.cache === undefined ? undefined : rowsPath(options.cache, options.content) });
  let directory: DirectoryStage | null = null;
  const abandon = () => {
    directory?.job.cancel();
    parsing.dropRows();
  };
  let read: Awaited<ReturnType<typeof readAll>>;
  try {
    read = await readAll(options, content, files, parsing, table, pack?.inputsKey('directory') ?? null);
    directory = read.directory;
  } catch (e) {
    abandon();
    table?.release(); // removes its spill file
    throw e;
  } finally {
    parsing.close();
  }
  if (files.notRead.length > 0) options.onNotRead?.(files.notRead);
  pack?.save();
  const stats = table?.nextStats() ?? null;
  table?.release();
  // the directory's large files are compressed on its thread while this one renders the data
  directory?.job.compressNow();
  if (read.problems.length > 0) {
    abandon();
    return { problems: read.problems, cache: pack?.stats, refused: base.reason };
  }
  let baseUrl: string;
  try {
    baseUrl = normalizeBaseUrl(options.baseUrl ?? read.site.base_url);
  } catch (e) {
    abandon();
    throw e;
  }
  clock.phase('load content', 'render data');
  const { eventIndex: _events, otherIndex: _others, ...recorded } = stats ?? { ...NONE, eventIndex: null, otherIndex: null };
  // (no closure here refers to `read`: plan.abandon's would hold it, every record, through the render)
  const { site, pages, media, categories, mediaSources, records, recordFiles } = read;
  const fresh: Event[] = [];
  const freshFiles: number[] = [];
  for (const i of listOrder(records)) {
    fresh.push(records[i].value);
    if (stats !== null) freshFiles.push(recordFiles[i]);
  }
  const state = { ...base.state, zone: site.timezone, site, pages, media, categoryIds: categories.map((c) => c.id), mediaSources, ...recorded };
  const plan: Plan = {
    ...recorded, state, previous: null, ledger: null, data: null, baseUrl,
    fresh, freshFiles,
    fileMap: new Int32Array(0), keep: new Uint8Array(0), removed: 0,
    directory,
    ahead: parsing, cache: pack?.stats, abandon, refused: base.reason, stateless: stats === null,
    made: new Map([[DATA_FILES.categories, toJson(categories.map(renderCategory))]]), carried: [],
  };
  return { plan };
}

/**
 * Every file read and parsed, in the order loadContent reads them (the context, the directory, the
 * events), and checked across files: the records a plan is made of, or every problem (located and
 * sorted as loadContent's).
 */
async function readAll(options: BuildOptions, content: string, files: Files, parsing: ParsePool, table: StatTable | undefined, directoryKey: Buffer | null) {
  const { problems, mediaIssues, ...context } = await parseContext(content, files, table);
  const { site } = context;
  const zone = zoneOf(site);
  try {
    const baseUrl = normalizeBaseUrl(options.baseUrl ?? site.base_url);
    // the threads render the events' rows as they parse them, against the context as read (it is
    // checked against the build's own before they are used: ParsePool.rowsFor)
    parsing.render({ site, baseUrl, pages: new Map(context.pages.map((r) => [r.value.uid, r.value])), media: new Map(context.media.map((r) => [r.value.media.id, r.value.media])) });
  } catch {
    // reported after the load
  }
  // the directory before the events: its job starts while the threads go on to the events
  const directory = directoryOnPool(options, parsing.parseMany('directory', 'directory', zone, files.directory, files.raw), directoryKey, problems.length === 0);
  const parsedEvents = parsing.parseMany(eventsKind(zone), 'events', zone, files.events, files.raw) as Promise<Parsed<Event>[]>;
  // (a thread failing in the events must not leave their rejection unheard while the directory is awaited)
  void parsedEvents.catch(() => {});
  const dir = await directory;
  problems.push(...dir.problems);
  const records: Sourced<Event>[] = [];
  const recordFiles: number[] = [];
  (await parsedEvents).forEach((parsed, at) => {
    for (const r of collect([parsed], problems)) {
      records.push(r);
      recordFiles.push(at);
    }
  });
  const issues: FileIssue[] = [];
  const across = await checkAcross(content, { ...context, events: records, directory: [] }, issues, { directoryIssues: dir.issues, mediaIssues });
  problems.push(...locateProblems(content, issues, files.raw));
  return {
    problems: problems.sort(compareProblems) as Problem[],
    site,
    pages: new Map(Array.from(across.pagesByUid, ([uid, r]) => [uid, r.value])),
    media: new Map(Array.from(across.mediaById, ([id, r]) => [id, r.value.media])),
    categories: across.categoryList,
    mediaSources: context.media as Sourced<MediaSource>[],
    records,
    recordFiles,
    directory: dir.stage,
  };
}

/** The records' indexes in list order (compareListOrder's), their keys read once into typed arrays: no object per record is made to sort them. */
function listOrder(records: readonly Sourced<Event>[]): Uint32Array {
  const n = records.length;
  const [start, end, id] = [new Float64Array(n), new Float64Array(n), new Float64Array(n)];
  records.forEach(({ value: e }, i) => ((start[i] = e.start), (end[i] = e.end), (id[i] = e.id)));
  return new Uint32Array(n).map((_, i) => i).sort((a, b) => start[b] - start[a] || end[b] - end[a] || id[a] - id[b]);
}
