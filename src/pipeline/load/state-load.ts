// The load stage: what changed since a base, as the plan the render takes, or the content's
// problems. The base is the previous build (state/previous-build.ts) where it stands, else an empty
// one over which every file counts as changed and the site, pages, categories and media are read
// as the context. Over the prior every content file but the event, directory and categories files
// must be as it recorded it, and the previous dist's files the render takes are proven by the
// ledger. The changed event files are parsed and checked as a full build checks them.
import { join, resolve } from 'node:path';
import { checkEvents, parseEventFile } from '../../content/events.ts';
import { readContentFile, type ContentFiles } from '../../content/files.ts';
import { listingOver } from '../../content/listed-folders.ts';
import type { Listed } from '../../content/load.ts';
import { indexCategories } from '../../content/categories.ts';
import { resolveMediaFiles, type MediaSource } from '../../content/media.ts';
import { compareProblems, folderProblem, type FileIssue, type Problem } from '../../content/problems.ts';
import type { Parsed, Sourced } from '../../content/records.ts';
import type { Category, Event } from '../../model/types.ts';
import { wholeEvent, type TextlessEvent } from '../../model/event-texts.ts';
import { parseKey } from '../cache/keys.ts';
import type { ParsePool } from './parse-pool.ts';
import { listOrderOf, renderCategory } from '../../render/event.ts';
import { toJson } from '../../util/json.ts';
import type { Manifest } from '../../store/format/manifest.ts';
import { AUTOCOMPLETE_DATA_FILE, AUTOCOMPLETE_DIR, DATA_FILES, loadedFiles } from '../../store/format/dist-paths.ts';
import { MEDIA_FILES_INDEX } from '../../store/format/public-files.ts';
import type { PreviousData } from '../../store/write/event-data.ts';
import { previousFiles } from '../render/previous-data.ts';
import { COMPRESSOR, type DistLedger } from '../ledger/dist-ledger.ts';
import type { BuildOptions, Clock } from '../run.ts';
import { normalizeBaseUrl } from '../../util/base-path.ts';
import { emptyState, type EventState } from '../state/event-state.ts';
import { EVENTS_KIND, fileStat, OTHER_KINDS, freshStatAt, KEY_BYTES, MARGIN_NS, NO_STATS, putStat, STAT_FIELDS, type FileStats } from '../state/stat-fields.ts';
import { patchOptions, refusal, refuse, type PreviousBuild, type Prior } from '../state/previous-build.ts';
import { beginRecordedStats, NextStats, nextStats, type EarlyStats, type RecordedStats } from './next-stats.ts';
import type { DirectoryStage } from '../directory/directory-job.ts';
import { append } from '../../util/append.ts';

/** More changed event files than this are parsed on the parse threads, fewer here: the threads' start and hand-over cost more than a few thousand parses. */
const POOL_FROM = 4096;

/** The records of the files read again (changed or added), with their files' new indexes, and the files' parse problems (in the listing's order). */
type Fresh = { records: Sourced<Event>[]; recordFiles: number[]; problems: Problem[] };

export interface Plan extends Pick<ChangedEventFiles, 'fileMap' | 'removed'>, FileStats {
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
  /** lets go of the directory's worker and the rows made ahead (a build that stops) */
  abandon(): void;
}

/** Content files taken unchanged over the prior (by their stat or parse key), and parsed: over the prior the changed event files (a changed directory's or categories' files are parsed besides), over an empty base all. */
export type ParseCounts = { reused: number; parsed: number };

/** A load's plan, or null and the content's problems; the content files taken unchanged and parsed (none without a cache), and why the prior was not taken (null: it was). */
export type Loaded = { plan: Plan | null; problems: Problem[]; cache: ParseCounts | undefined; refused: string | null };

/** Nothing made ahead: every fresh event is whole, rendered against the build's context. */
export const NONE_AHEAD: Plan['ahead'] = { rowsFor: () => ({ premade: undefined, whole: wholeEvent }), dropRows: () => {} };

/** The files read and parsed over the base, each recorded (`recorder`: none without a cache): through the parse pool, but for a few edited event files alone (no pool: parsed here from their texts). */
interface Reading {
  content: string;
  files: ContentFiles;
  recorder: NextStats | undefined;
  pool: ParsePool | null;
  zone: string;
  margin: bigint;
}

/** What a load is over: the prior (`build`), else an empty base, and why the prior was not taken (null: it was). */
type Base = { build: PreviousBuild | null; state: EventState; reason: string | null };

/** The content files other than event files against the base's: the context as it stands, and what is read of them. */
interface Others {
  /** the base's state with the context read: over an empty base all of it, over the prior the categories where they changed */
  state: EventState;
  problems: Problem[];
  /** the categories read and their file (null: the previous dist's stands) */
  categories: { ids: number[]; json: string } | null;
  /** the directory's files, read where they changed (null: the previous dist's directory files stand) */
  directory: readonly string[] | null;
  cache: ParseCounts | undefined;
}

/** The load over the prior where it stands, else over an empty base (`early`: the recorded event files' stats, begun as the command started). */
export async function load(options: BuildOptions, out: string, clock: Clock, prior: Prior, early?: EarlyStats): Promise<Loaded> {
  const taking = beginRecordedStats(options, prior.build?.state ?? null, early, prior.build?.namesRead);
  // the recorded listing but for the folders that changed, which are listed (nothing recorded: the whole folder)
  const listing = listingOver(resolve(options.content), taking.safe === null ? null : (prior.build?.state ?? null), options.statMarginNs ?? MARGIN_NS);
  let reason = prior.reason;
  if (prior.build !== null) {
    try {
      const listed = await listing;
      proveBase(options, prior.build, listed, taking);
      return await loadOver(options, { build: prior.build, state: prior.build.state, reason: null }, clock, listed, taking);
    } catch (e) {
      reason = refusal(e);
    }
  }
  // over an empty base none of the recorded stats is wanted
  taking.stating?.abandon();
  const state = emptyState({ content: resolve(options.content), out, options: patchOptions(options) });
  return loadOver(options, { build: null, state, reason }, clock, await listing, taking);
}

/** `listing`: the content folder's, asked for once `taking` (the recorded event files' stats: beginRecordedStats) was begun. */
async function loadOver(options: BuildOptions, base: Base, clock: Clock, listing: Listed, taking: RecordedStats): Promise<Loaded> {
  const content = resolve(options.content);
  if ('folderProblem' in listing) {
    return { plan: null, problems: [folderProblem(content, listing.folderProblem)], cache: undefined, refused: base.reason };
  }
  const { files } = listing;
  const next = taking.safe === null ? null : nextStats(taking.safe, files, content);
  const read: Reading = { content, files, recorder: next === null ? undefined : new NextStats(next), pool: null, zone: base.build?.state.site.timezone ?? '', margin: options.statMarginNs ?? MARGIN_NS };
  let directory: DirectoryStage | null = null;
  let pool: ParsePool | null = null;
  // (it refers to neither the records nor the listing: the plan holds it through the render)
  const abandon = () => {
    directory?.job.cancel();
    pool?.dropRows();
  };
  try {
    // over the prior the other files first: one that refuses costs no event file's read
    const unchanged = base.build && unchangedOthers(read, base.state);
    // over an empty base every listed event file is changed
    const events = base.build ? await eventFileChanges(options, read, base.state, taking) : { fileMap: new Int32Array(0), removed: 0, changed: Array.from(files.events, (_, i) => i), texts: null };
    // (imported here: a build over a few edited event files, and nothing else to parse, parses them on this thread)
    if (events.texts === null || !unchanged || unchanged.directory || unchanged.categories) read.pool = pool = new (await import('./parse-pool.ts')).ParsePool(content, read.recorder, { threads: options.parseThreads });
    const issues: FileIssue[] = [];
    const others = unchanged ? await priorOthers(read, base.state, unchanged, events) : await readContext(options, read, base.state, issues);
    const { state, problems, categories, cache } = others;
    const dir = others.directory && (await import('../directory/directory-job.ts')).directoryOnPool(options, pool!.handOn(read.zone, others.directory, files.raw), problems.length === 0);
    const parsing = parseChanged(read, events);
    // (a thread failing in the events must not leave their rejection unheard while the directory is awaited)
    void parsing.catch(() => {});
    const dirRead = await dir;
    directory = dirRead?.stage ?? null;
    const fresh = await parsing;
    // the rows of files neither gone nor read again
    const keep = new Uint8Array(state.rows.id.length).map((_, row) => (events.fileMap[state.rows.file[row]] >= 0 ? 1 : 0));
    // the checks a full build runs on the new events (ids unique, references known)
    checkEvents(withRepeated(content, state, fresh, events.fileMap, keep), { pages: state.pages, categories: new Map(state.categoryIds.map((id) => [id, true])), media: state.media }, issues);
    append(issues, dirRead?.issues ?? []);
    append(append(problems, fresh.problems), dirRead?.problems ?? []);
    const clean = problems.length === 0 && issues.length === 0;
    const baseUrl = clean ? normalizeBaseUrl(options.baseUrl ?? state.site.base_url) : '';
    const { data, carried } = clean && base.build ? provenDist(options, base.build, fresh, others) : { data: null, carried: [] };
    // told here, where nothing refuses any more
    if (files.notRead.length > 0) options.onNotRead?.(files.notRead);
    if (!clean) {
      abandon();
      // imported here: only a build with problems positions issues
      const { locateProblems } = await import('../../content/load.ts');
      return { plan: null, problems: [...problems, ...locateProblems(content, issues, files.raw)].sort(compareProblems), cache, refused: base.reason };
    }
    directory?.job.compressNow();
    clock.phase(base.build ? 'patch: find changes' : 'load content', 'render data');
    const order = listOrderOf(fresh.records.map((r) => r.value));
    return { plan: {
      ...(next ?? NO_STATS), fileMap: events.fileMap, state, previous: base.build?.previous ?? null, ledger: base.build?.ledger ?? null, baseUrl,
      fresh: Array.from(order, (i) => fresh.records[i].value),
      freshFiles: Array.from(order, (i) => fresh.recordFiles[i]),
      keep, removed: events.removed, data, directory,
      ahead: read.pool ?? NONE_AHEAD,
      made: new Map(categories ? [[DATA_FILES.categories, categories.json]] : []),
      carried, stateless: next === null, abandon,
    }, problems: [], cache, refused: base.reason };
  } catch (e) {
    abandon();
    throw e;
  } finally {
    void pool?.close();
  }
}

/** The other files over the prior: the media files resolved again, the categories read again where they changed. */
async function priorOthers(read: Reading, state: EventState, unchanged: ReturnType<typeof unchangedOthers>, events: ChangedEventFiles): Promise<Others> {
  await mediaUnchanged(read.content, state);
  const categories = unchanged.categories && (await changedCategories(read, unchanged.categories, state));
  // as a whole load counts them: files taken without a parse
  const reused = unchanged.files - (unchanged.directory?.length ?? 0) - (unchanged.categories?.length ?? 0) + read.files.events.length - events.changed.length;
  return {
    state: categories ? { ...state, categoryIds: categories.ids } : state, problems: [], categories, directory: unchanged.directory,
    cache: { reused, parsed: events.changed.length },
  };
}

/** The context over an empty base: the site, pages, categories and media read, parsed and recorded, the media files resolved, all checked across files. */
async function readContext(options: BuildOptions, read: Reading, state: EventState, issues: FileIssue[]): Promise<Others> {
  const { parseContext, checkContext, zoneOf } = await import('../../content/load.ts');
  const { problems, mediaIssues, ...context } = await parseContext(read.content, read.files, read.recorder);
  const across = checkContext(context, mediaIssues, issues);
  read.zone = zoneOf(context.site);
  const { site } = context;
  const pages = new Map(Array.from(across.pagesByUid, ([uid, r]) => [uid, r.value]));
  const media = new Map(Array.from(across.mediaById, ([id, r]) => [id, r.value.media]));
  const categories = { ids: across.categoryList.map((c) => c.id), json: toJson(across.categoryList.map(renderCategory)) };
  let baseUrl: string | null = null;
  try {
    baseUrl = normalizeBaseUrl(options.baseUrl ?? site.base_url);
  } catch {
    // (thrown once the content is known to have no problems)
  }
  // the threads render the events' rows as they parse them, against the context as read (ParsePool.rowsFor)
  if (baseUrl !== null) read.pool!.render({ site, baseUrl, pages, media });
  const withContext = { ...state, site, pages, media, categoryIds: categories.ids, mediaSources: context.media as Sourced<MediaSource>[] };
  const listed = OTHER_KINDS.reduce((n, kind) => n + read.files[kind].length, read.files.events.length);
  return { state: withContext, problems, categories, directory: read.files.directory, cache: options.cache === undefined ? undefined : { reused: 0, parsed: listed } };
}

/** The refusals of a prior before any content file is read: another base URL, no time for the stats, a listing with problems or raw names. */
function proveBase(options: BuildOptions, { state, previous }: PreviousBuild, listing: Listed, taking: RecordedStats): void {
  if (normalizeBaseUrl(options.baseUrl ?? state.site.base_url) !== previous.base_url) refuse('another base URL');
  // taken before any content file was stat'ed: the stats recorded now are judged against it
  if (taking.safe === null) refuse('the cache folder cannot be written');
  if (!('files' in listing)) refuse('the content folder cannot be listed');
  if (listing.files.problems.length > 0 || listing.files.raw.size > 0) refuse('the content folder has problems or raw names');
}

/**
 * The previous dist as the render over the state takes it, proven by the ledger before anything
 * is staged: its event data files (previousFiles), the files no event shapes (categories, the
 * autocomplete files) where theirs did not change, with twins made as the pool makes them, and no
 * file it does not account for.
 */
function provenDist(options: BuildOptions, prior: PreviousBuild, { records }: Fresh, { categories, directory }: Others): { data: PreviousData; carried: readonly string[] } {
  const { previous, state, ledger } = prior;
  for (const { value: e } of records) if (!Number.isFinite(e.start) || !Number.isFinite(e.end) || !Number.isFinite(e.last_modified)) refuse('an event has no time');
  const data = previousFiles(prior, state.out) ?? refuse('the previous data files are not proven');
  const then = ledger.precompressed;
  if (options.precompress !== false && (!then || !previous.precompressed || then.compressor !== COMPRESSOR || previous.precompressed.volume !== then.volume)) refuse('no twins to reuse');
  const publicFiles = previous.public_files ?? refuse('no public files');
  // the files taken as they are, each the ledger's on disk: categories.json the manifest's, the autocomplete files the public files'
  const taken = new Map<string, string | undefined>();
  if (!categories) taken.set(DATA_FILES.categories, previous.files[DATA_FILES.categories]?.sha256);
  if (directory === null) {
    taken.set(AUTOCOMPLETE_DATA_FILE, ledger.entry(AUTOCOMPLETE_DATA_FILE)?.sha);
    for (const [rel, sha] of Object.entries(publicFiles)) if (rel.startsWith(`${AUTOCOMPLETE_DIR}/`)) taken.set(rel, sha);
  }
  for (const [rel, sha] of taken) if (sha === undefined || !ledger.wouldReuse(rel, sha, null)) refuse(`${rel} is not proven`);
  const known = new Set<string>([...loadedFiles(previous), MEDIA_FILES_INDEX]);
  for (const rel of Object.keys(previous.files)) if (!known.has(rel) && !rel.startsWith(`${AUTOCOMPLETE_DIR}/`)) refuse(`${rel} is not accounted for`);
  return { data, carried: [...taken.keys()].filter((rel) => !rel.startsWith(`${AUTOCOMPLETE_DIR}/`)) };
}

/**
 * Every other content file: the same set as the state's, each unchanged (by its stat, else by its
 * parse's key), but for the directory's and the categories' files, which may change, come and go.
 */
function unchangedOthers({ content, files, recorder, margin }: Reading, state: EventState) {
  const { files: ids, stats, keys, eventCount } = recorder!.next;
  const recorded = new Map(state.files.slice(state.eventCount).map((id, i) => [id, state.eventCount + i]));
  const kinds = OTHER_KINDS.flatMap((kind) => files[kind].map((file) => [kind, file] as const));
  const keyAt = (b: Buffer, i: number) => b.subarray(i * KEY_BYTES, (i + 1) * KEY_BYTES);
  const changed = new Set<string>();
  const change = (kind: string, why: string) => (kind === 'directory' || kind === 'categories' ? changed.add(kind) : refuse(why));
  kinds.forEach(([kind, file], k) => {
    const j = eventCount + k;
    const i = recorded.get(ids[j]);
    recorded.delete(ids[j]);
    if (i === undefined) change(kind, `${file} is new`);
    putStat(stats, j, fileStat(join(content, file)));
    if (i !== undefined && freshStatAt(state.stats, i, stats, j, state.safe, margin)) return void state.keys.copy(keys, j * KEY_BYTES, i * KEY_BYTES, (i + 1) * KEY_BYTES);
    const read = readContentFile(content, file, undefined, true);
    // (a directory or categories file that cannot be read is its problem, told where it is parsed)
    if (!read.ok) return void change(kind, `${file} cannot be read`);
    putStat(stats, j, read.stat!);
    parseKey(kind, file, read.bytes).copy(keys, j * KEY_BYTES);
    if (i === undefined || state.stats[i * STAT_FIELDS] < 0n || !keyAt(keys, j).equals(keyAt(state.keys, i))) change(kind, `${file} changed`);
  });
  for (const id of recorded.keys()) change(id.slice(0, id.indexOf('\0')), 'a content file other than an event file was removed');
  const named = (kind: 'directory' | 'categories') => (changed.has(kind) ? files[kind] : null);
  return { files: kinds.length, directory: named('directory'), categories: named('categories') };
}

/**
 * The categories parsed again over the prior and checked, and their categories.json. Rows hold
 * their categories' ids alone, so every row stays; an id gone could be one a kept row names, and
 * refuses, as does a problem (the whole load reports it).
 */
async function changedCategories(read: Reading, files: readonly string[], state: EventState): Promise<{ ids: number[]; json: string }> {
  const parsed = (await read.pool!.parseMany('categories', 'categories', read.zone, files, read.files.raw)) as Parsed<Category>[];
  const issues: FileIssue[] = [];
  const categories = indexCategories(parsed.flatMap((p) => p.records), issues).list;
  if (issues.length > 0 || parsed.some((p) => p.problems.length > 0)) refuse('the categories have problems');
  const ids = categories.map((c) => c.id);
  if (state.categoryIds.some((id) => !ids.includes(id))) refuse('a category was removed');
  return { ids, json: toJson(categories.map(renderCategory)) };
}

/** The event files against the base's: which changed (their new indexes), and while they are few, their texts as read. */
interface ChangedEventFiles {
  /** base file index → new index; -1: removed, or read again */
  fileMap: Int32Array;
  removed: number;
  changed: number[];
  /** null: the changed files are parsed on the parse threads */
  texts: string[] | null;
}

/**
 * The event files over the prior: unchanged by their stat (as `taking` took them), else read again,
 * and changed where their text is not the one recorded; the rest removed. The loop runs once per
 * event file, so it only compares: the listing is sorted as the state's is, so each file's recorded
 * index is found by walking both in step, and the stats and keys are copied whole first, those of
 * files at a shifted index by runs.
 */
async function eventFileChanges(options: BuildOptions, { content, files: { events: eventFiles }, recorder, margin }: Reading, state: EventState, taking: RecordedStats): Promise<ChangedEventFiles> {
  const { files: previousFiles, eventCount: count, stats, keys } = state;
  const changes: ChangedEventFiles = { fileMap: new Int32Array(count).fill(-1), removed: count, changed: [], texts: [] };
  const { fileMap, changed, texts } = changes;
  let next = 0;
  const { stats: eventStats, keys: eventKeys } = recorder!.next;
  const common = Math.min(eventFiles.length, count);
  eventStats.set(stats.subarray(0, common * STAT_FIELDS));
  keys.copy(eventKeys, 0, 0, common * KEY_BYTES);
  const current = await taking.stating!.finish(previousFiles);
  const kind = `${EVENTS_KIND}${state.site.timezone}`;
  const poolFrom = options.poolFrom ?? POOL_FROM;
  // files [from, to) unchanged at their recorded index + shift: their stats and keys copied together
  let run = { from: 0, to: 0, shift: 0 };
  const copyRun = () => {
    if (run.shift === 0) return;
    eventStats.set(stats.subarray((run.from + run.shift) * STAT_FIELDS, (run.to + run.shift) * STAT_FIELDS), run.from * STAT_FIELDS);
    keys.copy(eventKeys, run.from * KEY_BYTES, (run.from + run.shift) * KEY_BYTES, (run.to + run.shift) * KEY_BYTES);
  };
  for (let now = 0; now < eventFiles.length; now++) {
    const file = eventFiles[now];
    // (the recorded files passed over are removed; a file out of that order is read as a new one)
    while (next < count && previousFiles[next] < file) next++;
    const at = next < count && previousFiles[next] === file ? next++ : undefined;
    if (at !== undefined) {
      if (current[at * STAT_FIELDS] < 0n) refuse(`${file} cannot be stat'ed`);
      fileMap[at] = now;
      changes.removed--;
      if (freshStatAt(stats, at, current, at, state.safe, margin)) {
        if (run.to !== now || run.shift !== at - now) {
          copyRun();
          run = { from: now, to: now, shift: at - now };
        }
        run.to++;
        continue;
      }
    }
    const read = readContentFile(content, file, undefined, true);
    if (!read.ok) refuse(`${file} cannot be read`);
    // touched, copied, or changed and changed back: the same text is the same events
    const key = parseKey(kind, file, read.bytes);
    putStat(eventStats, now, read.stat!);
    key.copy(eventKeys, now * KEY_BYTES);
    if (at !== undefined && stats[at * STAT_FIELDS] >= 0n && key.equals(keys.subarray(at * KEY_BYTES, (at + 1) * KEY_BYTES))) continue;
    if (at !== undefined) fileMap[at] = -1;
    if (changed.push(now) <= poolFrom) texts!.push(read.text);
  }
  copyRun();
  return changed.length <= poolFrom ? changes : { ...changes, texts: null };
}

/** The events of the changed files, with their files' new indexes, and the files' problems (in the listing's order): parsed here from their texts, else on the parse threads (read again there, each file's stat and key put over those of the read that found it changed). */
async function parseChanged({ files, pool, zone }: Reading, { changed, texts }: ChangedEventFiles): Promise<Fresh> {
  const names = changed.map((now) => files.events[now]);
  const parses = texts !== null ? texts.map((text, j) => parseEventFile(names[j], text, zone)) : ((await pool!.parseMany(`${EVENTS_KIND}${zone}`, 'events', zone, names, files.raw)) as Parsed<Event>[]);
  const fresh: Fresh = { records: [], recordFiles: [], problems: [] };
  changed.forEach((now, j) => {
    append(fresh.problems, parses[j].problems);
    for (const r of parses[j].records) {
      fresh.records.push(r);
      fresh.recordFiles.push(now);
    }
  });
  return fresh;
}

/** The prior's media records resolved again: a file behind one that changed or moved, or one with problems, refuses. */
async function mediaUnchanged(content: string, state: EventState): Promise<void> {
  const media = structuredClone(state.mediaSources);
  const issues: FileIssue[] = [];
  await resolveMediaFiles(content, media, issues);
  if (issues.length > 0) refuse('a media file has problems');
  for (const m of media) {
    const before = state.media.get(m.value.media.id);
    if (before === undefined || !sameMedia(before, m.value.media)) refuse('a media file changed');
  }
}

/**
 * The fresh records and, where one has the id of an event that stays (`keep`), every record of
 * that event's file parsed again, in the listing's order: a repeated id is told in every file.
 */
function withRepeated(content: string, state: EventState, { records, recordFiles }: Fresh, fileMap: Int32Array, keep: Uint8Array): Sourced<Event>[] {
  const ids = new Set(keep.length === 0 ? [] : records.map((r) => r.value.id));
  const files = new Set<number>();
  for (let row = 0; row < keep.length; row++) if (keep[row] === 1 && ids.has(state.rows.id[row])) files.add(state.rows.file[row]);
  if (files.size === 0) return records;
  const all = records.map((r, i) => ({ r, at: recordFiles[i] }));
  for (const f of files) {
    const read = readContentFile(content, state.files[f]);
    const parsed = read.ok ? parseEventFile(state.files[f], read.text, state.site.timezone) : null;
    if (parsed === null || parsed.problems.length > 0) refuse('a changed event repeats an id, and its file cannot be read again');
    for (const r of parsed.records) all.push({ r, at: fileMap[f] });
  }
  return all.sort((a, b) => a.at - b.at).map(({ r }) => r);
}

const sameMedia = (a: object, b: object) => JSON.stringify(Object.entries(a).sort()) === JSON.stringify(Object.entries(b).sort());
