// The load stage over the event state (state/event-state.ts): what changed since the build the
// state describes, found without loading the model. The state and the previous dist must be the
// ones the state names; every content file other than the event, directory and categories files
// must be unchanged (by its stat, else by its parse's key); the directory, where one of its files
// changed, came or went, is read again as a stage of its own (directory/directory-stage.ts), and so
// are the categories (changedCategories); the event files changed or added are read, parsed and
// checked as a full build checks them (ids unique against the state's, references to pages,
// categories and media), and the media files resolved again; and every file of the previous dist
// the render over the state takes is proven by the ledger (provenDist). Anything else refuses
// (NoPatch): the load is then over an empty base (load-all.ts), before anything is staged. Changed
// event files' problems and the directory's are reported from their records, as a whole load would.
import { join, resolve } from 'node:path';
import { checkEvents, parseEventFile } from '../../content/events.ts';
import { readContentFile, type ContentFiles } from '../../content/files.ts';
import type { Listed } from '../../content/load.ts';
import { indexCategories, readCategory } from '../../content/categories.ts';
import { resolveMediaFiles } from '../../content/media.ts';
import { compareProblems, type FileIssue, type Problem } from '../../content/problems.ts';
import { parseFile, type Parsed, type Sourced } from '../../content/records.ts';
import type { Event } from '../../model/types.ts';
import { wholeEvent, type TextlessEvent } from '../../model/event-texts.ts';
import type { CacheStats } from '../cache/build-cache.ts';
import type { ParsePool } from './parse-pool.ts';
import { compareListOrder, renderCategory } from '../../render/event.ts';
import { toJson } from '../../util/json.ts';
import type { Manifest } from '../../store/format/manifest.ts';
import { AUTOCOMPLETE_DATA_FILE, AUTOCOMPLETE_DIR, DATA_FILES, EVENT_PART_ROWS, eventOffsetsFiles, eventPartFiles } from '../../store/format/dist-paths.ts';
import { COLUMN_FILES } from '../../store/format/column-files.ts';
import { MEDIA_FILES_INDEX } from '../../store/format/public-files.ts';
import type { PreviousData } from '../../store/write/event-data.ts';
import { previousFiles } from '../render/previous-data.ts';
import { parseKey } from '../cache/build-cache.ts';
import { COMPRESSOR, type DistLedger } from '../ledger/dist-ledger.ts';
import { normalizeBaseUrl, type BuildOptions, type Clock } from '../run.ts';
import type { EventState } from '../state/event-state.ts';
import { EVENTS_KIND, fileStat, OTHER_KINDS, freshStatAt, KEY_BYTES, MARGIN_NS, putStat, STAT_FIELDS, type FileStats } from '../state/stat-fields.ts';
import { refuse } from '../state/no-patch.ts';
import type { PreviousBuild } from '../state/previous-build.ts';
import type { RecordedStats } from './stat-table.ts';
import type { DirectoryStage } from '../directory/directory-stage.ts';

/**
 * More changed event files than this are parsed on the parse threads; fewer are parsed here, where
 * they cost less CPU: the threads' start and the parses' hand-over cost more than the parse of a
 * few thousand files (the figures are in bench/results.md).
 */
const POOL_FROM = 4096;

/** The event files as they are now against the state's: which changed, which stay. */
interface EventFiles {
  /** state file index → new index, -1 for removed files; and the new file list */
  fileMap: Int32Array;
  eventFiles: string[];
  eventStats: BigInt64Array;
  eventKeys: Buffer;
  /** the records of the files read again (changed or added), with their files' new indexes */
  records: Sourced<Event>[];
  recordFiles: number[];
  /** state file indexes read again */
  reread: Uint8Array;
  parsed: number;
  /** the changed files' parse problems, in the listing's order */
  problems: Problem[];
}

export interface Plan extends Omit<EventFiles, 'records' | 'recordFiles' | 'reread' | 'parsed' | 'problems'>, Pick<FileStats, 'otherFiles' | 'otherStats' | 'otherKeys'> {
  /** the prior's state; over an empty prior, the model's, with no rows */
  state: EventState;
  /** the previous dist's manifest and ledger, and its event data, each file proven when it is read (none over an empty prior) */
  previous: Manifest | null;
  ledger: DistLedger | null;
  data: PreviousData | null;
  baseUrl: string;
  safe: bigint;
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
  /** the rows the parse threads made ahead (none over a prior: its few fresh events are rendered by the render stage) */
  ahead: Pick<ParsePool, 'rowsFor' | 'rowsMade' | 'dropRows'>;
  /** the files no event shapes, made by the load (categories over an empty prior), and those taken from the previous dist as they are (over a prior) */
  made: ReadonlyMap<string, string | Uint8Array>;
  carried: readonly string[];
  /** true: no state is kept (no cache, or an event's file not known) */
  stateless: boolean;
  /** the parse cache's counts; why the prior was not taken (null: it was) */
  cache: CacheStats | undefined;
  refused: string | null;
  /** lets go of the directory's worker and the rows made ahead (a build that stops) */
  abandon(): void;
}

/** A load's plan, or the content's problems. */
export type Loaded = { plan: Plan; problems?: undefined } | { plan?: undefined; problems: Problem[]; cache: CacheStats | undefined; refused: string | null };

/** Over a prior nothing is made ahead: every fresh event is whole, rendered against the build's context. */
const NONE_AHEAD: Plan['ahead'] = { rowsFor: () => ({ premade: undefined, whole: wholeEvent }), rowsMade: () => null, dropRows: () => {} };

/** `listed`: the content folder's listing, asked for once `stats` (the state's event files': beginRecordedStats) are begun; a refusal leaves both to the load over an empty base. */
export async function loadOver(options: BuildOptions, prior: PreviousBuild, clock: Clock, listed: () => Promise<Listed>, stats: RecordedStats): Promise<Loaded> {
  const content = resolve(options.content);
  const { previous, state, ledger } = prior;
  if (state.zone !== state.site.timezone) refuse('the state is of another zone');
  const baseUrl = normalizeBaseUrl(options.baseUrl ?? state.site.base_url);
  if (baseUrl !== previous.base_url) refuse('another base URL');
  // taken before any content file was stat'ed: the stats recorded now are judged against it
  const safe = stats.safe ?? refuse('the cache folder cannot be written');
  const margin = options.statMarginNs ?? MARGIN_NS;
  // the state's event files are stat'ed on two threads (stat-files.ts) while this one lists the
  // content folder: the files listed that the state has not are stat'ed as they are read
  const listing = await listed();
  const files = 'files' in listing ? listing.files : refuse('the content folder cannot be listed');
  if (files.problems.length > 0 || files.raw.size > 0) refuse('the content folder has problems or raw names');
  const others = unchangedOthers(content, files, state, margin);
  const events = await eventFileChanges(options, content, files.events, state, margin, stats.finish!);
  const categories = others.categories === null ? null : changedCategories(content, others.categories, others.texts, state);
  const { keep, removed } = rowsThatStay(state, events);
  const issues = await checkFresh(content, state, events, keep, categories?.ids ?? state.categoryIds);
  // as a whole load counts them: files taken without a parse
  const cache = { hits: others.files.length + files.events.length - events.parsed - (others.directory?.length ?? 0) - (others.categories?.length ?? 0), misses: events.parsed, corrupt: 0, foreign: false };
  // imported here: a build after an event edit needs neither the directory's parse nor its indexing
  const read = others.directory && (await import('../directory/directory-stage.ts')).readDirectory(options, others.directory);
  const problems = [...events.problems, ...(read?.problems ?? [])];
  if (problems.length > 0 || issues.length > 0) return reportedProblems(options, content, files, problems, issues, cache);
  for (const { value: e } of events.records) if (!Number.isFinite(e.start) || !Number.isFinite(e.end) || !Number.isFinite(e.last_modified)) refuse('an event has no time');
  // the files no event shapes taken as they are, where their files did not change
  const carried = [...(categories === null ? [DATA_FILES.categories] : []), ...(others.directory === null ? [AUTOCOMPLETE_DATA_FILE] : [])];
  const data = provenDist(options, prior, carried);
  const directory = read && (await import('../directory/directory-stage.ts')).directoryStage(options, read, others.directory!.length);
  // told here, where nothing refuses any more: a load refused before this point tells them itself (load-all.ts)
  if (files.notRead.length > 0) options.onNotRead?.(files.notRead);
  clock.phase('patch: find changes', 'render data');
  const { records, recordFiles, reread: _reread, parsed: _parsed, problems: _problems, ...rest } = events;
  const order = records.map((_, i) => i).sort((a, b) => compareListOrder(records[a].value, records[b].value));
  return { plan: {
    ...rest, state: categories === null ? state : { ...state, categoryIds: categories.ids }, previous, ledger, baseUrl, safe, otherFiles: others.files, otherStats: others.stats, otherKeys: others.keys,
    fresh: order.map((i) => records[i].value),
    freshFiles: order.map((i) => recordFiles[i]),
    keep, removed,
    data,
    directory,
    ahead: NONE_AHEAD,
    made: new Map(categories === null ? [] : [[DATA_FILES.categories, categories.json]]),
    carried,
    stateless: false,
    cache,
    refused: null,
    abandon: () => directory?.job.cancel(),
  } };
}

/** The changed event files' and the directory's (where it was read again) parse problems and issues, all a whole load finds: the prior's other files had none. */
async function reportedProblems(options: BuildOptions, content: string, files: ContentFiles, problems: Problem[], issues: FileIssue[], cache: CacheStats): Promise<Loaded> {
  // imported here: only a build with problems positions issues
  const { locateProblems } = await import('../../content/load.ts');
  if (files.notRead.length > 0) options.onNotRead?.(files.notRead);
  return { problems: [...problems, ...locateProblems(content, issues, files.raw)].sort(compareProblems), cache, refused: null };
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
function unchangedOthers(content: string, files: ContentFiles, state: EventState, margin: bigint) {
  const recorded = new Map(state.otherFiles.map((id, i) => [id, i]));
  const kinds = OTHER_KINDS.flatMap((kind) => files[kind].map((file) => [kind, file] as const));
  const ids = kinds.map(([kind, file]) => `${kind}\0${file}`);
  const stats = new BigInt64Array(ids.length * STAT_FIELDS);
  const keys = Buffer.alloc(ids.length * KEY_BYTES);
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
    // (a directory file that cannot be read is its problem: readDirectory reports it)
    if (!read.ok) return void change(kind, `${file} cannot be read`);
    putStat(stats, j, read.stat!);
    parseKey(kind, file, read.bytes).copy(keys, j * KEY_BYTES);
    if (kind === 'categories') texts.set(file, read.text);
    if (i === undefined || state.otherStats[i * STAT_FIELDS] < 0n || !keyAt(keys, j).equals(keyAt(state.otherKeys, i))) change(kind, `${file} changed`);
  });
  for (const id of recorded.keys()) change(id.slice(0, id.indexOf('\0')), 'a content file other than an event file was removed');
  const named = (kind: string) => (changed.has(kind) ? kinds.filter(([k]) => k === kind).map(([, file]) => file) : null);
  return { files: ids, stats, keys, directory: named('directory'), categories: named('categories'), texts };
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

/**
 * The event files: unchanged by their stat (`stating`: the state's files' stats, by the state's
 * order), else read again (changed or added) and, where their text is not the one the state
 * recorded, parsed on the parse threads as a whole load parses (ParsePool); the rest removed. The
 * loop runs once per event file (most of a site's files): it is kept to comparisons with the stats
 * taken before it (no path joins, no map look-up, no per-file copies). The listing is sorted, as
 * the state's is, so a file is usually found at its own index (the map is made only when one is
 * not); the stats and keys are copied whole first and only those of files read again are put over them.
 */
async function eventFileChanges(options: BuildOptions, content: string, eventFiles: string[], state: EventState, margin: bigint, stating: () => Promise<BigInt64Array>): Promise<EventFiles> {
  const previousFiles = state.eventFiles;
  let index: Map<string, number> | null = null;
  const fileMap = new Int32Array(previousFiles.length).fill(-1);
  const eventStats = new BigInt64Array(eventFiles.length * STAT_FIELDS);
  const eventKeys = Buffer.alloc(eventFiles.length * KEY_BYTES);
  const common = Math.min(eventFiles.length, previousFiles.length);
  eventStats.set(state.eventStats.subarray(0, common * STAT_FIELDS));
  state.eventKeys.copy(eventKeys, 0, 0, common * KEY_BYTES);
  const changes: EventFiles = { fileMap, eventFiles, eventStats, eventKeys, records: [], recordFiles: [], reread: new Uint8Array(previousFiles.length), parsed: 0, problems: [] };
  const stats = state.eventStats;
  const current = await stating();
  const kind = `${EVENTS_KIND}${state.zone}`;
  const poolFrom = options.poolFrom ?? POOL_FROM;
  // the files whose text changed, by their new indexes, and while they are few, their texts as read
  const changed: number[] = [];
  const texts: string[] = [];
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
    if (changed.push(now) <= poolFrom) texts.push(read.text);
  }
  changes.parsed = changed.length;
  const parses = changed.length <= poolFrom ? texts.map((text, j) => parseEventFile(eventFiles[changed[j]], text, state.zone)) : await parseOnThreads(options, content, state.zone, changed, changes);
  changed.forEach((now, j) => {
    const { records, problems } = parses[j];
    changes.problems.push(...problems);
    for (const r of records) {
      changes.records.push(r);
      changes.recordFiles.push(now);
    }
  });
  return changes;
}

/**
 * The changed event files (`changed`, their indexes) parsed on the parse threads, as a whole load
 * parses them (parse-pool.ts): read again there, each file's stat and key put (stat-table.ts) over
 * those of the read that found it changed, so that they are the ones its parse was made of.
 */
async function parseOnThreads(options: BuildOptions, content: string, zone: string, changed: readonly number[], changes: EventFiles): Promise<Parsed<Event>[]> {
  // imported here: a build after a few edits parses them on this thread
  const [{ ParsePool }, { StatTable }] = await Promise.all([import('./parse-pool.ts'), import('./stat-table.ts')]);
  const { eventFiles, eventStats, eventKeys } = changes;
  const next = { safe: 0n, eventFiles, eventStats, eventKeys, otherFiles: [], otherStats: new BigInt64Array(0), otherKeys: Buffer.alloc(0), otherIndex: new Map() };
  const pool = new ParsePool(content, new StatTable(null, null, { ...next, eventIndex: new Map(changed.map((now) => [eventFiles[now], now])) }), { threads: options.parseThreads });
  try {
    return (await pool.parseMany(`${EVENTS_KIND}${zone}`, 'events', zone, changed.map((now) => eventFiles[now]), new Map())) as Parsed<Event>[];
  } finally {
    pool.close();
  }
}

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

/** The checks a full build runs on the new events (ids unique, references known), their issues; a media file with problems, changed or moved refuses. */
async function checkFresh(content: string, state: EventState, events: EventFiles, keep: Uint8Array, categoryIds: readonly number[]): Promise<FileIssue[]> {
  const fileOf = new Map<number, number>();
  for (let row = 0; row < keep.length; row++) if (keep[row] === 1) fileOf.set(state.rows.id[row], state.rows.file[row]);
  const issues: FileIssue[] = [];
  checkEvents(withRepeated(content, state, events, fileOf), { pages: state.pages, categories: new Map(categoryIds.map((id) => [id, true])), media: state.media }, issues);
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
function withRepeated(content: string, state: EventState, events: EventFiles, fileOf: ReadonlyMap<number, number>): Sourced<Event>[] {
  const { records, recordFiles, fileMap } = events;
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
