// Replacing dist/ without ever leaving a half-written one in its place: the new tree is written
// beside it, then swapped in by two renames. A crash between the two leaves the old tree under
// its parked name, and `recoverDist` puts it back before anything reads or builds.
//
// Nothing is removed that aula cannot prove it made: a staging folder carries a marker file from
// its creation until it holds a manifest, a parked folder is a former dist (its manifest), and
// names must match exactly what this module writes — a user's `.aula-old-dist-notes` is not ours.
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { isAulaDist } from './out-folder.ts';
import { runFsThread } from './fs-thread.ts';
import { isRunning } from './process-alive.ts';

const STAGING_MARKER = '.aula-staging';

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const parkedPrefix = (out: string) => `.aula-old-${basename(out)}-`;
const stagingPrefix = (out: string) => `.aula-tmp-${basename(out)}-`;
/** `<prefix><pid>-<ms>`, nothing more: the pid is group 1. */
const ownName = (prefix: string) => new RegExp(`^${escapeRegExp(prefix)}([1-9][0-9]*)-[0-9]+$`);

function isEmptyDir(dir: string): boolean {
  try {
    return readdirSync(dir).length === 0;
  } catch {
    return false;
  }
}

/** A folder this module made: a staging folder (marker or manifest) or a parked dist. */
function provablyOurs(dir: string): boolean {
  return existsSync(join(dir, STAGING_MARKER)) || isAulaDist(dir) || isEmptyDir(dir);
}

/** Creates the staging folder (and --out's parent if needed) with its marker. */
export function createStaging(out: string): string {
  const dir = join(dirname(out), `${stagingPrefix(out)}${process.pid}-${Date.now()}`);
  mkdirSync(dirname(out), { recursive: true });
  mkdirSync(dir); // not recursive: fails rather than adopting a folder that exists
  writeFileSync(join(dir, STAGING_MARKER), `${process.pid}\n`);
  return dir;
}

/** Removes a staging folder of this build (after a failure). */
export function removeStaging(dir: string): void {
  if (provablyOurs(dir)) rmSync(dir, { recursive: true, force: true });
}

/** Puts a parked dist back when a swap was interrupted, and clears leftovers of dead builds. */
export function recoverDist(out: string): void {
  const parent = dirname(out);
  if (!existsSync(parent)) return;
  const pattern = ownName(parkedPrefix(out));
  const parked = readdirSync(parent)
    .filter((e) => pattern.test(e) && provablyOurs(join(parent, e)))
    .sort((a, b) => Number(a.split('-').pop()) - Number(b.split('-').pop()));
  if (!existsSync(out) && parked.length > 0) renameSync(join(parent, parked.pop()!), out);
  for (const e of parked) rmSync(join(parent, e), { recursive: true, force: true });
}

/** Moves `staged` to `out`, replacing what was there. */
export function swapIn(staged: string, out: string): void {
  const parked = swapRenames(staged, out);
  if (parked !== null) rmSync(parked, { recursive: true, force: true });
}

/**
 * Moves `staged` to `out` as swapIn does, and removes the former dist on a worker thread: the
 * returned promise settles once it is gone (or failed to go, with the error of the removal). The
 * new dist is in place before this returns; only the parked folder is left to remove, so a
 * failure there costs nothing but that folder (the next build's recoverDist removes what is left).
 * The caller awaits it before it reads the new dist's identities (an unlink of a hard link
 * changes the ctime of the file the new dist shares) and before the build returns; the worker
 * keeps the process alive meanwhile.
 */
export function swapInLater(staged: string, out: string): Promise<void> {
  const parked = swapRenames(staged, out);
  return parked === null ? Promise.resolve() : removeOnWorker(parked);
}

/** The two renames of the swap; returns the parked former dist when there is one to remove. */
function swapRenames(staged: string, out: string): string | null {
  // From here on the manifest proves the folder is aula's; the marker must not ship in the dist.
  unlinkSync(join(staged, STAGING_MARKER));
  const parked = join(dirname(out), `${parkedPrefix(out)}${process.pid}-${Date.now()}`);
  const hadOld = existsSync(out);
  if (hadOld) renameSync(out, parked);
  renameSync(staged, out);
  // checked here, on this thread, before anything is removed: only a folder aula made goes
  return hadOld && provablyOurs(parked) ? parked : null;
}

// The worker's program. A dist is folders of plain files: each is unlinked as listed (the
// listing's types say which are folders; a symbolic link is unlinked, never followed), without
// the lstat per entry rmSync makes (a third of its time). Anything unexpected on the way, and
// rmSync finishes the job as swapIn would.
const REMOVER = `
const { readdirSync, rmdirSync, rmSync, unlinkSync } = require('node:fs');
const { join } = require('node:path');
function remove(dir) {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, e.name);
    if (e.isDirectory()) remove(path);
    else unlinkSync(path);
  }
  rmdirSync(dir);
}
try {
  remove(workerData);
} catch {
  rmSync(workerData, { recursive: true, force: true });
}
`;

/** Removes `dir` (proven aula's by the caller) on a worker thread. */
export function removeOnWorker(dir: string): Promise<void> {
  return runFsThread(REMOVER, dir, { stopped: `the removal of ${dir} stopped before it finished`, path: dir });
}

/** Staging folders of builds that are no longer running. */
export function removeStaleStaging(out: string): void {
  const parent = dirname(out);
  if (!existsSync(parent)) return;
  const pattern = ownName(stagingPrefix(out));
  for (const e of readdirSync(parent)) {
    const pid = Number(pattern.exec(e)?.[1]);
    if (!pid || pid === process.pid || isRunning(pid)) continue;
    if (provablyOurs(join(parent, e))) rmSync(join(parent, e), { recursive: true, force: true });
  }
}
