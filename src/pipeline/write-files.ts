// Files written under a folder (the staging folder of a build or a patch), their folders made.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** Writes `files` (paths relative to `dir`) under `dir`, noting each path in `wrote` when given. */
export function writeFiles(dir: string, files: ReadonlyMap<string, string | Uint8Array>, wrote?: Set<string>): void {
  for (const [rel, content] of files) {
    wrote?.add(rel);
    const path = join(dir, rel);
    try {
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, content);
    } catch (e) {
      // node names no path when the write itself fails (ENOSPC, EIO); the user needs to know where.
      const errno = e as NodeJS.ErrnoException;
      if (typeof errno.code === 'string' && errno.path === undefined) errno.path = path;
      throw e;
    }
  }
}
