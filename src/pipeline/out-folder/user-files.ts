// Files somebody else put in a dist aula wrote are theirs, and a build keeps them. A build swaps a
// whole new tree in place of --out (swap.ts), which would delete a CNAME, a .nojekyll, an assets/
// folder or the .git of a gh-pages worktree without a word, so the swap moves them into the new
// tree: what aula made is what the dist's .aula-files lists (store/format/made-files.ts), and
// everything else there is the user's.
//
// A dist without its .aula-files (an older aula's, or one copied without hidden files) proves
// nothing of its files: the build refuses to replace it (out-folder.ts checkOutFolder), since a
// file of the user's nested in aula's folders could not be told from one aula made.
//
// A user's file where the new build makes one cannot be kept in place: the build refuses, before
// anything is moved, and says which.
import { lstatSync, mkdirSync, readdirSync, renameSync, rmdirSync, unlinkSync, type Dirent } from 'node:fs';
import { dirname, join } from 'node:path';
import { printable } from '../../util/printable.ts';
import { madeListOf, noListMessage, OutFolderError } from './out-folder.ts';

/** The marker of a staging folder (swap.ts): aula's, should a dist still hold one. */
export const STAGING_MARKER = '.aula-staging';

const kind = (path: string): 'none' | 'folder' | 'other' => {
  try {
    return lstatSync(path).isDirectory() ? 'folder' : 'other';
  } catch {
    return 'none';
  }
};

/**
 * What of the dist `old` aula did not make, as paths relative to it (a folder of the user's as
 * one path), placed where `staged` (the new tree) leaves room for them; `made`: what aula made
 * there, the files its .aula-files lists. Throws OutFolderError
 * naming the first that would land on something the new build makes, or when `old` has no list
 * (and is not empty).
 */
export function userEntries(old: string, staged: string, shownOut: string): { entries: string[]; made: readonly string[] } {
  const list = madeListOf(old);
  if (list === null) {
    // an empty folder holds nothing to lose
    if (readdirSync(old).length === 0) return { entries: [], made: [] };
    throw new OutFolderError(noListMessage(shownOut));
  }
  const made = new Set(list);
  const found: { rel: string; folder: boolean }[] = [];
  // the folders holding made files: only these are looked into
  const folders = new Set<string>();
  for (const f of made) for (let d = dirname(f); d !== '.' && !folders.has(d); d = dirname(d)) folders.add(d);
  const walk = (rel: string) => {
    for (const e of readdirSync(rel === '' ? old : join(old, rel), { withFileTypes: true }) as Dirent[]) {
      const path = rel === '' ? e.name : `${rel}/${e.name}`;
      if (e.isDirectory() ? folders.has(path) : made.has(path) || path === STAGING_MARKER) {
        if (e.isDirectory()) walk(path);
      } else {
        found.push({ rel: path, folder: e.isDirectory() });
      }
    }
  };
  walk('');
  const keep: string[] = [];
  const place = (rel: string, folder: boolean) => {
    const there = kind(join(staged, rel));
    if (there === 'none') {
      // a file of the new tree where the user's file needs a folder
      for (let d = dirname(rel); d !== '.'; d = dirname(d)) if (kind(join(staged, d)) === 'other') return refuse(rel);
      keep.push(rel);
    } else if (there === 'folder' && folder) {
      // a folder of theirs where the new tree has one too: their files go into it, one by one
      for (const e of readdirSync(join(old, rel), { withFileTypes: true })) place(`${rel}/${e.name}`, e.isDirectory());
    } else {
      refuse(rel);
    }
  };
  const refuse = (rel: string): never => {
    throw new OutFolderError(
      `--out ${shownOut}: ${printable(rel)} in it was not made by aula, and this build makes a file or folder in its place; move it out of the folder and build again (nothing was changed)`,
    );
  };
  for (const { rel, folder } of found) place(rel, folder);
  return { entries: keep, made: list };
}

/**
 * Removes from the former dist `dir` what aula made: every file `made` lists, and the folders left
 * empty. Anything else — a file put there while the build ran, one that could not be moved — stays, and so do manifest.json and .aula-files, which prove the folder aula's to the
 * next build (recoverDist moves those entries and removes the rest): they go last, with the
 * folder, once nothing else is left. A symbolic link is never followed (and, in a listed dist,
 * never aula's: aula makes none).
 */
export function removeMade(dir: string, made: readonly string[]): void {
  const proof = new Set(['manifest.json', '.aula-files']);
  const listed = new Set(made);
  /** empties `rel` of what aula made; true when nothing is left in it */
  const empty = (rel: string): boolean => {
    let nothingLeft = true;
    for (const e of readdirSync(rel === '' ? dir : join(dir, rel), { withFileTypes: true })) {
      const at = rel === '' ? e.name : `${rel}/${e.name}`;
      if (e.isDirectory()) {
        if (empty(at)) rmdirSync(join(dir, at));
        else nothingLeft = false;
      } else if ((rel === '' && proof.has(e.name)) || !(listed.has(at) && e.isFile())) {
        // (a listed name that is no longer a plain file is somebody's link or device: not aula's)
        nothingLeft = false;
      } else {
        unlinkSync(join(dir, at));
      }
    }
    return nothingLeft;
  };
  empty('');
  const rest = readdirSync(dir);
  if (rest.every((name) => proof.has(name))) {
    for (const name of rest) unlinkSync(join(dir, name));
    rmdirSync(dir);
  }
}

/**
 * Moves the user's entries from the former dist `from` into the new one `to`; each that could not
 * be moved (a read-only folder of theirs, a name that is not UTF-8) is reported to `stranded` with
 * its error code: it stays in the former dist, which must then not be removed whole.
 */
export function moveUserEntries(from: string, to: string, entries: readonly string[], stranded: (rel: string, code: string) => void = () => {}): boolean {
  let all = true;
  for (const rel of entries) {
    try {
      mkdirSync(dirname(join(to, rel)), { recursive: true });
      renameSync(join(from, rel), join(to, rel));
    } catch (e) {
      all = false;
      stranded(rel, (e as NodeJS.ErrnoException).code ?? 'error');
    }
  }
  return all;
}
