// The content folder as `aula dev` keeps it between edits: every content file's parse, by path.
// The watcher names the paths that changed, so a rebuild reads and parses just those files (no
// walk, no stat of the thousands of others) and hands every record, changed or not, to
// the same checks across files loadContent runs: the problems are exactly a full load's.
//
// What the watcher's paths cannot account for is read again from the folder itself (a rescan:
// the walk, and a parse of every file that is new or lies under a path reported): a folder that
// appeared, went or was moved, a path that is not valid UTF-8, an unknown change. A folder whose
// walk followed symbolic links, or reported problems of its own, is rescanned on every change,
// and every file in it parsed again: a link's text changes when its target does, under a name
// the watcher never reports.
import { realpathSync, lstatSync, type Stats } from 'node:fs';
import { join, relative, sep } from 'node:path';
import type { Model, Site } from '../model/types.ts';
import { listContentFolder, type ContentFiles } from '../content/files.ts';
import {
  assembleModel, eventParser, eventsKind, extraSiteProblems, parseContentFile, PARSERS, zoneOf,
  type ParsedRecords,
} from '../content/load.ts';
import type { Parsed, Sourced } from '../content/records.ts';
import { folderProblem, type Problem } from '../content/problems.ts';
import { DEFAULT_SITE } from '../content/site.ts';

export const KINDS = ['site', 'pages', 'categories', 'media', 'events', 'directory'] as const;
export type Kind = (typeof KINDS)[number];

const TOP_FILE = /^(site|pages|categories|media)\.(?:yaml|yml|json)$/;
const TOP_DIRS: ReadonlySet<string> = new Set(['media', 'events', 'directory']);
const DATA_FILE = /\.(?:yaml|yml|json)$/;
const EVENT_FILE = /\.(?:md|yaml|yml|json)$/;

/**
 * The kind of content file at a relative path, as the walk (src/content/files.ts) classifies
 * it; null for a path the walk would not read as a content file (hidden, or not one of its names).
 */
export function kindOf(path: string): Kind | null {
  const parts = path.split('/');
  if (parts.some((p) => p === '' || p.startsWith('.'))) return null;
  if (parts.length === 1) return (TOP_FILE.exec(path)?.[1] as Kind | undefined) ?? null;
  const top = parts[0];
  if (!TOP_DIRS.has(top)) return null;
  return (top === 'events' ? EVENT_FILE : DATA_FILE).test(parts[parts.length - 1]) ? (top as Kind) : null;
}

/** How an update went: by the reported paths alone, or by a walk of the folder. */
export interface Update {
  rescanned: boolean;
  /** files read and parsed */
  parsed: number;
  /** content files there are */
  files: number;
  /** when the folder was walked: the names that look meant as content but are not read (files.ts) */
  notRead?: ContentFiles['notRead'];
}

type Listing = Pick<ContentFiles, 'problems' | 'raw' | 'linked'> & Record<Kind, string[]>;

export class ContentState {
  private listing: Listing = { site: [], pages: [], categories: [], media: [], events: [], directory: [], problems: [], raw: new Map(), linked: false };
  private readonly parsed = new Map<Kind, Map<string, Parsed<unknown>>>(KINDS.map((k) => [k, new Map()]));
  private zone = 'UTC';
  /** the files the media records of the last good model name, relative to the folder */
  private mediaFiles: ReadonlySet<string> = new Set();
  /** a problem with the folder itself (gone, not a folder, cannot be listed): nothing else is known */
  private folderProblem: string | null = null;
  /** set when the watcher failed: the next update reads everything again */
  private stale = true;

  constructor(readonly dir: string) {}

  /** The next update reads the whole folder again (after a watch error). */
  forget(): void {
    this.stale = true;
  }

  /**
   * Brings the kept parses up to date with the folder, given the paths (relative, `/`) the
   * watcher reported since the last update.
   */
  async update(changed: readonly string[]): Promise<Update> {
    const update: Update = { rescanned: false, parsed: 0, files: 0 };
    const paths = [...new Set(changed)];
    const incremental = !this.stale && this.folderProblem === null && !this.listing.linked && this.listing.problems.length === 0;
    if (!incremental || !this.applyPaths(paths, update)) await this.rescan(paths, update);
    this.stale = false;
    // the zone is part of an event's parse: a site whose zone changed means every event is read again
    if (zoneOf(this.site()) !== this.zone) {
      this.zone = zoneOf(this.site());
      this.parsed.get('events')!.clear();
      for (const file of this.listing.events) this.parseInto('events', file, update);
    }
    update.files = KINDS.reduce((n, k) => n + this.listing[k].length, 0);
    return update;
  }

  /** The site file's record (the default without one), as loadContent takes it. */
  private site(): Site {
    const first = this.listing.site[0];
    const records = first === undefined ? [] : (this.parsed.get('site')!.get(first)?.records ?? []);
    return (records[0] as Sourced<Site> | undefined)?.value ?? { ...DEFAULT_SITE };
  }

  private parseInto(kind: Kind, file: string, update: Update): void {
    update.parsed++;
    const parse = kind === 'events' ? eventParser(this.zone) : PARSERS[kind];
    const key = kind === 'events' ? eventsKind(this.zone) : kind;
    this.parsed.get(kind)!.set(file, parseContentFile(this.dir, file, this.listing.raw.get(file), key, parse as (f: string, t: string) => Parsed<unknown>));
  }

  /**
   * Applies reported paths one by one; false when one of them needs a rescan (then nothing
   * partial matters: the rescan parses every reported path again).
   */
  private applyPaths(paths: readonly string[], update: Update): boolean {
    let realRoot: string;
    try {
      realRoot = realpathSync(this.dir);
    } catch {
      return false;
    }
    const todo: [Kind, string, 'read' | 'drop'][] = [];
    for (const path of paths) {
      if (path.includes('\ufffd') || path === '(unknown file)' || path === '') return false;
      const kind = kindOf(path);
      let info: Stats | null = null;
      try {
        info = lstatSync(join(this.dir, path));
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'ENOENT' && (e as NodeJS.ErrnoException).code !== 'ENOTDIR') return false;
      }
      if (info === null) {
        // gone: a known file is dropped; a folder that held known files needs the walk
        if (kind !== null && this.parsed.get(kind)!.has(path)) todo.push([kind, path, 'drop']);
        else if (this.holdsKnown(path)) return false;
        continue;
      }
      if (info.isDirectory() || info.isSymbolicLink()) {
        if (kind !== null || this.holdsKnown(path) || inContentFolder(path)) return false;
        continue;
      }
      // not a content file (a media record may name it: the checks read its size again, and
      // the rows' context tells when that changed a record)
      if (kind === null) continue;
      if (!info.isFile()) return false; // a FIFO or device: the walk reports it
      // a link on the way makes the path another file's name
      try {
        if (realpathSync(join(this.dir, path)) !== join(realRoot, path)) return false;
      } catch {
        return false;
      }
      todo.push([kind, path, 'read']);
    }
    for (const [kind, path, action] of todo) {
      const list = this.listing[kind];
      if (action === 'drop') {
        this.parsed.get(kind)!.delete(path);
        list.splice(sortedIndex(list, path), 1);
      } else {
        if (!this.parsed.get(kind)!.has(path)) list.splice(sortedIndex(list, path), 0, path);
        this.parseInto(kind, path, update);
      }
    }
    return true;
  }

  /**
   * Whether a path the watcher reported is part of the content as a build reads it: a content
   * file, a folder in a content folder (one moved in or away comes named alone), or a file a media
   * record names. The scratch files of an editor's save (`x___jb_tmp___`, `x.new`) are none of these.
   */
  isContent(path: string): boolean {
    if (kindOf(path) !== null || this.holdsKnown(path) || this.mediaFiles.has(path)) return true;
    if (!inContentFolder(path)) return false;
    try {
      return lstatSync(join(this.dir, path)).isDirectory();
    } catch {
      return false;
    }
  }

  /** Whether a known content file lies under `folder`. */
  private holdsKnown(folder: string): boolean {
    const prefix = `${folder}/`;
    return KINDS.some((k) => this.listing[k].some((f) => f.startsWith(prefix)));
  }

  /** Walks the folder again; parses what is new, what lies under a reported path, and (after links) everything. */
  private async rescan(paths: readonly string[], update: Update): Promise<void> {
    update.rescanned = true;
    const folder = await this.walk();
    update.notRead = folder?.notRead ?? [];
    const previous = this.listing;
    const everything = this.stale || previous.linked || folder?.linked === true;
    const reported = (file: string) => paths.some((p) => file === p || file.startsWith(`${p}/`));
    this.listing = folder ?? { site: [], pages: [], categories: [], media: [], events: [], directory: [], problems: [], raw: new Map(), linked: false };
    for (const kind of KINDS) {
      const kept = this.parsed.get(kind)!;
      const known = new Set(previous[kind]);
      const next = new Map<string, Parsed<unknown>>();
      // a file named by bytes (not UTF-8) is not told apart by the watcher: read again
      const keep = (file: string) => !everything && known.has(file) && !reported(file) && !previous.raw.has(file) && !this.listing.raw.has(file);
      for (const file of this.listing[kind]) {
        const old = kept.get(file);
        if (old !== undefined && keep(file)) next.set(file, old);
      }
      this.parsed.set(kind, next);
      // events are parsed in the zone of the site just read: a changed zone reads every one again
      if (kind === 'events' && zoneOf(this.site()) !== this.zone) {
        this.zone = zoneOf(this.site());
        next.clear();
      }
      for (const file of this.listing[kind]) if (!next.has(file)) this.parseInto(kind, file, update);
    }
  }

  /** The walk, or null with `folderProblem` set when the folder itself cannot be read. */
  private async walk(): Promise<ContentFiles | null> {
    const listed = await listContentFolder(this.dir);
    this.folderProblem = 'folderProblem' in listed ? listed.folderProblem : null;
    return 'files' in listed ? listed.files : null;
  }

  /** Validates everything kept, as loadContent does: the model, or every problem. */
  async model(): Promise<{ model: Model | null; problems: Problem[] }> {
    if (this.folderProblem !== null) return { model: null, problems: [folderProblem(this.dir, this.folderProblem)] };
    const problems: Problem[] = [...this.listing.problems, ...extraSiteProblems(this.listing)];
    const records = {} as Record<Kind, Sourced<unknown>[]>;
    for (const kind of KINDS) {
      const out: Sourced<unknown>[] = [];
      const parsed = this.parsed.get(kind)!;
      for (const file of this.listing[kind]) {
        const p = parsed.get(file)!;
        for (const r of p.records) out.push(r);
        for (const problem of p.problems) problems.push(problem);
      }
      records[kind] = out;
    }
    const parsed = { ...records, site: this.site() } as unknown as ParsedRecords;
    const result = await assembleModel(this.dir, this.listing.raw, parsed, problems);
    if (result.model) this.mediaFiles = mediaFilesOf(this.dir, result.model);
    return result;
  }
}

/** The files `model`'s media records name (each checked to be a file inside `dir`), relative to `dir`. */
function mediaFilesOf(dir: string, model: Model): Set<string> {
  const files = new Set<string>();
  let root: string;
  try {
    root = realpathSync(dir);
  } catch {
    return files;
  }
  for (const m of model.media.values()) if (m.source !== undefined) files.add(relative(root, m.source).split(sep).join('/'));
  return files;
}

/** A path that could hold content files: the walk reads the top folders media/, events/, directory/ and what is below them. */
function inContentFolder(path: string): boolean {
  const top = path.split('/')[0];
  return TOP_DIRS.has(top) && !path.split('/').some((p) => p.startsWith('.'));
}

function sortedIndex(list: readonly string[], value: string): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (list[mid] < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
