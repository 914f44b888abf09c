// The build cache folder: where it is by default, how its files are named, and what is removed from
// it as a caching build starts — temporaries stopped builds left, and files aula no longer reads.
// It holds what a build over the previous one needs: per content folder and out folder the dist
// ledger (ledger/dist-ledger.ts) and the event state (state/event-state.ts).
import * as crypto from 'node:crypto';
import { closeSync, existsSync, readdirSync, readSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { isRunning } from '../../util/process-alive.ts';
import { openCacheFile, unlinkQuietly } from './cache-file.ts';

/**
 * The cache folder by default: node_modules/.cache/aula of the project the command runs in. Outside
 * any project (no package.json up to the root), the user's cache folder (`$XDG_CACHE_HOME`, else
 * ~/.cache), one per working folder: a node_modules made where there was none would become the
 * folder npm installs into from below. A relative `$XDG_CACHE_HOME` is ignored, as the XDG
 * specification says; with no home folder to be found there is no cache (undefined), which a
 * build never needs.
 */
export function defaultCacheDir(cwd = process.cwd(), env = process.env): string | undefined {
  for (let dir = resolve(cwd); ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) return join(dir, 'node_modules', '.cache', 'aula');
    if (dirname(dir) !== dir) continue;
    if (isAbsolute(env.XDG_CACHE_HOME ?? '')) return join(env.XDG_CACHE_HOME!, 'aula', idOf(cwd));
    // the home folder: `HOME`, else the user's entry in the system's user database
    const home = env.HOME ?? userHome();
    return home !== undefined && isAbsolute(home) ? join(home, '.cache', 'aula', idOf(cwd)) : undefined;
  }
}

function userHome(): string | undefined {
  try {
    return homedir();
  } catch {
    return undefined;
  }
}

const idOf = (path: string) => crypto.createHash('sha256').update(resolve(path)).digest('hex').slice(0, 16);

/** `dist-<id>-<id>.json`, the dist ledger's file (the event state's is named after it): per content folder (sites sharing a cache must not evict each other) and out folder. */
export function distCacheFile(cacheDir: string, content: string, out: string): string {
  return join(resolve(cacheDir), `dist-${idOf(content)}-${idOf(out)}.json`);
}

// Temporaries a stopped build left, removed as each caching build starts: only names aula makes
// (openTemporary's `<cache file>.<pid>[-<12 hex>].tmp`, the clock probe) whose pid runs no more,
// the kinds earlier versions kept among them (their temporaries are as large as the content).
const ID = '[0-9a-f]{16}';
const KINDS = ['parsed', 'rows', 'autocomplete', 'minisearch', 'autocomplete-data', 'dist'];
const TEMPORARY = new RegExp(`^(?:(?:${KINDS.join('|')})-${ID}(?:-${ID})?\\.(?:bin|json|events)|stat-probe)\\.([0-9]+)(?:-[0-9a-f]{12})?\\.tmp$`);

/**
 * Files aula no longer reads, each by its name and the head its kind began with (`name/head`): the
 * stat index (the event state holds the stats), the rendered rows, the parses and the directory's
 * files (a build over the prior takes what did not change from the previous dist, and any other
 * build makes everything). A name with another kind's head is not one of them.
 */
const RETIRED_KINDS: readonly [name: string, head: string][] = [
  [`parsed-${ID}\\.stat`, 'AULASTAT[0-9]+'],
  [`rows-${ID}\\.bin`, 'AULAROWS'],
  [`parsed-${ID}\\.bin`, 'AULACACHE'],
  [`(?:autocomplete|minisearch|autocomplete-data)-${ID}\\.bin`, 'AULADIR'],
];
const RETIRED_NAME = new RegExp(`^(?:${RETIRED_KINDS.map(([name]) => name).join('|')})$`);
const RETIRED = new RegExp(`^(?:${RETIRED_KINDS.map(([name, head]) => `${name}/${head}`).join('|')})\n`);

/** Whether `name` in `dir` is a retired file: a regular file (not followed through a link; sparse or not, as a compressing file system makes an old parse pack look) that begins as one. */
function retired(dir: string, name: string): boolean {
  const fd = RETIRED_NAME.test(name) ? openCacheFile(join(dir, name), true) : null;
  if (fd === null) return false;
  try {
    const start = Buffer.alloc(16);
    return RETIRED.test(`${name}/${start.toString('latin1', 0, readSync(fd, start, 0, start.length, 0))}`);
  } catch {
    return false;
  } finally {
    closeSync(fd);
  }
}

/** Removes stale temporaries and retired files from `dir`. */
export function tidyCacheFolder(dir: string): void {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return; // no folder yet, or not readable: nothing to do
  }
  for (const name of names) {
    const pid = Number(TEMPORARY.exec(name)?.[1] ?? Number.NaN);
    if ((pid > 0 && Number.isSafeInteger(pid) && pid !== process.pid && !isRunning(pid)) || retired(dir, name)) unlinkQuietly(join(dir, name));
  }
}
