// Files written under a folder (a build's staging folder), their folders made.
import { close, mkdirSync, openSync, write, writeFileSync } from 'node:fs';
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
 *
 * Each file is opened here and handed to the pool as one write of its whole bytes, which the pool
 * finishes without this thread. fs/promises' writeFile writes 512 KiB a step, each step waiting
 * for a turn of this thread's event loop: behind a render stage that does not yield, a 50 MB part
 * waited for a hundred turns, and every part's bytes stayed in memory until the stage ended.
 */
export async function writeFilesLater(dir: string, files: ReadonlyMap<string, string | Uint8Array>): Promise<void> {
  const writes = [...files].map(([rel, content]) => {
    const path = join(dir, rel);
    return writeWhole(path, content).catch((e: unknown) => {
      throw named(e, path);
    });
  });
  for (const r of await Promise.allSettled(writes)) if (r.status === 'rejected') throw r.reason;
}

/** `content` written to `path` on libuv's pool: opened now, then written whole (a short write goes on from where it ended), then closed. */
function writeWhole(path: string, content: string | Uint8Array): Promise<void> {
  // The bytes are let go of once written: the last callback is still on the stack when the steps
  // awaiting the write run, and what its closures hold cannot be collected there (the rows).
  let bytes: Uint8Array | null = typeof content === 'string' ? Buffer.from(content) : content;
  content = '';
  return new Promise((done, failed) => {
    let fd: number;
    try {
      mkdirSync(dirname(path), { recursive: true });
      fd = openSync(path, 'w');
    } catch (e) {
      bytes = null;
      failed(e);
      return;
    }
    const end = (error: unknown) => {
      bytes = null;
      close(fd, (closing) => (error || closing ? failed(error ?? closing) : done()));
    };
    const from = (at: number) => {
      const all = bytes!;
      if (at === all.byteLength) return end(null);
      write(fd, all, at, all.byteLength - at, at, (e, n) => (e ? end(e) : n === 0 ? end(new Error('the write wrote nothing')) : from(at + n)));
    };
    from(0);
  });
}
