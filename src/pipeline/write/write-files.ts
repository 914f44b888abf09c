// Files written under a folder (a build's staging folder), their folders made.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

export function writeFiles(dir: string, files: ReadonlyMap<string, string | Uint8Array>): void {
  for (const [rel, content] of files) {
    const path = join(dir, rel);
    try {
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, content);
    } catch (e) {
      throw named(e, path);
    }
  }
}

/** node names no path when the write itself fails (ENOSPC, EIO); the user needs to know where. */
function named(e: unknown, path: string): unknown {
  const errno = e as NodeJS.ErrnoException;
  if (typeof errno.code === 'string' && errno.path === undefined) errno.path = path;
  return e;
}
