// Data files digested for the manifest (FileDigest: the SHA-256 of the whole and, for a large
// file, of each block) on a thread of their own, while the build's main thread makes the rest. A
// file comes as a view of shared memory (the event parts: row-bytes.ts), hashed where it is, or as
// the path it was just written to, read back a block at a time: never copied whole.
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { BLOCK_BYTES, BLOCKED_FILE_BYTES, digestOf, type FileDigest } from '../format/manifest.ts';
import { ThreadPool, threadModule } from '../../util/start-thread.ts';

/** A file to digest: its bytes in shared memory, or its path and the length written there. */
export type DigestJob = { bytes: Uint8Array } | { path: string; bytes: number };

export function answer(job: DigestJob): FileDigest {
  return 'path' in job ? digestOfFile(job.path, job.bytes) : digestOf(job.bytes);
}

/** digestOf the file at `path`, read a block at a time; it must hold exactly `bytes` bytes. */
export function digestOfFile(path: string, bytes: number): FileDigest {
  const fd = openSync(path, 'r');
  try {
    const changed = () => new Error(`${path}: changed while it was digested`);
    if (fstatSync(fd).size !== bytes) throw changed();
    const whole = createHash('sha256');
    const block = Buffer.allocUnsafe(Math.min(BLOCK_BYTES, Math.max(bytes, 1)));
    let blocks = bytes >= BLOCKED_FILE_BYTES ? '' : undefined;
    for (let at = 0; at < bytes; ) {
      const view = block.subarray(0, Math.min(BLOCK_BYTES, bytes - at));
      for (let got = 0, n; got < view.length; got += n) if ((n = readSync(fd, view, got, view.length - got, at + got)) === 0) throw changed();
      whole.update(view);
      if (blocks !== undefined) blocks += createHash('sha256').update(view).digest('base64');
      at += view.length;
    }
    const sha256 = whole.digest('hex');
    return blocks === undefined ? { sha256, bytes } : { sha256, bytes, blocks };
  } finally {
    closeSync(fd);
  }
}

/** Data files from this size on are worth digesting on the thread: a smaller one costs less to hash than to hand over. */
const ON_THREAD_BYTES = 1 << 20;

/**
 * The digest thread's job for `content`, to be at `path`: its bytes when shared, else its path once
 * written now (not `later`); null where it is better digested on the calling thread.
 */
export function digestJob(content: string | Uint8Array, path: string, later: boolean): DigestJob | null {
  if (typeof content === 'string' || content.byteLength < ON_THREAD_BYTES) return null;
  return content.buffer instanceof SharedArrayBuffer ? { bytes: content } : later ? null : { path, bytes: content.byteLength };
}

/** Digests made on the digest thread (started with the first), in the order asked. */
export class Digester {
  private readonly thread = new ThreadPool<DigestJob, FileDigest>(threadModule(import.meta.url, 'digest-thread'), { stopped: 'the digest thread stopped' });

  digest(job: DigestJob): Promise<FileDigest> {
    const digest = this.thread.ask(job);
    digest.catch(() => undefined); // awaited by the caller later; not an unhandled rejection meanwhile
    return digest;
  }

  /** Ends the thread (started again when asked for another digest, unless a thread failed: then every digest asked rejects). */
  async end(): Promise<void> {
    await this.thread.end();
  }
}
