// loadContent: a content folder in, a validated Model or every problem with it out.
import type { BigIntStats } from 'node:fs';
import { join } from 'node:path';
import type { Category, DirectoryObject, Event, Model, PageNode, Site } from '../model/types.ts';
import { isValidZone } from '../time/zone.ts';
import { indexCategories, readCategory } from './categories.ts';
import { checkDirectory, parseDirectoryFile } from './directory.ts';
import { checkEvents, parseEventFile } from './events.ts';
import { listContentFolder, readContentFile, type ContentFiles } from './files.ts';
import { indexById } from './ids.ts';
import { readMedia, resolveMediaFiles, type MediaSource } from './media.ts';
import { checkPages, readPage } from './page-tree.ts';
import { compareProblems, type FileIssue, type Problem } from './problems.ts';
import { parseFile, type Parsed, type Sourced } from './records.ts';
import { DEFAULT_SITE, readSite } from './site.ts';
import { locateIssues } from './source.ts';

/**
 * Where parsed files may be kept between builds (the build's pack, pipeline/cache/build-cache.ts):
 * `kind` and `file` with the text are everything a parse depends on, so a cached result stands for a parse.
 */
export interface ParseCache {
  /** `stat`: the file's stat, taken before its text was read */
  parse<T>(kind: string, file: string, text: string, parse: () => Parsed<T>, stat?: BigIntStats): Parsed<T>;
  /**
   * The parse of a file known not to have changed since it was parsed (by its stat), without
   * reading it; undefined when it must be read. `at`: its place among its kind's files listed.
   */
  unchanged?<T>(kind: string, file: string, path: string | Buffer, at?: number): Parsed<T> | undefined;
}

export interface LoadOptions {
  cache?: ParseCache;
  /**
   * Called with the directory objects (the order of Model.directory) as soon as the directory
   * files are read and valid among themselves, before the events are: what depends on the
   * directory alone (its indexes) can then be made on another thread while the events are read.
   * The content as a whole may still turn out to have problems. Returning true takes the
   * objects: the model's directory is then left empty, and they are not held here while the
   * events are read (the build hands them to a worker thread; at 200k objects they are ~150 MB).
   */
  onDirectory?: (objects: readonly DirectoryObject[]) => boolean | void;
  /**
   * Parses the files of one kind, each as parseContentFile would (with the cache), elsewhere:
   * the build spreads the directory's and the events' files over threads (pipeline/load/parse-pool.ts).
   * Results in the order of `files`. Without it they are parsed here, one after the other.
   */
  /**
   * Called with the site, the pages and the media records as read (not checked across files yet)
   * before the directory and the events are parsed: what is made of the events against them can
   * start as they are parsed (the build's parse threads render the rows).
   */
  onContext?: (early: { site: Site; pages: readonly Sourced<PageNode>[]; media: readonly Sourced<MediaSource>[] }) => void;
  parseMany?: (kind: string, parser: ParserName, zone: string, files: readonly string[], raw: ReadonlyMap<string, Buffer>) => Promise<Parsed<unknown>[]>;
  /** Each event's file by its id in `Loaded.eventFiles` (the build's state lists each row's file). */
  eventFiles?: boolean;
  /** the folder as listed already (the build lists it once for every load) */
  listed?: Listed;
}

/** The content folder listed (listContentFolder). */
export type Listed = Awaited<ReturnType<typeof listContentFolder>>;

/** What loadContent gives: the model, or the problems; and what looks meant as content but is not read. */
export interface Loaded {
  model: Model | null;
  problems: Problem[];
  /** names that resemble content but are not read (files.ts): worth a warning, not a failure */
  notRead?: ContentFiles['notRead'];
  eventFiles?: Map<number, string>;
}

export async function loadContent(dir: string, options: LoadOptions = {}): Promise<Loaded> {
  const listed = options.listed ?? (await listContentFolder(dir));
  if ('folderProblem' in listed) return { model: null, problems: [{ file: dir, line: 1, column: 1, key: '', message: listed.folderProblem, folder: true }] };
  const { files } = listed;
  const problems: Problem[] = [...files.problems];
  const { cache } = options;
  const collect = <T>(all: Iterable<Parsed<T>>): Sourced<T>[] => {
    const records: Sourced<T>[] = [];
    for (const parsed of all) {
      for (const record of parsed.records) records.push(record);
      for (const problem of parsed.problems) problems.push(problem);
    }
    return records;
  };
  const collected = async <T>(parses: Promise<Parsed<T>[]> | Parsed<T>[]): Promise<Sourced<T>[]> => collect(await parses);
  const parseAll = <T>(kind: string, paths: string[], parse: (file: string, text: string) => Parsed<T>): Sourced<T>[] =>
    collect(paths.map((file) => parseContentFile(dir, file, files.raw.get(file), kind, parse, cache)));
  // the bulk of a site: handed to parseMany when there is one, their problems in the same order as
  // parsed here
  const parseBulk = <T>(kind: string, paths: string[], parser: ParserName, zone: string): Promise<Parsed<T>[]> | Parsed<T>[] =>
    options.parseMany
      ? (options.parseMany(kind, parser, zone, paths, files.raw) as Promise<Parsed<T>[]>)
      : paths.map((file) => parseContentFile(dir, file, files.raw.get(file), kind, parserOf(parser, zone) as (file: string, text: string) => Parsed<T>, cache));

  problems.push(...extraSiteProblems(files));
  const sites = parseAll('site', files.site, PARSERS.site);
  const site: Site = sites[0]?.value ?? { ...DEFAULT_SITE };
  const zone = zoneOf(site);

  const pages = parseAll('pages', files.pages, PARSERS.pages);
  const categories = parseAll('categories', files.categories, PARSERS.categories);
  const media = parseAll('media', files.media, PARSERS.media);
  // an event's times are read in the site's zone: the zone is part of what its parse depends on
  // The directory before the events: its indexes, the longest job of a build after the events,
  // can then be made on another thread while this one reads the events (options.onDirectory).
  // The media files are resolved (sizes, types) before the events are parsed, so the rows made as
  // they are parsed (onContext) see them as the build does; their issues join the others in
  // assembleModel, where they were always found.
  const mediaIssues: FileIssue[] = [];
  await resolveMediaFiles(dir, media, mediaIssues);
  options.onContext?.({ site, pages, media });
  let parsedDirectory: ReturnType<typeof parseBulk<DirectoryObject>> | null = parseBulk<DirectoryObject>('directory', files.directory, 'directory', zone);
  // Parsed here, the events wait until the directory is handed over (they are not held beside it
  // meanwhile); parseMany is asked for them at once, so that its threads go on to them.
  const parseEvents = () => parseBulk<Event>(eventsKind(zone), files.events, 'events', zone);
  const parsedEvents = options.parseMany ? Promise.resolve(parseEvents()) : null;
  // (a thread failing in the events must not leave their rejection unheard while the directory is awaited)
  void parsedEvents?.catch(() => {});
  // Let go of at once: this function is suspended until the events are parsed, and the promise
  // (its parses, their records) would be held in its frame all that while: at 200,000 directory
  // objects, ~80 MB of heap beside the events, handed over or not. (Awaited in a function of its
  // own, so that no register of this one keeps the parses either.)
  const directory = await collected(parsedDirectory);
  parsedDirectory = null;
  const directoryIssues: FileIssue[] = [];
  checkDirectory(directory, directoryIssues);
  let directoryObjects: DirectoryObject[] | undefined;
  // (only when nothing so far has a problem: else the build fails and the indexes are not needed;
  // the directory's issues concern its own files alone, so checking it first changes no order)
  if (options.onDirectory && problems.length === 0 && directoryIssues.length === 0) {
    directoryObjects = directory.map((r) => r.value).sort(compareDirectory);
    if (options.onDirectory(directoryObjects) === true) {
      directoryObjects = [];
      directory.length = 0;
    }
  }
  const events = collect(await (parsedEvents ?? parseEvents()));
  const loaded = await assembleModel(dir, files.raw, { site, pages, categories, media, events, directory }, problems, { directoryIssues, directoryObjects, mediaIssues });
  const eventFiles = loaded.model && options.eventFiles ? new Map(events.map((r) => [r.value.id, r.file])) : undefined;
  return { ...loaded, notRead: files.notRead, eventFiles };
}

/** One file read and parsed (or its parse taken from the cache); a file that cannot be read is its problem. */
export function parseContentFile<T>(dir: string, file: string, raw: Buffer | undefined, kind: string, parse: (file: string, text: string) => Parsed<T>, cache?: ParseCache): Parsed<T> {
  const parsed = cache?.unchanged?.<T>(kind, file, raw ?? join(dir, file));
  if (parsed !== undefined) return parsed;
  return readAndParse(dir, file, raw, kind, parse, cache);
}

/** parseContentFile for a file known to need reading (the cache's unchanged() was asked already). */
export function readAndParse<T>(dir: string, file: string, raw: Buffer | undefined, kind: string, parse: (file: string, text: string) => Parsed<T>, cache?: ParseCache): Parsed<T> {
  const read = readContentFile(dir, file, raw, cache?.unchanged !== undefined);
  if (!read.ok) return { records: [], problems: [read.problem] };
  return cache ? cache.parse(kind, file, read.text, () => parse(file, read.text), read.stat) : parse(file, read.text);
}

/** The files' own parsers (events: eventParser), each a pure function of (file, text). */
export const PARSERS = {
  site: (file: string, text: string) => parseFile(file, text, readSite, 'one'),
  pages: (file: string, text: string) => parseFile(file, text, readPage),
  categories: (file: string, text: string) => parseFile(file, text, readCategory),
  media: (file: string, text: string) => parseFile(file, text, readMedia),
  directory: parseDirectoryFile,
};

/** The parsers a thread of its own can run, by name (with the site's zone for the events). */
export type ParserName = keyof typeof PARSERS | 'events';

export function parserOf(name: ParserName, zone: string): (file: string, text: string) => Parsed<unknown> {
  return name === 'events' ? eventParser(zone) : PARSERS[name];
}

/** A bad zone is already reported; reading naive times as UTC then adds no follow-up errors. */
export const zoneOf = (site: Site): string => (isValidZone(site.timezone) ? site.timezone : 'UTC');
/** What an event file's parse is kept under: its times are read in the zone. */
export const eventsKind = (zone: string): string => `events in ${zone}`;
export const eventParser = (zone: string) => (file: string, text: string) => parseEventFile(file, text, zone);

export function extraSiteProblems(files: Pick<ContentFiles, 'site'>): Problem[] {
  return files.site.slice(1).map((extra) => ({ file: extra, line: 1, column: 1, key: '', message: `only one site file may exist; ${files.site[0]} is another` }));
}

export interface ParsedRecords {
  site: Site;
  pages: Sourced<PageNode>[];
  categories: Sourced<Category>[];
  media: Sourced<MediaSource>[];
  events: Sourced<Event>[];
  directory: Sourced<DirectoryObject>[];
}

/** What the model is made of once the checks across files pass: the pages, categories and media indexed. */
export interface Across {
  pagesByUid: ReturnType<typeof checkPages>;
  categoriesById: ReturnType<typeof indexCategories>['byId'];
  categoryList: Category[];
  mediaById: Map<number, Sourced<MediaSource>>;
}

/**
 * The checks across files over every parsed record (the page tree, the categories' and media's
 * ids, the media files, the events' ids and references, the directory), their issues added to
 * `issues` in the order a whole load finds them; and the indexes the model is made of.
 */
export async function checkAcross(
  dir: string,
  parsed: ParsedRecords,
  issues: FileIssue[],
  /**
   * the directory checked already (its issues), and the media files resolved (their issues), as
   * loadContent does before the events
   */
  early: { directoryIssues?: readonly FileIssue[]; mediaIssues?: readonly FileIssue[] } = {},
): Promise<Across> {
  const { pages, categories, media, events, directory } = parsed;
  const pagesByUid = checkPages(pages, issues);
  const { byId: categoriesById, list: categoryList } = indexCategories(categories, issues);
  const mediaById = indexById(media, (m) => m.media.id, 'media id', 'id', issues);
  if (early.mediaIssues) issues.push(...early.mediaIssues);
  else await resolveMediaFiles(dir, media, issues);
  checkEvents(events, { pages: pagesByUid, categories: categoriesById, media: mediaById }, issues);
  if (early.directoryIssues) issues.push(...early.directoryIssues);
  else checkDirectory(directory, issues);
  return { pagesByUid, categoriesById, categoryList, mediaById };
}

/**
 * The checks across files over every parsed record (checkAcross), then the model: `problems` are
 * those found so far (listing and parsing), in the order they were found. aula dev runs this over
 * the records it keeps in memory, so a rebuild validates exactly as loadContent does.
 */
export async function assembleModel(
  dir: string,
  raw: ReadonlyMap<string, Buffer>,
  parsed: ParsedRecords,
  found: readonly Problem[],
  /** as checkAcross's, and the directory sorted (its objects) */
  early: { directoryIssues?: readonly FileIssue[]; directoryObjects?: DirectoryObject[]; mediaIssues?: readonly FileIssue[] } = {},
): Promise<{ model: Model | null; problems: Problem[] }> {
  const { site, events, directory } = parsed;
  const problems = [...found];
  const issues: FileIssue[] = [];
  const { pagesByUid, categoryList, mediaById } = await checkAcross(dir, parsed, issues, early);
  problems.push(...locateProblems(dir, issues, raw));

  if (problems.length > 0) return { model: null, problems: problems.sort(compareProblems) };
  const model: Model = {
    site,
    pages: new Map(Array.from(pagesByUid, ([uid, r]) => [uid, r.value])),
    categories: categoryList,
    media: new Map(Array.from(mediaById, ([id, r]) => [id, r.value.media])),
    // Sorted for determinism only; the API's list order is applied when rendering.
    events: events.map((r) => r.value).sort((a, b) => a.id - b.id),
    directory: early.directoryObjects ?? directory.map((r) => r.value).sort(compareDirectory),
  };
  return { model, problems: [] };
}

export function compareDirectory(a: DirectoryObject, b: DirectoryObject): number {
  return a.model === b.model ? a.id - b.id : a.model < b.model ? -1 : 1;
}

/** Positions the issues found across files, reading each affected file once more. */
export function locateProblems(dir: string, issues: readonly FileIssue[], raw: ReadonlyMap<string, Buffer>): Problem[] {
  const byFile = new Map<string, FileIssue[]>();
  for (const issue of issues) {
    const list = byFile.get(issue.file);
    if (list) list.push(issue);
    else byFile.set(issue.file, [issue]);
  }
  return [...byFile].flatMap(([file, fileIssues]) => {
    const read = readContentFile(dir, file, raw.get(file));
    return read.ok ? locateIssues(file, read.text, fileIssues) : [read.problem];
  });
}
