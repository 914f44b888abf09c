// Replacing dist/ without ever leaving a half-written one in its place: the new tree is written
// beside it, then swapped in by two renames. A crash between the two leaves the old tree under
// its parked name, and `recoverDist` puts it back before anything reads or builds.
import { existsSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

const parkedPrefix = (out: string) => `.aula-old-${basename(out)}-`;
const stagingPrefix = (out: string) => `.aula-tmp-${basename(out)}-`;

export function stagingDir(out: string): string {
  return join(dirname(out), `${stagingPrefix(out)}${process.pid}-${Date.now()}`);
}

/** Puts a parked dist back when a swap was interrupted, and clears leftovers of dead builds. */
export function recoverDist(out: string): void {
  const parent = dirname(out);
  if (!existsSync(parent)) return;
  const entries = readdirSync(parent);
  const parked = entries.filter((e) => e.startsWith(parkedPrefix(out))).sort();
  if (!existsSync(out) && parked.length > 0) renameSync(join(parent, parked.pop()!), out);
  for (const e of parked) rmSync(join(parent, e), { recursive: true, force: true });
}

/** Moves `staged` to `out`, replacing what was there. */
export function swapIn(staged: string, out: string): void {
  const parked = join(dirname(out), `${parkedPrefix(out)}${process.pid}-${Date.now()}`);
  const hadOld = existsSync(out);
  if (hadOld) renameSync(out, parked);
  renameSync(staged, out);
  if (hadOld) rmSync(parked, { recursive: true, force: true });
}

/** Staging folders of builds that are no longer running. */
export function removeStaleStaging(out: string): void {
  const parent = dirname(out);
  if (!existsSync(parent)) return;
  for (const e of readdirSync(parent)) {
    if (!e.startsWith(stagingPrefix(out))) continue;
    const pid = Number(e.slice(stagingPrefix(out).length).split('-')[0]);
    if (pid !== process.pid && !isRunning(pid)) rmSync(join(parent, e), { recursive: true, force: true });
  }
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}
