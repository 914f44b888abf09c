// Paths as init compares them: inside a folder or not, through symbolic links, and the git
// repository a folder is in.
import { existsSync, realpathSync } from 'node:fs';
import { dirname, join, sep } from 'node:path';

export const isInside = (root: string, path: string) => path === root || path.startsWith(root.endsWith(sep) ? root : root + sep);

/** The real path, or the path as given where it does not exist (yet). */
export const realOr = (path: string) => {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
};

/** The top of the git repository the site is in: the nearest folder up from it with a .git; none yet: null. */
export function repositoryOf(site: string): string | null {
  for (let dir = site; ; dir = dirname(dir)) {
    if (existsSync(join(dir, '.git'))) return dir;
    if (dirname(dir) === dir) return null;
  }
}
