// Which folders `aula build --out` may replace. The build swaps a new tree in place of --out,
// which deletes what was there; so --out must be something aula can prove is its own (a dist it
// wrote, recognised by its manifest), or hold nothing to lose. Checked before anything is
// created, moved or removed.
import { lstatSync, readdirSync, realpathSync, type Stats } from 'node:fs';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';
import { printable } from '../../util/printable.ts';
import { readSmallFile } from '../cache/cache-file.ts';
import { MADE_FILES, parseMadeFiles } from '../../store/format/made-files.ts';

/**
 * A manifest lists a hash per public file (a page per 20 events, every media copy): 1 MiB is
 * passed at ~10,000 pages. The cap only bounds what is read; lstat already refuses non-files.
 */
export const MANIFEST_LIMIT = 256 * 1024 * 1024;

export class OutFolderError extends Error {
  override name = 'OutFolderError';
}

/**
 * True when `dir/manifest.json` is a manifest aula wrote: every field aula writes, of the right
 * type. A file that merely happens to be called manifest.json (a web app's, a package's) lacks them.
 */
export function isAulaDist(dir: string): boolean {
  const text = readSmallFile(join(dir, 'manifest.json'), MANIFEST_LIMIT);
  if (text === null) return false;
  let m: unknown;
  try {
    m = JSON.parse(text);
  } catch {
    return false;
  }
  if (m === null || typeof m !== 'object') return false;
  const r = m as Record<string, unknown>;
  const isObj = (v: unknown) => v !== null && typeof v === 'object' && !Array.isArray(v);
  return (
    // any format number: a dist of an older or newer aula is still aula's to replace
    Number.isInteger(r.format) &&
    (r.format as number) >= 1 &&
    typeof r.version === 'string' &&
    typeof r.built_at === 'string' &&
    typeof r.base_url === 'string' &&
    isObj(r.site) &&
    isObj(r.counts) &&
    isObj(r.event_list)
  );
}

/** Far above what a large dist's .aula-files holds; the cap only bounds what is read. */
const LIST_LIMIT = 64 * 1024 * 1024;

/** The paths `dist` lists in its .aula-files (user-files.ts), or null when it has none (or a damaged one). */
export function madeListOf(dist: string): string[] | null {
  const text = readSmallFile(join(dist, MADE_FILES), LIST_LIMIT);
  return text === null ? null : parseMadeFiles(text);
}

/** Why a dist without its list is not replaced: one line, naming the folder. */
export const noListMessage = (shownOut: string) =>
  `--out ${shownOut} is a dist without a readable ${MADE_FILES} (written by an older aula, copied without hidden files, or damaged): aula cannot tell the files it made there from yours, so it replaces nothing; restore ${MADE_FILES}, or move your files out and remove the folder, and build again`;

/** The real path of `path`, resolving the part that exists and appending the rest (which does not). */
export function realpathOfMaybeMissing(path: string): string {
  const abs = resolve(path);
  const missing: string[] = [];
  for (let at = abs; ; ) {
    try {
      return join(realpathSync(at), ...missing.reverse());
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      // (a path through a file cannot exist either: its parts from there on are missing too)
      if (code !== 'ENOENT' && code !== 'ENOTDIR') throw e;
      const parent = dirname(at);
      if (parent === at) return abs;
      missing.push(basename(at));
      at = parent;
    }
  }
}

const inside = (child: string, parent: string) => {
  const rel = relative(parent, child);
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !rel.startsWith(sep) && !/^[a-zA-Z]:/.test(rel));
};

/**
 * Throws OutFolderError (one line, naming the folder) unless `out` may be replaced by a build
 * of `content`: absent, an empty folder, or a dist written by aula with the list of the files it
 * made (user-files.ts) — and neither the content
 * folder, nor inside it, nor holding it.
 */
export function checkOutFolder(out: string, content: string): void {
  const shown = printable(out);
  const realOut = realpathOfMaybeMissing(out);
  const realContent = realpathOfMaybeMissing(content);
  if (inside(realOut, realContent)) {
    const what = realOut === realContent ? 'is the content folder' : 'lies inside the content folder';
    throw new OutFolderError(`--out ${shown} ${what} ${printable(content)}; refusing to replace it (choose a folder outside, e.g. dist)`);
  }
  if (inside(realContent, realOut)) {
    throw new OutFolderError(`--out ${shown} contains the content folder ${printable(content)}; refusing to replace it (choose a folder outside, e.g. dist)`);
  }
  let info: Stats;
  try {
    info = lstatSync(resolve(out));
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw e;
  }
  if (info.isSymbolicLink()) {
    throw new OutFolderError(`--out ${shown} is a symbolic link; give the folder it points to, or a new folder`);
  }
  if (!info.isDirectory()) throw new OutFolderError(`--out ${shown} exists and is not a folder; refusing to replace it`);
  if (readdirSync(out).length === 0) return;
  if (isAulaDist(out)) {
    if (madeListOf(out) === null) throw new OutFolderError(noListMessage(shown));
    return;
  }
  throw new OutFolderError(
    `--out ${shown} is not empty and is not a dist written by aula (no aula manifest.json); refusing to replace it — give a new or empty folder`,
  );
}

/**
 * Throws OutFolderError (one line) when the build cache folder `cache` would be written inside the
 * content folder (its files would sit among the user's content) or inside `out` (the build
 * replaces that folder: the cache would be swapped away with the old dist, every time).
 */
export function checkCacheFolder(cache: string, content: string, out: string): void {
  const realCache = realpathOfMaybeMissing(cache);
  const shown = printable(cache);
  if (inside(realCache, realpathOfMaybeMissing(content))) {
    throw new OutFolderError(`--cache ${shown} lies inside the content folder ${printable(content)}; choose a folder outside it (by default node_modules/.cache/aula)`);
  }
  if (inside(realCache, realpathOfMaybeMissing(out))) {
    throw new OutFolderError(`--cache ${shown} lies inside --out ${printable(out)}, which every build replaces; choose a folder outside it (by default node_modules/.cache/aula)`);
  }
}
