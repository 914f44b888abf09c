// Files somebody else put in a dist are theirs (a CNAME, .nojekyll, a gh-pages worktree's .git): the
// swap moves them into the new tree. What aula made is what .aula-files lists; a dist without it
// proves nothing and is not replaced. A user's file where the new build makes one: the build
// refuses before anything moves, and says which.
import { lstatSync, readdirSync, rmdirSync, unlinkSync, type Dirent } from 'node:fs';
import { dirname, join } from 'node:path';
import { MADE_FILES } from '../../store/format/made-files.ts';
import { printable } from '../../util/printable.ts';
import { QUEUED_WHILE_BUSY, unlinkMany } from '../../util/unlink-many.ts';
import { keepSpares } from '../../util/spare-files.ts';
import { madeListOf, noListMessage, OutFolderError } from './out-folder.ts';

/** A staging folder's marker (swap.ts): aula's, should a dist still hold one. */
export const STAGING_MARKER = '.aula-staging';

const kind = (path: string): 'none' | 'folder' | 'other' => {
  try {
    return lstatSync(path).isDirectory() ? 'folder' : 'other';
  } catch {
    return 'none';
  }
};

/**
 * What of the dist `old` aula did not make (a user's folder as one path), placed where `staged`
 * leaves room; `made`: its .aula-files. Throws OutFolderError naming the first that would land on
 * something the new build makes, or when a non-empty `old` has no list.
 */
export function userEntries(old: string, staged: string, shownOut: string): { entries: string[]; made: readonly string[] } {
  const list = madeListOf(old);
  if (list === null) {
    if (readdirSync(old).length === 0) return { entries: [], made: [] };
    throw new OutFolderError(noListMessage(shownOut));
  }
  const made = new Set(list);
  // the folders holding made files: only these are looked into
  const folders = new Set<string>();
  for (const f of made) for (let d = dirname(f); d !== '.' && !folders.has(d); d = dirname(d)) folders.add(d);
  const walk = (rel: string) => {
    for (const e of readdirSync(rel === '' ? old : join(old, rel), { withFileTypes: true }) as Dirent[]) {
      const path = rel === '' ? e.name : `${rel}/${e.name}`;
      const ours = e.isDirectory() ? folders.has(path) : made.has(path) || path === STAGING_MARKER;
      if (!ours) place(path, e.isDirectory());
      else if (e.isDirectory()) walk(path);
    }
  };
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
    throw new OutFolderError(`--out ${shownOut}: ${printable(rel)} in it was not made by aula, and this build makes a file or folder in its place; move it out of the folder and build again (nothing was changed)`);
  };
  walk('');
  return { entries: keep, made: list };
}

/** `shared`: a file the new dist holds a hard link to (its unlink moves that file's ctime, and frees nothing); `meanwhile` runs once those are gone, while the others' unlinks wait on the device. */
export type Removal = { shared: (rel: string) => boolean; meanwhile: () => void };

/**
 * Removes from the former dist `dir` every file `made` lists and the folders left empty; returns
 * what else stays. manifest.json and .aula-files, the proof for the next build's recoverDist, go
 * last, with the folder, once nothing else is left. No link is followed (aula makes none). Shared
 * files go one by one (an unlink that frees nothing costs less here than on a thread), the others
 * several at a time (util/unlink-many.ts) or kept as `out`'s spares, then the folders, each after those within it.
 */
export async function removeMade(dir: string, made: readonly string[], during: Removal = { shared: () => false, meanwhile: () => {} }, out?: string): Promise<string[]> {
  const proof = new Set(['manifest.json', MADE_FILES]);
  const listed = new Set(made);
  const [left, shared, freed, folders] = [[] as string[], [] as string[], [] as string[], [] as string[]];
  const scan = (rel: string): void => {
    for (const e of readdirSync(join(dir, rel), { withFileTypes: true })) {
      const at = rel === '' ? e.name : `${rel}/${e.name}`;
      if (e.isDirectory()) {
        const before = left.length;
        scan(at);
        if (left.length === before) folders.push(at);
      } else if (rel === '' && proof.has(e.name)) {
        // the proof: last, below (no file the new dist's ledger lists)
      } else if (listed.has(at) && e.isFile()) {
        (during.shared(at) ? shared : freed).push(join(dir, at));
      } else {
        // not aula's: the user's, or a listed name that is no plain file now (somebody's link or device)
        left.push(at);
      }
    }
  };
  scan('');
  for (const path of shared) unlinkSync(path);
  // queued at once: the pool's threads go on with them while `meanwhile` keeps this thread; the dataset's are never spares (a server holds them open)
  const freeing = out === undefined ? unlinkMany(freed, QUEUED_WHILE_BUSY) : keepSpares(out, freed, QUEUED_WHILE_BUSY, (path) => !path.startsWith(join(dir, 'data/')));
  try {
    during.meanwhile();
  } finally {
    await freeing;
  }
  for (const at of folders) rmdirSync(join(dir, at));
  const rest = readdirSync(dir);
  if (rest.every((name) => proof.has(name))) {
    for (const name of rest) unlinkSync(join(dir, name));
    rmdirSync(dir);
  }
  return left;
}
