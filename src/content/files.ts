// Finding and reading the files of a content folder.
//
// The walk never leaves the folder: a symbolic link is followed only when its target is inside
// it (else it is a problem naming the link, never its target or the target's bytes); a link that
// leads back to a folder on its own path is a loop, and every real folder is read once, so links
// cannot make the walk run forever or grow without bound. Only regular files are read (a FIFO
// named `x.yaml` would block the read forever). File names that are not valid UTF-8 are read
// through their raw bytes and shown with `\xNN` escapes.
import { closeSync, fstatSync, lstatSync, openSync, readdirSync, readSync, realpathSync, statSync, type BigIntStats, type Dirent, type Stats } from 'node:fs';
import { stat } from 'node:fs/promises';
import { join, sep } from 'node:path';
import type { Problem } from './problems.ts';
import { editDistance } from './fields.ts';

export interface ContentFiles {
  site: string[];
  pages: string[];
  categories: string[];
  media: string[];
  events: string[];
  directory: string[];
  /** links leading outside, loops, unreadable folders, special files */
  problems: Problem[];
  /** full paths, as bytes, of files whose names are not valid UTF-8 (by their shown name) */
  raw: Map<string, Buffer>;
  /** a symbolic link was followed: a file's text may change under another name (aula dev rereads all) */
  linked: boolean;
  /** entries that look meant as content but are not read (a typo in a name), with what they resemble */
  notRead: { path: string; like: string }[];
  /** the folders listed, as shown ('' the content folder itself) */
  folders?: string[];
}

export type Kind = 'site' | 'pages' | 'categories' | 'media' | 'events' | 'directory';

/**
 * A folder's entries as an earlier listing found them, for a folder known unchanged since
 * (listed-folders.ts): its content files by kind, and its folders by name with their dev:ino.
 */
export interface KnownFolder {
  files: [Kind, string][];
  folders: { name: string; id: string }[];
}

/** The entries of the folder shown as `shown` where they are known, else undefined: the folder is listed. */
export type KnownFolders = (shown: string) => KnownFolder | undefined;

const TOP_FILE = /^(site|pages|categories|media)\.(?:yaml|yml|json)$/;
const TOP_DIRS: ReadonlySet<string> = new Set(['media', 'events', 'directory']);
const DATA_FILE = /\.(?:yaml|yml|json)$/;
const EVENT_FILE = /\.(?:md|yaml|yml|json)$/;
/** Other names Markdown files go by: an event file named so is not read, and told. */
const MARKDOWN_EXTENSIONS = new Set(['.markdown', '.mdown', '.mkd', '.mkdn']);

/**
 * A hidden file (`.x.md`) that would be read without its dot, in a folder of `kind`: told, as a
 * typo is; an editor's lock (`.#x.md`) or macOS's metadata twin (`._x.md`) is no such file.
 */
function hiddenContent(kind: Kind | null, name: string): string | null {
  if (kind === null || name.startsWith('.#') || name.startsWith('._') || name.length < 2 || name.charAt(1) === '.') return null;
  return (kind === 'events' ? EVENT_FILE : DATA_FILE).test(name) ? name.slice(1) : null;
}

/** What the top of a content folder holds: its files' stems and its folders. */
const TOP_STEMS = ['site', 'pages', 'categories', 'media'];
const TOP_FOLDERS = ['media', 'events', 'directory'];

/**
 * The name a name that is not read was likely meant as: `event/` events/, `categorie.yaml`
 * categories.yaml, `Site.YAML` site.yaml, `x.YAML` in events/ x.yaml. Anything else (a README,
 * the pictures in media/) is simply not content. Typos must not pass silently, as in keys.
 */
function resemblance(kind: Kind | null, name: string, isFolder: boolean): string | null {
  const dot = name.lastIndexOf('.');
  if (kind !== null) {
    // only the extension can be wrong here (its case, or Markdown's other names): anything else
    // in these folders is not content
    const pattern = kind === 'events' ? EVENT_FILE : DATA_FILE;
    if (isFolder || dot <= 0) return null;
    const ext = name.slice(dot).toLowerCase();
    if (kind === 'events' && MARKDOWN_EXTENSIONS.has(ext)) return `${name.slice(0, dot)}.md`;
    // an event's Markdown file among the directory's data files
    if (kind === 'directory' && (ext === '.md' || MARKDOWN_EXTENSIONS.has(ext))) return NOT_CONTENT.test(name.slice(0, dot).toLowerCase()) ? null : `events/${name.slice(0, dot)}.md`;
    return pattern.test(ext) ? `${name.slice(0, dot)}${ext}` : null;
  }
  const [stem, ext] = isFolder || dot <= 0 ? [name, ''] : [name.slice(0, dot), name.slice(dot)];
  const lower = stem.toLowerCase();
  // a Markdown file at the top is an event written in the wrong place (a README is not)
  if (!isFolder && ext.toLowerCase() === '.md') return NOT_CONTENT.test(lower) ? null : `events/${stem}.md`;
  if (ext !== '' && !DATA_FILE.test(ext.toLowerCase())) return null;
  const known = isFolder ? TOP_FOLDERS : TOP_STEMS;
  const near = known.find((k) => k === lower || (stem.length >= 4 && editDistance(lower, k) <= 2));
  if (near !== undefined) return isFolder ? `${near}/` : `${near}${ext === '' ? '.yaml' : ext.toLowerCase()}`;
  // a data file named for what a folder holds (`events.yaml`, `people.yaml`) or for the site's settings
  const meant = isFolder ? undefined : Object.entries(MEANT).find(([, words]) => words.some((w) => w === lower || (lower.length >= 5 && editDistance(lower, w) <= 1)));
  return meant === undefined ? null : meant[0];
}

/** Names at the top of a content folder that say what they were meant as, by what they are told to be. */
const MEANT: Record<string, string[]> = {
  'events/': ['events', 'event', 'termine', 'veranstaltungen'],
  'directory/': ['people', 'persons', 'person', 'rooms', 'room', 'organizations', 'organisations', 'organization', 'organisation'],
  'site.yaml': ['settings', 'config', 'configuration'],
};
/** Markdown files that are notes about a folder, not content. */
const NOT_CONTENT = /^(?:readme|license|licence|copying|changelog|changes|history|contributing|code_of_conduct|security|authors|notes|todo|index)(?:[-_.].*)?$/;

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** The UTF-8 sequence that starts at `i`, decoded, and its length in bytes; null when none does. */
function sequenceAt(bytes: Buffer, i: number): { piece: string; length: number } | null {
  const lead = bytes[i];
  const n = lead < 0x80 ? 1 : lead >= 0xc2 && lead < 0xe0 ? 2 : lead >= 0xe0 && lead < 0xf0 ? 3 : lead >= 0xf0 && lead < 0xf5 ? 4 : 0;
  if (n === 0 || i + n > bytes.length) return null;
  try {
    return { piece: utf8.decode(bytes.subarray(i, i + n)), length: n };
  } catch {
    return null;
  }
}

/** A file name for messages: its UTF-8 text, with any byte that is not valid UTF-8 as `\xNN`. */
function nameOf(bytes: Buffer): { text: string; exact: boolean } {
  try {
    return { text: utf8.decode(bytes), exact: true };
  } catch {
    let text = '';
    for (let i = 0; i < bytes.length; ) {
      const sequence = sequenceAt(bytes, i);
      if (sequence === null) {
        text += `\\x${bytes[i].toString(16).padStart(2, '0')}`;
        i++;
      } else {
        text += sequence.piece;
        i += sequence.length;
      }
    }
    return { text, exact: false };
  }
}

interface Pending {
  /** path to read the folder by: bytes once a name on the way is not UTF-8 */
  path: string | Buffer;
  /** shown path relative to the content folder, '' for the folder itself */
  shown: string;
  kind: Kind | null;
  /** dev:ino of the folders on the way here, for loop detection */
  ancestors: ReadonlySet<string>;
}

const idOf = (s: Stats) => `${s.dev}:${s.ino}`;

const TOO_LONG = 'cannot be read: its path is longer than the system allows (4,096 bytes on Linux); shorten the names of its folders';

interface Entry {
  dirent: Dirent<string> | Dirent<Buffer>;
  name: { text: string; exact: boolean };
  path: string | Buffer;
}

/**
 * The entries of a folder with their paths. Names are listed as text (fast); only a folder with
 * a name that did not decode (U+FFFD) is listed again as bytes, to read that file by its bytes.
 */
function listFolder(folder: string | Buffer): Entry[] {
  if (typeof folder === 'string') {
    const dirents = readdirSync(folder, { withFileTypes: true });
    if (!dirents.some((d) => d.name.includes('\ufffd'))) {
      return dirents.map((d) => ({ dirent: d, name: { text: d.name, exact: true }, path: folder + sep + d.name }));
    }
  }
  const bytes = typeof folder === 'string' ? Buffer.from(folder) : folder;
  const separator = Buffer.from(sep);
  const dirents = readdirSync(bytes, { withFileTypes: true, encoding: 'buffer' }) as unknown as Dirent<Buffer>[];
  return dirents.map((d) => {
    const name = nameOf(d.name);
    const path = Buffer.concat([bytes, separator, d.name]);
    return { dirent: d, name, path: name.exact && typeof folder === 'string' ? path.toString() : path };
  });
}

/**
 * The content folder listed, or why it cannot be (missing, not a folder, unreadable): the one
 * wording `aula build`, `check` and `dev` give.
 */
export async function listContentFolder(dir: string, known?: KnownFolders): Promise<{ files: ContentFiles } | { folderProblem: string }> {
  const info = await stat(dir).catch(() => null);
  if (!info) return { folderProblem: 'the content folder does not exist' };
  if (!info.isDirectory()) return { folderProblem: 'the content folder is not a folder' };
  try {
    return { files: await findContentFiles(dir, known) };
  } catch (e) {
    return { folderProblem: `cannot list the content folder (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})` };
  }
}

/** Content files by kind, as sorted paths relative to `dir` with forward slashes; a folder whose entries are `known` is not read. */
export async function findContentFiles(dir: string, known?: KnownFolders): Promise<ContentFiles> {
  const found: ContentFiles = { site: [], pages: [], categories: [], media: [], events: [], directory: [], problems: [], raw: new Map(), linked: false, notRead: [], folders: [] };
  const problem = (file: string, message: string) => found.problems.push({ file, line: 1, column: 1, key: '', message });
  const root = realpathSync(dir, { encoding: 'buffer' });
  const rootSlash = Buffer.concat([root, Buffer.from(sep)]);
  const isInside = (real: Buffer) => real.equals(root) || (real.length > rootSlash.length && real.subarray(0, rootSlash.length).equals(rootSlash));
  const rootId = idOf(statSync(root));
  /** dev:ino of each folder read → the shown path it was read as */
  const seen = new Map<string, string>([[rootId, 'the content folder']]);
  const stack: Pending[] = [{ path: dir, shown: '', kind: null, ancestors: new Set([rootId]) }];

  while (stack.length > 0) {
    const folder = stack.pop()!;
    const entriesKnown = typeof folder.path === 'string' ? known?.(folder.shown) : undefined;
    if (entriesKnown !== undefined) {
      takeKnown(found, folder, entriesKnown, seen, stack);
      continue;
    }
    let entries: Entry[];
    try {
      entries = listFolder(folder.path);
      found.folders!.push(folder.shown);
    } catch (e) {
      if (folder.shown === '') throw e;
      const code = (e as NodeJS.ErrnoException).code;
      problem(folder.shown, code === 'ENAMETOOLONG' ? TOO_LONG : `cannot list the folder (${code ?? 'error'})`);
      continue;
    }
    for (const { dirent: entry, name, path } of entries) {
      const shown = folder.shown === '' ? name.text : `${folder.shown}/${name.text}`;
      if (name.text.startsWith('.')) {
        // hidden files and folders are not content
        const like = entry.isDirectory() ? null : hiddenContent(folder.kind, name.text);
        if (like !== null) found.notRead.push({ path: shown, like });
        continue;
      }
      const fileKind: Kind | null =
        folder.kind === null
          ? ((TOP_FILE.exec(name.text)?.[1] as Kind | undefined) ?? null)
          : (folder.kind === 'events' ? EVENT_FILE : DATA_FILE).test(name.text)
            ? folder.kind
            : null;
      const dirKind: Kind | null = folder.kind ?? (TOP_DIRS.has(name.text) ? (name.text as Kind) : null);
      if (fileKind === null && dirKind === null) {
        const like = resemblance(folder.kind, name.text, entry.isDirectory());
        if (like !== null) found.notRead.push({ path: entry.isDirectory() ? `${shown}/` : shown, like });
        continue;
      }

      // Listing types decide for plain files and folders (a stat per file would cost ~0.2 s per
      // 100,000 files); links, and the rare file system that gives no type, are stat'ed.
      let info: Stats | null = null;
      try {
        if (entry.isSymbolicLink()) {
          found.linked = true;
          let real: Buffer;
          try {
            real = realpathSync(path, { encoding: 'buffer' });
          } catch (e) {
            const code = (e as NodeJS.ErrnoException).code;
            if (code === 'ELOOP') problem(shown, 'is a symbolic link that loops (too many levels of links)');
            else if (fileKind !== null) problem(shown, `is a symbolic link whose target cannot be read (${code ?? 'error'})`);
            continue;
          }
          info = statSync(real);
          if (!isInside(real)) {
            // Only what would be read matters (media files are checked where they are named). The
            // target is not named: the message must not reveal anything outside the folder.
            if (fileKind !== null || (dirKind !== null && info.isDirectory())) {
              problem(shown, 'is a symbolic link that leads outside the content folder; links must stay inside it');
            }
            continue;
          }
        } else if (entry.isDirectory()) {
          info = dirKind === null ? null : statSync(path);
        } else if (!entry.isFile()) {
          info = lstatSync(path);
        }
      } catch (e) {
        const code = (e as NodeJS.ErrnoException).code;
        if (code === 'ENOENT') continue; // vanished while listing
        // A name the system cannot open (a path past PATH_MAX, 4096 bytes on Linux) is a problem:
        // the events below it would be missing from the build.
        problem(shown, code === 'ENAMETOOLONG' ? TOO_LONG : `cannot be read (${code ?? 'error'})`);
        continue;
      }
      const isDirectory = info ? info.isDirectory() : entry.isDirectory();
      const isFile = info ? info.isFile() : entry.isFile();

      if (isDirectory) {
        if (dirKind === null || info === null) {
          // `site.yaml/`: a folder named as a top file is read neither as one nor the other
          if (fileKind !== null && folder.kind === null) found.notRead.push({ path: `${shown}/`, like: `${shown} as a file` });
          continue;
        }
        const id = idOf(info);
        if (folder.ancestors.has(id)) {
          problem(shown, `is a symbolic link that loops back to ${seen.get(id)}`);
          continue;
        }
        const first = seen.get(id);
        if (first !== undefined) {
          problem(shown, `is a symbolic link to ${first}, which is read already; a folder may be part of the content once`);
          continue;
        }
        seen.set(id, shown);
        stack.push({ path, shown, kind: dirKind, ancestors: new Set([...folder.ancestors, id]) });
      } else if (fileKind !== null) {
        if (!isFile) {
          problem(shown, 'is not a regular file (a device, FIFO or socket); content files must be regular files');
          continue;
        }
        found[fileKind].push(shown);
        // a path as bytes: this name or one on the way is not UTF-8, so `shown` cannot be opened
        if (typeof path !== 'string') found.raw.set(shown, path);
      } else if (isFile) {
        // a file in events/, directory/ or media/ that is not read; a file named as a top folder (`events`)
        const like = folder.kind === null && dirKind !== null ? `${shown}/ as a folder` : resemblance(folder.kind, name.text, false);
        if (like !== null) found.notRead.push({ path: shown, like });
      }
    }
  }
  // Sorted, because directory listing order differs between file systems and builds must not.
  for (const kind of ['site', 'pages', 'categories', 'media', 'events', 'directory'] as const) found[kind].sort();
  return found;
}

/** A folder's known entries taken as its listing would give them: its files found, its folders to be walked. */
function takeKnown(found: ContentFiles, folder: Pending, known: KnownFolder, seen: Map<string, string>, stack: Pending[]): void {
  found.folders!.push(folder.shown);
  for (const [kind, file] of known.files) found[kind].push(file);
  for (const { name, id } of known.folders) {
    const shown = folder.shown === '' ? name : `${folder.shown}/${name}`;
    // (reached already through a link in a folder listed anew: a problem, as the listing tells it)
    const first = seen.get(id);
    if (first !== undefined) {
      found.problems.push({ file: shown, line: 1, column: 1, key: '', message: `is a symbolic link to ${first}, which is read already; a folder may be part of the content once` });
      continue;
    }
    seen.set(id, shown);
    stack.push({ path: folder.path + sep + name, shown, kind: folder.kind ?? (name as Kind), ancestors: new Set([...folder.ancestors, id]) });
  }
}

/** `bytes`: the file's bytes, of which `text` is the UTF-8 (a leading byte order mark left out) */
export type FileText = { ok: true; text: string; bytes: Buffer; stat?: BigIntStats } | { ok: false; problem: Problem };

/**
 * The most bytes a content file may hold. The largest event the rules allow fits with room to
 * spare (its body is at most MAX_BODY_LENGTH, 4 Mi characters of HTML: at most 12 MiB of UTF-8,
 * and far less as Markdown), and so do hundreds of events in a YAML or JSON list; a larger list
 * is split into several files. Without a bound a 600 MB file is read, decoded and parsed for
 * minutes before V8's string limit ends the run without naming it; its size is known from one
 * fstat before a byte of it is read.
 */
export const MAX_CONTENT_FILE_BYTES = 16 * 1024 * 1024;

const MiB = 1024 * 1024;

/** `600 MiB`, `1.5 GiB`: rounded up, so a size just past a limit never reads as the limit. */
export function describeSize(bytes: number): string {
  const [value, unit] = bytes >= 1024 * MiB ? [bytes / (1024 * MiB), 'GiB'] : [bytes / MiB, 'MiB'];
  const shown = value >= 100 ? Math.ceil(value) : Math.ceil(value * 10) / 10;
  return `${shown} ${unit}`;
}

/**
 * Synchronous on purpose: for ~100,000 small files readFileSync measured 0.5–0.9 s against
 * 5–6 s for fs.promises.readFile at any concurrency (each read is several thread-pool round
 * trips), and the parsing that follows is on this thread anyway.
 *
 * `raw`: the file's full path as bytes, when its name is not valid UTF-8 (see ContentFiles.raw).
 * `withStat`: also return the file's stat, taken on the open file before its bytes are read, so
 * that the stat never describes newer bytes than the text (the build cache's stat index relies
 * on that: an edit after the stat changes the stat the next build sees).
 * A file of more than MAX_CONTENT_FILE_BYTES is a problem, and none of it is read.
 */
export function readContentFile(dir: string, file: string, raw?: Buffer, withStat = false): FileText {
  const fail = (message: string): FileText => ({ ok: false, problem: { file, line: 1, column: 1, key: '', message } });
  let read: { bytes: Buffer; stat?: BigIntStats } | { tooLarge: number };
  try {
    read = readBounded(raw ?? join(dir, file), MAX_CONTENT_FILE_BYTES, withStat);
  } catch (e) {
    // The code only: node's message repeats the full path, which is outside the content's view.
    const code = (e as NodeJS.ErrnoException).code;
    return fail(code === 'ENAMETOOLONG' ? TOO_LONG : `cannot read the file (${code ?? (e as Error).message})`);
  }
  if ('tooLarge' in read) {
    return fail(`is ${describeSize(read.tooLarge)}, more than the ${describeSize(MAX_CONTENT_FILE_BYTES)} a content file may have; split it into several files`);
  }
  const { bytes, stat } = read;
  try {
    return stat ? { ok: true, text: utf8.decode(bytes), bytes, stat } : { ok: true, text: utf8.decode(bytes), bytes };
  } catch {
    // where: an editor jumps there (1:1 left a long file to be searched by hand)
    const at = firstInvalidUtf8(bytes);
    const before = utf8.decode(bytes.subarray(0, at));
    const line = before.split('\n').length;
    const column = [...before.slice(before.lastIndexOf('\n') + 1)].length + 1;
    return { ok: false, problem: { file, line, column, key: '', message: `the file is not valid UTF-8 (byte 0x${bytes[at].toString(16).padStart(2, '0')} here)` } };
  }
}

/** The offset of the first byte of `bytes` that does not start a valid UTF-8 sequence (the text is known to hold one). */
function firstInvalidUtf8(bytes: Buffer): number {
  for (let i = 0; i < bytes.length; ) {
    const sequence = sequenceAt(bytes, i);
    if (sequence === null) return i;
    i += sequence.length;
  }
  return bytes.length - 1;
}

const scratch = Buffer.allocUnsafe(64 << 10);

/**
 * open, fstat, read, close: one fstat only, as readFileSync does it (the bytes the stat's size
 * counts; a file reporting size 0 is read to its end). A file larger than `max` is not read: its
 * size is returned instead (`tooLarge`; for one reporting size 0, the bytes read when it passed).
 * The stat is returned `withStat` (a BigInt one, as the build cache keeps it).
 */
function readBounded(path: string | Buffer, max: number, withStat: boolean): { bytes: Buffer; stat?: BigIntStats } | { tooLarge: number } {
  const fd = openSync(path, 'r');
  try {
    const stat = withStat ? fstatSync(fd, { bigint: true }) : undefined;
    const info = stat ?? fstatSync(fd);
    const size = info.isFile() ? Number(info.size) : 0;
    if (size > max) return { tooLarge: size };
    if (size > 0) {
      const bytes = Buffer.allocUnsafe(size);
      let filled = 0;
      while (filled < size) {
        const n = readSync(fd, bytes, filled, size - filled, null);
        if (n === 0) break; // shrunk since the stat
        filled += n;
      }
      return { bytes: filled === size ? bytes : bytes.subarray(0, filled), stat };
    }
    const parts: Buffer[] = [];
    let total = 0;
    for (;;) {
      const n = readSync(fd, scratch, 0, scratch.length, null);
      if (n === 0) break;
      total += n;
      if (total > max) return { tooLarge: total };
      parts.push(Buffer.from(scratch.subarray(0, n)));
    }
    return { bytes: Buffer.concat(parts), stat };
  } finally {
    closeSync(fd);
  }
}
