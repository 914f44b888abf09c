// Replacing dist/ without ever leaving a half-written one: the new tree is written beside it and
// swapped in by two renames; a crash between them leaves the old tree parked, and recoverDist puts
// it back. Nothing is removed that aula cannot prove it made: a staging folder has a marker until it
// holds a manifest, a parked folder is a former dist, and names must match exactly what this module
// writes. What aula did not make in a former dist moves into the new one (user-files.ts); a former
// dist still holding any is left in place.
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { MADE_FILES, madeFilesText } from '../../store/format/made-files.ts';
import { printable } from '../../util/printable.ts';
import { carryFile, type LinkOrCopy } from '../ledger/carry-over.ts';
import { listFiles } from '../../util/same-files.ts';
import { aulaManifest, madeListOf, OutFolderError } from './out-folder.ts';
import { removeMade, STAGING_MARKER, userEntries, type Removal } from './user-files.ts';
import { isRunning } from '../../util/process-alive.ts';

const parkedPrefix = (out: string) => `.aula-old-${basename(out)}-`;
const stagingPrefix = (out: string) => `.aula-tmp-${basename(out)}-`;
/** The pid in `name` when it is `<prefix><pid>-<ms>`, nothing more; else 0. */
const pidIn = (name: string, prefix: string) => (name.startsWith(prefix) ? Number(/^([1-9][0-9]*)-[0-9]+$/.exec(name.slice(prefix.length))?.[1] ?? 0) : 0);

/** A folder this module made: a staging folder (marker or manifest) or a parked dist, or one holding nothing. */
function provablyOurs(dir: string): boolean {
  if (existsSync(join(dir, STAGING_MARKER)) || aulaManifest(dir) !== null) return true;
  try {
    return readdirSync(dir).length === 0;
  } catch {
    return false;
  }
}

/** Staging folders of this process neither swapped in nor removed yet. */
const liveStaging = new Set<string>();
/** Whether this process has begun a swap (a build stopped after that may have replaced the dist). */
let swapBegun = false;
export const hasSwapped = () => swapBegun;

export function createStaging(out: string): string {
  // beside --out, whose parent withLockedOut made
  const dir = join(dirname(out), `${stagingPrefix(out)}${process.pid}-${Date.now()}`);
  mkdirSync(dir); // not recursive: fails rather than adopting a folder that exists
  liveStaging.add(dir);
  writeFileSync(join(dir, STAGING_MARKER), `${process.pid}\n`);
  return dir;
}

/** Runs `make` on a new staging folder; a failure removes it, and calls `abandon`. */
export async function inStaging<T>(out: string, abandon: () => void, make: (staging: string) => Promise<T>): Promise<T> {
  let staging: string | null = null;
  try {
    staging = createStaging(out);
    return await make(staging);
  } catch (e) {
    abandon();
    if (staging !== null) {
      liveStaging.delete(staging);
      if (provablyOurs(staging)) rmSync(staging, { recursive: true, force: true });
    }
    throw e;
  }
}

/**
 * Removes this process's live staging folders (a build stopped by a signal). Its threads may still
 * write into one: removed again until it stays gone a moment, for a few seconds at most.
 */
export function removeLiveStaging(): void {
  const pause = new Int32Array(new SharedArrayBuffer(4));
  for (const dir of liveStaging) {
    const until = Date.now() + 3_000;
    for (let quiet = 0; quiet < 3 && Date.now() < until; Atomics.wait(pause, 0, 0, 50)) {
      quiet = existsSync(dir) ? 0 : quiet + 1;
      try {
        rmSync(dir, { recursive: true, force: true });
      } catch {
        // a thread wrote into it meanwhile: again
      }
    }
  }
  liveStaging.clear();
}

/** Puts a parked dist back after an interrupted swap, and clears what dead builds left: their former dists, their staging folders. */
export async function recoverDist(out: string, warn: (message: string) => void = () => {}): Promise<void> {
  const parent = dirname(out);
  const names = readdirSync(parent);
  const parked = names
    .filter((e) => pidIn(e, parkedPrefix(out)) > 0 && provablyOurs(join(parent, e)))
    .sort((a, b) => Number(a.split('-').pop()) - Number(b.split('-').pop()));
  if (!existsSync(out) && parked.length > 0) renameSync(join(parent, parked.pop()!), out);
  for (const e of parked) {
    try {
      // a swap stopped after its renames: the user's files may still be in the former dist
      await rescueUserEntries(join(parent, e), out, warn, true);
    } catch {
      // unreadable, or a file that cannot be removed: tried again at the next build
    }
  }
  for (const e of names) {
    const pid = pidIn(e, stagingPrefix(out));
    if (pid && pid !== process.pid && !isRunning(pid) && provablyOurs(join(parent, e))) rmSync(join(parent, e), { recursive: true, force: true });
  }
}

/**
 * Moves a parked dist's user entries into `out` and, when it is `ours`, removes what aula made
 * there; what is left is tried again next build. `during.meanwhile` runs once, whatever stays.
 */
async function rescueUserEntries(parked: string, out: string, warn: (message: string) => void, ours: boolean, during?: Removal): Promise<void> {
  let found;
  try {
    found = userEntries(parked, out, printable(out));
  } catch (e) {
    // one would land on a file of the dist, or it has no list: it stays, said at every build
    if (!(e instanceof OutFolderError)) throw e;
    during?.meanwhile();
    return warn(madeListOf(parked) !== null ? e.message : `${printable(parked)} is a former dist without a readable ${MADE_FILES}: aula cannot tell the files it made there from yours, so it leaves the folder; move your files out of it and remove it`);
  }
  let moved = true;
  for (const rel of found.entries) {
    try {
      mkdirSync(dirname(join(out, rel)), { recursive: true });
      renameSync(join(parked, rel), join(out, rel));
    } catch (e) {
      moved = false;
      warn(`${printable(join(out, rel))} could not be moved into the new dist (${(e as NodeJS.ErrnoException).code ?? 'error'}): it stays in ${printable(join(parked, rel))}, and the next build tries again`);
    }
  }
  if (!ours) return during?.meanwhile();
  // the former dist stays when something aula did not make stands at a path it did (a link, a
  // device), which can neither be removed nor moved: said, with the first such path
  const left = await removeMade(parked, found.made, during, out);
  if (!moved || left.length === 0) return;
  const more = left.length > 1 ? ` (and ${left.length - 1} more)` : '';
  warn(`${printable(join(parked, left[0]))}${more} stands where aula made a file but is not one it made (a link, or not a regular file): aula leaves it, and ${printable(parked)} with it; remove that folder when it is no longer needed`);
}

/**
 * Moves `staged` to `out`, and removes the former dist. Its files are mostly hard links to the new
 * dist's, and each unlink moves a ctime: `during.meanwhile` (the ledger's record of identities) runs
 * once those are gone, while the rest are removed, or once the dist is in place when nothing is.
 */
export async function swapIn(staged: string, out: string, warn: (message: string) => void = () => {}, files?: readonly string[], links?: LinkOrCopy, during?: Removal): Promise<void> {
  const hadOld = existsSync(out);
  // what the user keeps in the former dist must have room in the new one: refused before anything moves
  if (hadOld) userEntries(out, staged, printable(out));
  // .aula-files, carried over from the former dist when the same, so it keeps its mtime as unchanged files do
  const list = join(staged, MADE_FILES);
  writeFileSync(list, madeFilesText([...(files ?? listFiles(staged)).filter((f) => f !== STAGING_MARKER && f !== MADE_FILES), MADE_FILES]));
  if (hadOld) carryFile(join(out, MADE_FILES), list, links);
  // From here on the manifest proves the folder aula's, and the marker must not ship. Not removed
  // if stopped now: it is about to be the dist, or the old one is parked for recoverDist.
  liveStaging.delete(staged);
  swapBegun = true;
  unlinkSync(join(staged, STAGING_MARKER));
  if (!hadOld) {
    renameSync(staged, out);
    return during?.meanwhile();
  }
  const parked = join(dirname(out), `${parkedPrefix(out)}${process.pid}-${Date.now()}`);
  renameSync(out, parked);
  renameSync(staged, out);
  // only a folder aula made goes, and of it only what its list names
  await rescueUserEntries(parked, out, warn, provablyOurs(parked), during);
}
