// Files written under a folder (a build's staging folder), their folders made.
import { mkdirSync, writeFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';

/** Writes `files` (paths relative to `dir`) under `dir`. */
export function writeFiles(dir: string, files: ReadonlyMap<string, string | Uint8Array>): void {
  // each folder made once: the thousands of pages of a long list share one
  const made = new Set<string>();
  for (const [rel, content] of files) {
    const path = join(dir, rel);
    try {
      const folder = dirname(path);
      if (!made.has(folder)) {
        mkdirSync(folder, { recursive: true });
        made.add(folder);
      }
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

/**
 * As writeFiles, the writes made on libuv's pool while this thread goes on (the event parts the
 * render stage makes). Settles when all are written; rejects with the first failure, its path
 * named, once none is being written.
 */
export async function writeFilesLater(dir: string, files: ReadonlyMap<string, string | Uint8Array>): Promise<void> {
  const writes = [...files].map(async ([rel, content]) => {
    const path = join(dir, rel);
    try {
      mkdirSync(dirname(path), { recursive: true });
      await writeFile(path, content);
    } catch (e) {
      throw named(e, path);
    }
  });
  for (const r of await Promise.allSettled(writes)) if (r.status === 'rejected') throw r.reason;
}
