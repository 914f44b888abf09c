// Files written under a folder (a build's staging folder), their folders made.
import { close, mkdirSync, openSync, write, writeFileSync } from 'node:fs';
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

/**
 * Writes a file, its folder made, on libuv's pool while this thread goes on. One whole write:
 * fs/promises' writeFile waits for a turn of this thread's event loop between steps, which a
 * render stage that does not yield never gives.
 */
export async function writeFileLater(path: string, content: string | Uint8Array): Promise<void> {
  const bytes = typeof content === 'string' ? Buffer.from(content) : content;
  mkdirSync(dirname(path), { recursive: true });
  const fd = openSync(path, 'w');
  const failure = await writeAt(fd, bytes, bytes.byteLength, 0).then(() => null, (e: unknown) => e ?? new Error('the write failed'));
  // closed whether or not the write failed
  await new Promise<void>((done, failed) => close(fd, (closing) => (failure ?? closing ? failed(named(failure ?? closing, path)) : done())));
}

/** Writes `n` bytes of `bytes` at `at` in `fd`, on libuv's pool, in as many writes as it takes. */
export function writeAt(fd: number, bytes: Uint8Array, n: number, at: number): Promise<void> {
  return new Promise((done, failed) => {
    const from = (k: number) => {
      if (k === n) return done();
      try {
        write(fd, bytes, k, n - k, at + k, (e, wrote) => (e ? failed(e) : wrote === 0 ? failed(Object.assign(new Error('the write wrote nothing'), { code: 'EIO' })) : from(k + wrote)));
      } catch (e) {
        failed(e); // refused before it is queued
      }
    };
    from(0);
  });
}
