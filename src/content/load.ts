// loadContent: a content folder in, a validated Model or every problem with it out.
import type { BigIntStats } from 'node:fs';
import type { Category, DirectoryObject, Event, Model, PageNode, Site } from '../model/types.ts';
import { compareDirectory } from '../model/directory-order.ts';
import { isValidZone } from '../time/zone.ts';
import { indexCategories, readCategory } from './categories.ts';
import { checkDirectory, parseDirectoryFile } from './directory.ts';
import { checkEvents, parseEventFile } from './events.ts';
import { listContentFolder, readContentFile, type ContentFiles } from './files.ts';
import { indexById } from './ids.ts';
import { readMedia, resolveMediaFiles, type MediaSource } from './media.ts';
import { checkPages, readPage } from './page-tree.ts';
import { compareProblems, FileIssues, firstProblems, folderProblem, type FileIssue, type Problem } from './problems.ts';
import { parseFile, type Parsed, type Sourced } from './records.ts';
import { DEFAULT_SITE, readSite } from './site.ts';
import { locateIssues } from './source.ts';
import { append } from '../util/append.ts';

/**
 * What is told of each file read and parsed (the build records its stat and parse key, for the next
 * build over this one): `kind` and `file` with the text are everything a parse depends on.
 */
export interface ParseRecorder {
  /** `stat`: the file's stat, taken before its text was read */
  parsed(kind: string, file: string, text: string, stat?: BigIntStats): void;
}

/** The content folder listed (listContentFolder). */
export type Listed = Awaited<ReturnType<typeof listContentFolder>>;

/** What loadContent gives: the model, or the problems; and what looks meant as content but is not read. */
export interface Loaded {
  model: Model | null;
  problems: Problem[];
  /** names that resemble content but are not read (files.ts): worth a warning, not a failure */
  notRead?: ContentFiles['notRead'];
}

/** The files the directory and the events are checked and rendered against, read and parsed, the media files resolved; their problems, and the media files' issues. */
export interface Context {
  site: Site;
  pages: Sourced<PageNode>[];
  categories: Sourced<Category>[];
  media: Sourced<MediaSource>[];
  problems: Problem[];
  mediaIssues: FileIssue[];
}

/**
 * The site, pages, categories and media read and parsed (each told to `recorder`), and the media files
 * resolved (sizes, types): the context the events are checked and rendered against, read before
 * them (the build's parse threads render the events' rows against it as they parse them).
 */
export async function parseContext(dir: string, files: ContentFiles, recorder?: ParseRecorder): Promise<Context> {
  const problems: Problem[] = [...files.problems, ...extraSiteProblems(files)];
  const parseAll = <T>(kind: string, paths: string[], parse: (file: string, text: string) => Parsed<T>): Sourced<T>[] =>
    collect(paths.map((file) => parseContentFile(dir, file, files.raw.get(file), kind, parse, recorder)), problems);
  const sites = parseAll('site', files.site, PARSERS.site);
  const site: Site = sites[0]?.value ?? { ...DEFAULT_SITE };
  const pages = parseAll('pages', files.pages, PARSERS.pages);
  const categories = parseAll('categories', files.categories, PARSERS.categories);
  const media = parseAll('media', files.media, PARSERS.media);
  const mediaIssues: FileIssue[] = [];
  await resolveMediaFiles(dir, media, mediaIssues);
  return { site, pages, categories, media, problems, mediaIssues };
}

/** The parses' records, their problems added to `problems`. */
export function collect<T>(all: Iterable<Parsed<T>>, problems: Problem[]): Sourced<T>[] {
  const records: Sourced<T>[] = [];
  for (const parsed of all) {
    for (const record of parsed.records) records.push(record);
    for (const problem of parsed.problems) problems.push(problem);
  }
  return records;
}

export async function loadContent(dir: string): Promise<Loaded> {
  const listed = await listContentFolder(dir);
  if ('folderProblem' in listed) return { model: null, problems: [folderProblem(dir, listed.folderProblem)] };
  const { files } = listed;
  const { problems, mediaIssues, ...context } = await parseContext(dir, files);
  const zone = zoneOf(context.site);
  const parseAll = <T>(kind: string, paths: string[], parse: (file: string, text: string) => Parsed<T>): Sourced<T>[] =>
    collect(paths.map((file) => parseContentFile(dir, file, files.raw.get(file), kind, parse)), problems);
  const directory = parseAll('directory', files.directory, PARSERS.directory);
  const events = parseAll(eventsKind(zone), files.events, eventParser(zone));
  const loaded = await assembleModel(dir, files.raw, { ...context, events, directory }, problems, mediaIssues);
  return { ...loaded, notRead: files.notRead };
}

/** One file read and parsed, told to `recorder`; a file that cannot be read is its problem. */
export function parseContentFile<T>(dir: string, file: string, raw: Buffer | undefined, kind: string, parse: (file: string, text: string) => Parsed<T>, recorder?: ParseRecorder): Parsed<T> {
  const read = readContentFile(dir, file, raw, recorder !== undefined);
  if (!read.ok) return { records: [], problems: [read.problem] };
  recorder?.parsed(kind, file, read.text, read.stat);
  return parse(file, read.text);
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

/** The checks across the context's files (the page tree, the categories' and media's ids; the media files' issues, found as they were resolved), their issues added to `issues`; and the indexes the model is made of. */
export function checkContext({ pages, categories, media }: Pick<ParsedRecords, 'pages' | 'categories' | 'media'>, mediaIssues: readonly FileIssue[], issues: FileIssue[]): Across {
  const pagesByUid = checkPages(pages, issues);
  const { byId: categoriesById, list: categoryList } = indexCategories(categories, issues);
  const mediaById = indexById(media, (m) => m.media.id, 'media id', 'id', issues);
  append(issues, mediaIssues);
  return { pagesByUid, categoriesById, categoryList, mediaById };
}

/**
 * The checks across files over every parsed record (checkContext, the events' ids and references,
 * the directory), their issues added to `issues` in the order a whole load finds them; and the
 * indexes the model is made of. `mediaIssues`: the media files resolved already (their issues).
 */
export async function checkAcross(dir: string, parsed: ParsedRecords, issues: FileIssue[], mediaIssues?: readonly FileIssue[]): Promise<Across> {
  const found: FileIssue[] = [];
  if (!mediaIssues) await resolveMediaFiles(dir, parsed.media, found);
  const across = checkContext(parsed, mediaIssues ?? found, issues);
  checkEvents(parsed.events, { pages: across.pagesByUid, categories: across.categoriesById, media: across.mediaById }, issues);
  checkDirectory(parsed.directory, issues);
  return across;
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
  mediaIssues?: readonly FileIssue[],
): Promise<{ model: Model | null; problems: Problem[] }> {
  const { site, events, directory } = parsed;
  const problems = [...found];
  const issues: FileIssue[] = [];
  const { pagesByUid, categoryList, mediaById } = await checkAcross(dir, parsed, issues, mediaIssues);
  append(problems, locateProblems(dir, issues, raw));

  if (problems.length > 0) return { model: null, problems: problems.sort(compareProblems) };
  const model: Model = {
    site,
    pages: new Map(Array.from(pagesByUid, ([uid, r]) => [uid, r.value])),
    categories: categoryList,
    media: new Map(Array.from(mediaById, ([id, r]) => [id, r.value.media])),
    // Sorted for determinism only; the API's list order is applied when rendering.
    events: events.map((r) => r.value).sort((a, b) => a.id - b.id),
    directory: directory.map((r) => r.value).sort(compareDirectory),
  };
  return { model, problems: [] };
}


/**
 * Positions the issues found across files, reading each affected file once more; a file's first
 * MOST_RECORD_PROBLEMS are told, as of its own records' (its items in list order, so that the
 * first kept are the first written: every record of a large file may name a missing category).
 */
export function locateProblems(dir: string, issues: readonly FileIssue[], raw: ReadonlyMap<string, Buffer>): Problem[] {
  const byFile = new Map<string, FileIssue[]>();
  for (const issue of issues) {
    const list = byFile.get(issue.file);
    if (list) list.push(issue);
    else byFile.set(issue.file, [issue]);
  }
  return [...byFile].flatMap(([file, fileIssues]) => {
    const read = readContentFile(dir, file, raw.get(file));
    if (!read.ok) return [read.problem];
    const told = new FileIssues();
    for (const issue of fileIssues.sort((a, b) => (a.item ?? -1) - (b.item ?? -1))) told.push(issue);
    return firstProblems(locateIssues(file, read.text, told.kept), told.count);
  });
}
