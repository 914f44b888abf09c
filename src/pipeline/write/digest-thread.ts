// The thread module that digests data files for the manifest (FileDigest: the SHA-256 of the
// whole and, for a large file, of each block) off the build's main thread, which makes the
// columns and the calendar meanwhile. A file comes as a view of shared memory (the event parts:
// row-bytes.ts), hashed where it is, or as the path it was just written to, read back a block at
// a time: neither is copied whole into this thread's heap.
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { BLOCK_BYTES, BLOCKED_FILE_BYTES, digestOf, type FileDigest } from '../../store/format/manifest.ts';

/** A file to digest: its bytes in shared memory, or its path and the length written there. */
export type DigestJob = { bytes: Uint8Array } | { path: string; bytes: number };

export function answer(job: DigestJob): FileDigest {
  return typeof job.bytes === 'number' ? digestOfFile((job as { path: string }).path, job.bytes) : digestOf(job.bytes);
}

/** digestOf the file at `path`, read a block at a time; it must hold exactly `bytes` bytes. */
export function digestOfFile(path: string, bytes: number): FileDigest {
  const fd = openSync(path, 'r');
  try {
    if (fstatSync(fd).size !== bytes) throw new Error(`${path}: changed while it was digested`);
    const whole = createHash('sha256');
    const block = Buffer.allocUnsafe(Math.min(BLOCK_BYTES, Math.max(bytes, 1)));
    let blocks = bytes >= BLOCKED_FILE_BYTES ? '' : undefined;
    for (let at = 0; at < bytes; ) {
      const want = Math.min(BLOCK_BYTES, bytes - at);
      let got = 0;
      while (got < want) {
        const n = readSync(fd, block, got, want - got, at + got);
        if (n === 0) throw new Error(`${path}: changed while it was digested`);
        got += n;
      }
      const view = block.subarray(0, want);
      whole.update(view);
      if (blocks !== undefined) blocks += createHash('sha256').update(view).digest('base64');
      at += want;
    }
    const sha256 = whole.digest('hex');
    return blocks === undefined ? { sha256, bytes } : { sha256, bytes, blocks };
  } finally {
    closeSync(fd);
  }
}
