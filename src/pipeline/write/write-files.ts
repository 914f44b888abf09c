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
 * finishes without this thread: fs/promises' writeFile writes 512 KiB a step, each step waiting
 * for a turn of this thread's event loop, which a render stage that does not yield never gives,
 * so the parts would be written, and their bytes let go of, only once the stage ends.
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
  const bytes = typeof content === 'string' ? Buffer.from(content) : content;
  return new Promise((done, failed) => {
    let fd: number;
    try {
      mkdirSync(dirname(path), { recursive: true });
      fd = openSync(path, 'w');
    } catch (e) {
      failed(e);
      return;
    }
    const end = (error: unknown) => close(fd, (closing) => (error || closing ? failed(error ?? closing) : done()));
    const from = (at: number) => {
      if (at === bytes.byteLength) return end(null);
      try {
        write(fd, bytes, at, bytes.byteLength - at, at, (e, n) => (e ? end(e) : n === 0 ? end(Object.assign(new Error('the write wrote nothing'), { code: 'EIO' })) : from(at + n)));
      } catch (e) {
        // (a write refused before it is queued: the descriptor is still closed, the failure still named)
        end(e);
      }
    };
    from(0);
  });
}
