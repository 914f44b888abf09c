// `mkdir -p` for the folders a user names (--out's parent, --cache). Node's own
// mkdirSync(path, { recursive: true }) never returns where a file system refuses to make a folder
// inside one that exists with ENOENT (procfs: `--out /proc/x/dist` spun a core for as long as it
// was let, retrying mkdir("/proc/x")). Here each missing folder is made once, from the top down,
// and the first refusal is the error.
import { mkdirSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

/** Makes `path` and the folders above it that are missing; throws the first error (ENOENT, ENOTDIR, EACCES, …). */
export function makeFolders(path: string): void {
  const missing: string[] = [];
  for (let at = resolve(path); ; at = dirname(at)) {
    let exists = true;
    try {
      statSync(at);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT' || dirname(at) === at) throw e;
      exists = false;
    }
    if (exists) break;
    missing.push(at);
  }
  for (const dir of missing.reverse()) {
    try {
      mkdirSync(dir);
    } catch (e) {
      // made meanwhile (another build) is as good; a file there fails the first write instead
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    }
  }
}
