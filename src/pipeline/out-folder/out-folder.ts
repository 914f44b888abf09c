// Which folders `aula build --out` may replace: the swap deletes what was there, so --out must be
// provably aula's (a dist with its manifest) or hold nothing to lose. Checked before anything moves.
import { lstatSync, readdirSync, realpathSync } from 'node:fs';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';
import { printable } from '../../util/printable.ts';
import { readCacheFile } from '../cache/cache-file.ts';
import { MADE_FILES, parseMadeFiles } from '../../store/format/made-files.ts';
import type { Manifest } from '../../store/format/manifest.ts';

/** A manifest lists a hash per public file, so it grows with the site: the cap only bounds what is read. */
export const MANIFEST_LIMIT = 256 * 1024 * 1024;

export class OutFolderError extends Error {
  override name = 'OutFolderError';
}

/** `dir/manifest.json` when it has every field aula writes (a web app's or package's manifest lacks them), else null. */
export function aulaManifest(dir: string): Manifest | null {
  let m: unknown;
  try {
    m = JSON.parse(readCacheFile(join(dir, 'manifest.json'), MANIFEST_LIMIT)?.toString() ?? 'null');
  } catch {
    return null;
  }
  const isObj = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
  // any format number: a dist of an older or newer aula is still aula's to replace
  const ours = isObj(m) && Number.isInteger(m.format) && (m.format as number) >= 1 && typeof m.version === 'string' && typeof m.built_at === 'string' &&
    typeof m.base_url === 'string' && isObj(m.site) && isObj(m.counts) && isObj(m.event_list);
  return ours ? (m as Manifest) : null;
}

const LIST_LIMIT = 64 * 1024 * 1024;

/** The paths of `dist`'s .aula-files (user-files.ts); null when missing or damaged. */
export function madeListOf(dist: string): string[] | null {
  return parseMadeFiles(readCacheFile(join(dist, MADE_FILES), LIST_LIMIT)?.toString() ?? '');
}

export const noListMessage = (shownOut: string) =>
  `--out ${shownOut} is a dist without a readable ${MADE_FILES} (written by an older aula, copied without hidden files, or damaged): aula cannot tell the files it made there from yours, so it replaces nothing; restore ${MADE_FILES}, or move your files out and remove the folder, and build again`;

/** The real path of the part of `path` that exists, the rest appended. */
export function realpathOfMaybeMissing(path: string): string {
  const abs = resolve(path);
  try {
    return realpathSync(abs);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code !== 'ENOENT' && code !== 'ENOTDIR') throw e;
    const parent = dirname(abs);
    return parent === abs ? abs : join(realpathOfMaybeMissing(parent), basename(abs));
  }
}

const inside = (child: string, parent: string) => {
  const rel = relative(parent, child);
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !rel.startsWith(sep) && !/^[a-zA-Z]:/.test(rel));
};

/**
 * Throws OutFolderError unless `out` is absent, empty, or an aula dist with its .aula-files, and
 * neither is, lies in, nor holds the content folder; or when `cache` lies in the content folder or
 * in `out` (swapped away at every build).
 */
export function checkOutFolder(out: string, content: string, cache?: string): void {
  const shown = printable(out);
  const realOut = realpathOfMaybeMissing(out);
  const realContent = realpathOfMaybeMissing(content);
  const clash = inside(realOut, realContent) ? (realOut === realContent ? 'is' : 'lies inside') : inside(realContent, realOut) ? 'contains' : null;
  if (clash !== null) throw new OutFolderError(`--out ${shown} ${clash} the content folder ${printable(content)}; refusing to replace it (choose a folder outside, e.g. dist)`);
  const realCache = cache === undefined ? null : realpathOfMaybeMissing(cache);
  if (realCache !== null && inside(realCache, realContent)) throw new OutFolderError(`--cache ${printable(cache!)} lies inside the content folder ${printable(content)}; choose a folder outside it (by default node_modules/.cache/aula)`);
  if (realCache !== null && inside(realCache, realOut)) throw new OutFolderError(`--cache ${printable(cache!)} lies inside --out ${shown}, which every build replaces; choose a folder outside it (by default node_modules/.cache/aula)`);
  const info = lstatSync(resolve(out), { throwIfNoEntry: false });
  if (info === undefined) return;
  if (info.isSymbolicLink()) throw new OutFolderError(`--out ${shown} is a symbolic link; give the folder it points to, or a new folder`);
  if (!info.isDirectory()) throw new OutFolderError(`--out ${shown} exists and is not a folder; refusing to replace it`);
  if (readdirSync(out).length === 0) return;
  if (aulaManifest(out) === null) throw new OutFolderError(`--out ${shown} is not empty and is not a dist written by aula (no aula manifest.json); refusing to replace it — give a new or empty folder`);
  if (madeListOf(out) === null) throw new OutFolderError(noListMessage(shown));
}
