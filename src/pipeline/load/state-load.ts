// The load stage over a base: the previous build (its event state, state/event-state.ts, and its
// dist, proven: state/previous-build.ts) or an empty one (a first build, no cache, the prior
// refused: load.ts). What changed since the base is found without loading a model: every content
// file other than the event, directory and categories files must be as the base recorded it (by
// its stat, else by its parse's key) — over an empty base every file counts as changed, and the
// site, pages, categories and media are read as the context the events are checked and rendered
// against; the directory, where one of its files changed, came or went, is read and handed to its
// job (directory/directory-stage.ts), the categories too; the event files changed or added are
// parsed (on the parse threads where they are many, from the build cache's pack where a file is as
// recorded) and checked as a full build checks them; and every file of the previous dist the render
// takes is proven by the ledger (provenDist). Over a prior anything else refuses (NoPatch): the load
// is then over an empty base, before anything is staged. The problems are reported from the records.
import { join, resolve } from 'node:path';
import { checkEvents, parseEventFile } from '../../content/events.ts';
import { readContentFile, type ContentFiles } from '../../content/files.ts';
import type { Listed, ParserName } from '../../content/load.ts';
import { indexCategories, readCategory } from '../../content/categories.ts';
import { resolveMediaFiles, type MediaSource } from '../../content/media.ts';
import { compareProblems, folderProblem, type FileIssue, type Problem } from '../../content/problems.ts';
import { parseFile, type Parsed, type Sourced } from '../../content/records.ts';
import type { Event } from '../../model/types.ts';
import { wholeEvent, type TextlessEvent } from '../../model/event-texts.ts';
import { BuildCache, inputsKeyOf, packPath, parseKey, type CacheStats } from '../cache/build-cache.ts';
import type { ParsePool } from './parse-pool.ts';
import { renderCategory } from '../../render/event.ts';
import { toJson } from '../../util/json.ts';
import type { Manifest } from '../../store/format/manifest.ts';
import { AUTOCOMPLETE_DATA_FILE, AUTOCOMPLETE_DIR, DATA_FILES, EVENT_PART_ROWS, eventOffsetsFiles, eventPartFiles } from '../../store/format/dist-paths.ts';
import { COLUMN_FILES } from '../../store/format/column-files.ts';
import { MEDIA_FILES_INDEX } from '../../store/format/public-files.ts';
import type { PreviousData } from '../../store/write/event-data.ts';
import { previousFiles } from '../render/previous-data.ts';
import { COMPRESSOR, type DistLedger } from '../ledger/dist-ledger.ts';
import { normalizeBaseUrl, type BuildOptions, type Clock } from '../run.ts';
import type { EventState } from '../state/event-state.ts';
import { EVENTS_KIND, fileStat, OTHER_KINDS, freshStatAt, KEY_BYTES, MARGIN_NS, putStat, STAT_FIELDS, type FileStats } from '../state/stat-fields.ts';
import { refuse } from '../state/no-patch.ts';
import type { PreviousBuild } from '../state/previous-build.ts';
import { nextStats, StatTable, type RecordedStats, type StatRecord } from './stat-table.ts';
import type { DirectoryStage } from '../directory/directory-stage.ts';
import { append } from '../../util/append.ts';

/**
 * More changed event files than this are parsed on the parse threads; fewer are parsed here, where
 * they cost less CPU: the threads' start and the parses' hand-over cost more than the parse of a
 * few thousand files (the figures are in bench/results.md).
 */
const POOL_FROM = 4096;

/** The event files as they are now against the base's. */
interface EventFiles {
  /** base file index → new index, -1 for removed files */
  fileMap: Int32Array;
  /** base file indexes read again */
  reread: Uint8Array;
}

/** The records of the files read again (changed or added), with their files' new indexes, and the files' parse problems (in the listing's order). */
type Fresh = { records: Sourced<Event>[]; recordFiles: number[]; problems: Problem[] };

export interface Plan extends Pick<EventFiles, 'fileMap'>, Omit<FileStats, 'zone'> {
  /** the base's state; over an empty base, the context as read, with no rows */
  state: EventState;
  /** the previous dist's manifest and ledger, and its event data, each file proven when it is read (none over an empty base) */
  previous: Manifest | null;
  ledger: DistLedger | null;
  data: PreviousData | null;
  baseUrl: string;
  /** the events of the changed and added files, in list order, with their files' new indexes */
  fresh: TextlessEvent[];
  freshFiles: number[];
  /** state rows that stay */
  keep: Uint8Array;
  removed: number;
  /** the directory's indexes being made anew, where a directory file changed (else the previous dist's are taken) */
  directory: DirectoryStage | null;
  /** the directory's objects where its files are among `made` (`aula dev`'s, made in memory) */
  directoryCount?: number;
  /** the rows the parse threads made ahead (over an empty base, against the context as read) */
  ahead: Pick<ParsePool, 'rowsFor' | 'dropRows'>;
  /** the files no event shapes, made by the load (the categories, where they were read), and those taken from the previous dist as they are */
  made: ReadonlyMap<string, string | Uint8Array>;
  carried: readonly string[];
  /** true: no state is kept (no cache) */
  stateless: boolean;
  /** the parse cache's counts; why the prior was not taken (null: it was) */
  cache: CacheStats | undefined;
  refused: string | null;
  /** lets go of the directory's worker and the rows made ahead (a build that stops) */
  abandon(): void;
}

/** A load's plan, or the content's problems. */
export type Loaded = { plan: Plan; problems?: undefined } | { plan?: undefined; problems: Problem[]; cache: CacheStats | undefined; refused: string | null };

/** Nothing made ahead: every fresh event is whole, rendered against the build's context. */
export const NONE_AHEAD: Plan['ahead'] = { rowsFor: () => ({ premade: undefined, whole: wholeEvent }), dropRows: () => {} };

/**
 * What a load is over: the previous build, proven, or none (its state empty: no rows, no files, no
 * context); `reason`: why the prior was not taken; `recorded`: the content files' stats and keys
 * last recorded, by which the pack's parses are taken (over an empty base).
 */
export type Base = { build: PreviousBuild | null; state: EventState; reason: string | null; recorded: FileStats | null };

/** No stats kept (no cache). */
const NO_STATS: Omit<FileStats, 'zone'> = { safe: 0n, eventFiles: [], eventStats: new BigInt64Array(0), eventKeys: Buffer.alloc(0), otherFiles: [], otherStats: new BigInt64Array(0), otherKeys: Buffer.alloc(0) };

/** The files read and parsed over the base, each through the one parse path: the parse cache (`table`, none without a cache), on the parse threads (`pool`) where there is one. */
interface Reading {
  content: string;
  files: ContentFiles;
  /** this load's stats and keys (null: none kept) */
  next: StatRecord | null;
  table: StatTable | undefined;
  pool: ParsePool | null;
  zone: string;
}

/** `listing`: the content folder's, asked for once `taking` (the recorded event files' stats: beginRecordedStats) was begun. */
export async function loadOver(options: BuildOptions, base: Base, clock: Clock, listing: Listed, taking: RecordedStats): Promise<Loaded> {
  const { build } = base;
  const content = resolve(options.content);
  if (build !== null) proveBase(options, build, listing, taking);
  if ('folderProblem' in listing) {
    taking.abandon();
    return { problems: [folderProblem(content, listing.folderProblem)], cache: undefined, refused: base.reason };
  }
  const { files } = listing;
  const margin = options.statMarginNs ?? MARGIN_NS;
  const next = taking.safe === null ? null : nextStats(taking.safe, files);
  // the pack over an empty base: a file whose stat is as last recorded is taken from it unread
  const pack = build === null && options.cache !== undefined ? new BuildCache(packPath(options.cache, options.content)) : null;
  const table = options.cache === undefined ? undefined : new StatTable(pack, pack && !pack.stats.foreign && next !== null ? base.recorded : null, next, margin);
  const read: Reading = { content, files, next, table, pool: null, zone: base.state.zone };
  let directory: DirectoryStage | null = null;
  let pool: ParsePool | null = null;
  // (it refers to neither the records nor the listing: the plan holds it through the render)
  const abandon = () => {
    directory?.job.cancel();
    pool?.dropRows();
  };
  try {
    const others = build === null ? null : unchangedOthers(read, base.state, margin);
    const events = await eventFileChanges(options, read, base.state, margin, taking, build === null);
    if (events.changed.length > (options.poolFrom ?? POOL_FROM) || build === null) read.pool = pool = await parsePool(options, read);
    const loaded = await loadChanges(options, base, clock, read, { others, events, cache: pack?.stats, directory: (d) => (directory = d), abandon });
    pack?.save();
    return loaded;
  } catch (e) {
    abandon();
    throw e;
  } finally {
    pool?.close();
    table?.release(); // (removes the pack's spill file)
  }
}

/** The refusals of a prior before any content file is read: another zone or base URL, no time for the stats, a listing with problems or raw names. */
function proveBase(options: BuildOptions, { state, previous }: PreviousBuild, listing: Listed, taking: RecordedStats): void {
  if (state.zone !== state.site.timezone) refuse('the state is of another zone');
  if (normalizeBaseUrl(options.baseUrl ?? state.site.base_url) !== previous.base_url) refuse('another base URL');
  // taken before any content file was stat'ed: the stats recorded now are judged against it
  if (taking.safe === null) refuse('the cache folder cannot be written');
  if (!('files' in listing)) refuse('the content folder cannot be listed');
  if (listing.files.problems.length > 0 || listing.files.raw.size > 0) refuse('the content folder has problems or raw names');
}

type Changes = {
  others: ReturnType<typeof unchangedOthers> | null;
  events: ChangedEventFiles;
  cache: CacheStats | undefined;
  directory: (stage: DirectoryStage | null) => void;
  abandon: () => void;
};

/** The changed files read, parsed and checked over the base: the plan, or their problems. */
async function loadChanges(options: BuildOptions, base: Base, clock: Clock, read: Reading, { others, events, cache, directory: setDirectory, abandon }: Changes): Promise<Loaded> {
  const { build } = base;
  const { files, content } = read;
  const issues: FileIssue[] = [];
  // over an empty base the context (imported here: a build over a prior has it in its state)
  const context = build === null ? await readContext(read, issues) : null;
  const state: EventState = context === null ? base.state : { ...base.state, ...context.state };
  const baseUrlOf = () => normalizeBaseUrl(options.baseUrl ?? state.site.base_url);
  let baseUrl: string | null = null;
  try {
    baseUrl = baseUrlOf();
  } catch {
    // (thrown once the content is known to have no problems)
  }
  const problems = context?.problems ?? [];
  // over an empty base the threads render the events' rows as they parse them, against the context as read (ParsePool.rowsFor)
  if (build === null && baseUrl !== null) read.pool!.render({ site: state.site, baseUrl, pages: state.pages, media: state.media });
  const categories = others?.categories ? changedCategories(content, others.categories, others.texts, state) : context && context.categories;
  const directoryFiles = build === null ? files.directory : others!.directory;
  const dir = directoryFiles && (await import('../directory/directory-stage.ts')).directoryOnPool(options, parseFiles(read, 'directory', 'directory', directoryFiles), directoryKey(read), problems.length === 0);
  const parsing = parseChanged(read, events);
  // (a thread failing in the events must not leave their rejection unheard while the directory is awaited)
  void parsing.catch(() => {});
  const dirRead = await dir;
  setDirectory(dirRead?.stage ?? null);
  const fresh = await parsing;
  const { keep, removed } = rowsThatStay(state, events);
  append(append(issues, await checkFresh(content, state, fresh, events, keep, categories?.ids ?? state.categoryIds, build !== null)), dirRead?.issues ?? []);
  append(append(problems, fresh.problems), dirRead?.problems ?? []);
  // over a prior, as a whole load counts them: files taken without a parse
  if (others !== null) cache = { hits: others.files - (others.directory?.length ?? 0) - (others.categories?.length ?? 0) + files.events.length - events.changed.length, misses: events.changed.length, corrupt: 0, foreign: false };
  if (problems.length > 0 || issues.length > 0) {
    abandon();
    return reportedProblems(options, content, files, problems, issues, cache, base.reason);
  }
  baseUrl ??= baseUrlOf();
  if (build !== null) for (const { value: e } of fresh.records) if (!Number.isFinite(e.start) || !Number.isFinite(e.end) || !Number.isFinite(e.last_modified)) refuse('an event has no time');
  // the files no event shapes taken as they are, where their files did not change
  const carried = build === null ? [] : [...(categories ? [] : [DATA_FILES.categories]), ...(others!.directory === null ? [AUTOCOMPLETE_DATA_FILE] : [])];
  const data = build && provenDist(options, build, carried);
  // told here, where nothing refuses any more
  if (files.notRead.length > 0) options.onNotRead?.(files.notRead);
  dirRead?.stage?.job.compressNow();
  clock.phase(build === null ? 'load content' : 'patch: find changes', 'render data');
  const { eventIndex: _e, otherIndex: _o, ...recorded }: StatRecord = read.next ?? NO_STATS;
  const { records, recordFiles } = fresh;
  const order = listOrder(records);
  return { plan: {
    ...recorded, fileMap: events.fileMap, state: categories ? { ...state, categoryIds: categories.ids } : state, previous: build?.previous ?? null, ledger: build?.ledger ?? null, baseUrl,
    fresh: Array.from(order, (i) => records[i].value),
    freshFiles: Array.from(order, (i) => recordFiles[i]),
    keep, removed, data, directory: dirRead?.stage ?? null,
    ahead: read.pool ?? NONE_AHEAD,
    made: new Map(categories ? [[DATA_FILES.categories, categories.json]] : []),
    carried, stateless: read.next === null, cache, refused: base.reason, abandon,
  } };
}

/** The records' indexes in list order (compareListOrder's), their keys read once into typed arrays: no object per record is made to sort them. */
function listOrder(records: readonly Sourced<Event>[]): Uint32Array {
  const n = records.length;
  const [start, end, id] = [new Float64Array(n), new Float64Array(n), new Float64Array(n)];
  records.forEach(({ value: e }, i) => ((start[i] = e.start), (end[i] = e.end), (id[i] = e.id)));
  return new Uint32Array(n).map((_, i) => i).sort((a, b) => start[b] - start[a] || end[b] - end[a] || id[a] - id[b]);
}

/** The parse threads' pool (imported here: a build over a few edits parses them on this thread). */
async function parsePool(options: BuildOptions, read: Reading): Promise<ParsePool> {
  const { ParsePool } = await import('./parse-pool.ts');
  return new ParsePool(read.content, read.table, { threads: options.parseThreads });
}

/** `names` of one kind parsed, each through the parse cache: on the parse threads where there are some, else here. */
async function parseFiles(read: Reading, kind: string, parser: ParserName, names: readonly string[]): Promise<Parsed<unknown>[]> {
  if (read.pool !== null) return read.pool.parseMany(kind, parser, read.zone, names, read.files.raw);
  const { parseContentFile, parserOf } = await import('../../content/load.ts');
  return names.map((file) => parseContentFile(read.content, file, read.files.raw.get(file), kind, parserOf(parser, read.zone), read.table));
}

/** The directory's inputs' key, of its files' parse keys as this load recorded them (none without a cache). */
const directoryKey = ({ next, files }: Reading) => () => {
  if (next === null) return null;
  const first = next.otherFiles.length - files.directory.length;
  return inputsKeyOf('directory', files.directory.map((file, i) => `${file}\0${next.otherKeys.toString('hex', (first + i) * KEY_BYTES, (first + i + 1) * KEY_BYTES)}`));
};

/**
 * The context over an empty base: the site, pages, categories and media read and parsed (through
 * the parse cache), the media files resolved, and checked across files as loadContent checks them;
 * their problems, the issues added to `issues`.
 */
async function readContext(read: Reading, issues: FileIssue[]) {
  const { parseContext, checkContext, zoneOf } = await import('../../content/load.ts');
  const { problems, mediaIssues, ...context } = await parseContext(read.content, read.files, read.table);
  const across = checkContext(context, mediaIssues, issues);
  read.zone = zoneOf(context.site);
  const state = {
    zone: context.site.timezone,
    site: context.site,
    pages: new Map(Array.from(across.pagesByUid, ([uid, r]) => [uid, r.value])),
    media: new Map(Array.from(across.mediaById, ([id, r]) => [id, r.value.media])),
    categoryIds: across.categoryList.map((c) => c.id),
    mediaSources: context.media as Sourced<MediaSource>[],
  };
  return { problems, state, categories: { ids: state.categoryIds, json: toJson(across.categoryList.map(renderCategory)) } };
}

/** The changed event files' and the directory's problems and issues, located and sorted as a whole load's. */
async function reportedProblems(options: BuildOptions, content: string, files: ContentFiles, problems: Problem[], issues: FileIssue[], cache: CacheStats | undefined, refused: string | null): Promise<Loaded> {
  // imported here: only a build with problems positions issues
  const { locateProblems } = await import('../../content/load.ts');
  if (files.notRead.length > 0) options.onNotRead?.(files.notRead);
  return { problems: [...problems, ...locateProblems(content, issues, files.raw)].sort(compareProblems), cache, refused };
}

/**
 * The previous dist as the render over the state takes it, proven by the ledger before anything
 * is staged: its event data files (previousFiles), the files no event shapes (categories, the
 * autocomplete files) with twins made as the pool makes them, and no file it does not account for.
 */
function provenDist(options: BuildOptions, { previous, state, ledger }: PreviousBuild, carried: readonly string[]): PreviousData {
  const data = previousFiles({ previous, state, ledger }, state.out, options.eventPartRows ?? EVENT_PART_ROWS) ?? refuse('the previous data files are not proven');
  const then = ledger.precompressed;
  if (options.precompress !== false && (!then || !previous.precompressed || then.compressor !== COMPRESSOR || previous.precompressed.volume !== then.volume)) refuse('no twins to reuse');
  const sameDirectory = carried.includes(AUTOCOMPLETE_DATA_FILE);
  for (const rel of carried) {
    const entry = ledger.entry(rel) ?? refuse(`${rel} is not in the ledger`);
    if (!ledger.wouldReuse(rel, { sha: entry.sha }, null)) refuse(`${rel} is not proven`);
  }
  if (carried.includes(DATA_FILES.categories) && previous.files[DATA_FILES.categories]?.sha256 !== ledger.entry(DATA_FILES.categories)!.sha) refuse("categories.json is not the manifest's");
  const publicFiles = previous.public_files ?? refuse('no public files');
  for (const rel of sameDirectory ? Object.keys(publicFiles).filter((r) => r.startsWith(`${AUTOCOMPLETE_DIR}/`)) : []) {
    if (ledger.entry(rel)?.sha !== publicFiles[rel] || !ledger.wouldReuse(rel, { sha: publicFiles[rel] }, null)) refuse(`${rel} is not proven`);
  }
  const known = new Set<string>([...eventPartFiles(previous), ...eventOffsetsFiles(previous), ...Object.values(DATA_FILES), ...COLUMN_FILES, AUTOCOMPLETE_DATA_FILE, MEDIA_FILES_INDEX]);
  for (const rel of Object.keys(previous.files)) if (!known.has(rel) && !rel.startsWith(`${AUTOCOMPLETE_DIR}/`)) refuse(`${rel} is not accounted for`);
  return data;
}

/**
 * Every other content file: the same set as the state's, each unchanged (by its stat, else by its
 * parse's key), but for the directory's and the categories' files, which may change, come and go
 * (their names are then handed on: `directory`, `categories`); their stats (refreshed) and keys.
 */
function unchangedOthers({ content, files, next }: Reading, state: EventState, margin: bigint) {
  const { otherFiles: ids, otherStats: stats, otherKeys: keys } = next!;
  const recorded = new Map(state.otherFiles.map((id, i) => [id, i]));
  const kinds = OTHER_KINDS.flatMap((kind) => files[kind].map((file) => [kind, file] as const));
  const keyAt = (b: Buffer, i: number) => b.subarray(i * KEY_BYTES, (i + 1) * KEY_BYTES);
  const changed = new Set<string>();
  // the categories' texts as read for their keys: read again, a save between would pair one version's key with another's text
  const texts = new Map<string, string>();
  const change = (kind: string, why: string) => (kind === 'directory' || kind === 'categories' ? changed.add(kind) : refuse(why));
  kinds.forEach(([kind, file], j) => {
    const i = recorded.get(ids[j]);
    recorded.delete(ids[j]);
    if (i === undefined) change(kind, `${file} is new`);
    putStat(stats, j, fileStat(join(content, file)));
    if (i !== undefined && freshStatAt(state.otherStats, i, stats, j, state.safe, margin)) return void state.otherKeys.copy(keys, j * KEY_BYTES, i * KEY_BYTES, (i + 1) * KEY_BYTES);
    const read = readContentFile(content, file, undefined, true);
    // (a directory file that cannot be read is its problem: directoryOnPool reports it)
    if (!read.ok) return void change(kind, `${file} cannot be read`);
    putStat(stats, j, read.stat!);
    parseKey(kind, file, read.bytes).copy(keys, j * KEY_BYTES);
    if (kind === 'categories') texts.set(file, read.text);
    if (i === undefined || state.otherStats[i * STAT_FIELDS] < 0n || !keyAt(keys, j).equals(keyAt(state.otherKeys, i))) change(kind, `${file} changed`);
  });
  for (const id of recorded.keys()) change(id.slice(0, id.indexOf('\0')), 'a content file other than an event file was removed');
  const named = (kind: string) => (changed.has(kind) ? kinds.filter(([k]) => k === kind).map(([, file]) => file) : null);
  return { files: ids.length, directory: named('directory'), categories: named('categories'), texts };
}

/**
 * The categories read again over the prior, checked as a whole load checks them, and their file
 * (categories.json). The events' rows hold their categories' ids alone, so every row stays; an id
 * gone could be one a row that stays names, and refuses, as does a problem (the whole load reports it).
 */
function changedCategories(content: string, files: readonly string[], texts: ReadonlyMap<string, string>, state: EventState): { ids: number[]; json: string } {
  const records = files.flatMap((file) => {
    const read = texts.has(file) ? { ok: true as const, text: texts.get(file)! } : readContentFile(content, file);
    const parsed = read.ok ? parseFile(file, read.text, readCategory) : null;
    if (parsed === null || parsed.problems.length > 0) refuse(`${file} has problems`);
    return parsed.records;
  });
  const issues: FileIssue[] = [];
  const categories = indexCategories(records, issues).list;
  if (issues.length > 0) refuse('the categories have problems');
  const ids = categories.map((c) => c.id);
  if (state.categoryIds.some((id) => !ids.includes(id))) refuse('a category was removed');
  return { ids, json: toJson(categories.map(renderCategory)) };
}

/** The event files against the base's: which changed (their new indexes), and while they are few, their texts as read. */
interface ChangedEventFiles extends Pick<EventFiles, 'fileMap' | 'reread'> {
  changed: number[];
  /** null: the changed files are parsed on the parse threads */
  texts: string[] | null;
}

/**
 * The event files: unchanged by their stat (the base's files' stats as `taking` took them, by the
 * base's order), else read again (changed or added), and changed where their text is not the one
 * the base recorded; the rest removed. Over an empty base (`all`) every file is changed, unread
 * here. The loop runs once per event file (most of a site's files): it is kept to comparisons with
 * the stats taken before it (no path joins, no map look-up, no per-file copies). The listing is
 * sorted, as the state's is, so a file is usually found at its own index (the map is made only when
 * one is not); the stats and keys are copied whole first and only those of files read again are put over them.
 */
async function eventFileChanges(options: BuildOptions, { content, files, next, table }: Reading, state: EventState, margin: bigint, taking: RecordedStats, all: boolean): Promise<ChangedEventFiles> {
  const eventFiles = files.events;
  const previousFiles = state.eventFiles;
  const changes: ChangedEventFiles = { fileMap: new Int32Array(previousFiles.length).fill(-1), reread: new Uint8Array(previousFiles.length), changed: [], texts: [] };
  if (all) {
    // the pack's parses are taken by the recorded event files' stats, taken on the stat thread (load.ts)
    if (table && taking.finish !== null) table.current = await taking.finish().catch(() => null);
    else taking.abandon();
    return { ...changes, changed: Array.from(eventFiles, (_, i) => i), texts: null };
  }
  const { fileMap, changed, texts } = changes;
  let index: Map<string, number> | null = null;
  const { eventStats, eventKeys } = next!;
  const common = Math.min(eventFiles.length, previousFiles.length);
  eventStats.set(state.eventStats.subarray(0, common * STAT_FIELDS));
  state.eventKeys.copy(eventKeys, 0, 0, common * KEY_BYTES);
  const stats = state.eventStats;
  const current = await taking.finish!();
  const kind = `${EVENTS_KIND}${state.zone}`;
  const poolFrom = options.poolFrom ?? POOL_FROM;
  for (let now = 0; now < eventFiles.length; now++) {
    const file = eventFiles[now];
    const at = now < previousFiles.length && previousFiles[now] === file ? now : (index ??= new Map(previousFiles.map((f, i) => [f, i]))).get(file);
    if (at !== undefined) {
      if (current[at * STAT_FIELDS] < 0n) refuse(`${file} cannot be stat'ed`);
      fileMap[at] = now;
      if (freshStatAt(stats, at, current, at, state.safe, margin)) {
        if (at !== now) {
          eventStats.set(stats.subarray(at * STAT_FIELDS, (at + 1) * STAT_FIELDS), now * STAT_FIELDS);
          state.eventKeys.copy(eventKeys, now * KEY_BYTES, at * KEY_BYTES, (at + 1) * KEY_BYTES);
        }
        continue;
      }
    }
    const read = readContentFile(content, file, undefined, true);
    if (!read.ok) refuse(`${file} cannot be read`);
    // touched, copied, or changed and changed back: the same text is the same events
    const key = parseKey(kind, file, read.bytes);
    putStat(eventStats, now, read.stat!);
    key.copy(eventKeys, now * KEY_BYTES);
    if (at !== undefined && stats[at * STAT_FIELDS] >= 0n && key.equals(state.eventKeys.subarray(at * KEY_BYTES, (at + 1) * KEY_BYTES))) continue;
    if (at !== undefined) changes.reread[at] = 1;
    if (changed.push(now) <= poolFrom) texts!.push(read.text);
  }
  return changed.length <= poolFrom ? changes : { ...changes, texts: null };
}

/** The events of the changed files, with their files' new indexes, and the files' problems (in the listing's order): parsed here from their texts, else on the parse threads (read again there, each file's stat and key put over those of the read that found it changed). */
async function parseChanged({ files, pool, zone }: Reading, { changed, texts }: ChangedEventFiles): Promise<Fresh> {
  const names = changed.map((now) => files.events[now]);
  const parses = texts !== null ? texts.map((text, j) => parseEventFile(names[j], text, zone)) : ((await pool!.parseMany(`${EVENTS_KIND}${zone}`, 'events', zone, names, files.raw)) as Parsed<Event>[]);
  const fresh: Fresh = { records: [], recordFiles: [], problems: [] };
  changed.forEach((now, j) => {
    for (const r of collectInto(parses[j], fresh.problems)) {
      fresh.records.push(r);
      fresh.recordFiles.push(now);
    }
  });
  return fresh;
}

const collectInto = <T>({ records, problems }: Parsed<T>, into: Problem[]) => (append(into, problems), records);

/** The state's rows that stay (those of files neither gone nor read again), and how many files went. */
function rowsThatStay(state: EventState, events: EventFiles): { keep: Uint8Array; removed: number } {
  const n = state.rows.id.length;
  const keep = new Uint8Array(n);
  for (let row = 0; row < n; row++) {
    const f = state.rows.file[row];
    if (events.fileMap[f] >= 0 && events.reread[f] === 0) keep[row] = 1;
  }
  let removed = 0;
  for (let f = 0; f < events.fileMap.length; f++) if (events.fileMap[f] < 0) removed++;
  return { keep, removed };
}

/** The checks a full build runs on the new events (ids unique, references known), their issues; over a prior a media file with problems, changed or moved refuses. */
async function checkFresh(content: string, state: EventState, fresh: Fresh, events: EventFiles, keep: Uint8Array, categoryIds: readonly number[], prior: boolean): Promise<FileIssue[]> {
  const fileOf = new Map<number, number>();
  for (let row = 0; row < keep.length; row++) if (keep[row] === 1) fileOf.set(state.rows.id[row], state.rows.file[row]);
  const issues: FileIssue[] = [];
  checkEvents(withRepeated(content, state, fresh, events.fileMap, fileOf), { pages: state.pages, categories: new Map(categoryIds.map((id) => [id, true])), media: state.media }, issues);
  if (!prior) return issues;
  // the media records are resolved again: a file behind one that changed or moved means a full build
  const media = structuredClone(state.mediaSources);
  const found = issues.length;
  await resolveMediaFiles(content, media, issues);
  if (issues.length > found) refuse('a media file has problems');
  for (const m of media) {
    const before = state.media.get(m.value.media.id);
    if (before === undefined || !sameMedia(before, m.value.media)) refuse('a media file changed');
  }
  return issues;
}

/**
 * The fresh records and, where one has the id of an event that stays (`fileOf`: its file by its
 * id), every record of that event's file, read and parsed again, in the listing's order: of the
 * records a whole load checks, those that can have an issue (a repeated id is told in every file).
 */
function withRepeated(content: string, state: EventState, { records, recordFiles }: Fresh, fileMap: Int32Array, fileOf: ReadonlyMap<number, number>): Sourced<Event>[] {
  const files = new Set<number>();
  for (const r of records) if (fileOf.has(r.value.id)) files.add(fileOf.get(r.value.id)!);
  if (files.size === 0) return records;
  const all = records.map((r, i) => ({ r, at: recordFiles[i] }));
  for (const f of files) {
    const read = readContentFile(content, state.eventFiles[f]);
    const parsed = read.ok ? parseEventFile(state.eventFiles[f], read.text, state.zone) : null;
    if (parsed === null || parsed.problems.length > 0) refuse('a changed event repeats an id, and its file cannot be read again');
    for (const r of parsed.records) all.push({ r, at: fileMap[f] });
  }
  return all.sort((a, b) => a.at - b.at).map(({ r }) => r);
}

const sameMedia = (a: object, b: object) => JSON.stringify(Object.entries(a).sort()) === JSON.stringify(Object.entries(b).sort());
