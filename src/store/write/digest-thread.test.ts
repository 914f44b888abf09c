import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { removeDir, tempDir } from '../../../test/helpers.ts';
import { BLOCK_BYTES, BLOCKED_FILE_BYTES, digestOf } from '../format/manifest.ts';
import { digestOfFile } from './digest-thread.ts';
import { StagedDist } from '../../pipeline/write/staged-dist.ts';

// the thread module on a real worker thread, as an installed aula runs it (start-thread.ts)
process.env.AULA_THREADS = 'worker';

const roots: string[] = [];
afterEach(() => roots.splice(0).forEach(removeDir));

/** `n` bytes that differ from block to block */
const bytesOf = (n: number, seed: number) => Uint8Array.from({ length: n }, (_, i) => (i * 31 + seed + (i >> 18)) & 255);

describe('the digest thread', () => {
  it('digests a file read back a block at a time as digestOf its bytes, blocks and all, at every edge of the blocks', () => {
    const root = tempDir('aula-digest-');
    roots.push(root);
    for (const n of [0, 1, BLOCK_BYTES, BLOCK_BYTES + 1, BLOCKED_FILE_BYTES - 1, BLOCKED_FILE_BYTES, BLOCKED_FILE_BYTES + BLOCK_BYTES + 17]) {
      const bytes = bytesOf(n, n);
      const path = join(root, `f${n}`);
      writeFileSync(path, bytes);
      expect(digestOfFile(path, n)).toEqual(digestOf(bytes));
    }
    // a file that is not the length written: refused, not digested as it is
    expect(() => digestOfFile(join(root, 'f1'), 2)).toThrow(/changed while it was digested/);
  });

  it("gives a dist without a ledger the digests of its large data files from the thread, shared or read back, as digestOf gives them, and writes every file", async () => {
    const root = tempDir('aula-digest-');
    roots.push(root);
    const dist = new StagedDist(join(root, 'staging'), join(root, 'out'), null);
    const shared = Buffer.from(new SharedArrayBuffer(BLOCKED_FILE_BYTES + 5));
    shared.set(bytesOf(shared.length, 3));
    const files = new Map<string, string | Uint8Array>([
      ['data/large.bin', bytesOf(BLOCKED_FILE_BYTES + 3 * BLOCK_BYTES, 1)],
      ['data/medium.bin', bytesOf(2 << 20, 2)],
      ['data/small.bin', bytesOf(1000, 4)],
      ['data/text.json', 'x'.repeat(3 << 20)],
      ['data/events/00000.jsonl', shared.subarray(0, 3 << 20)],
      ['data/events/00001.jsonl', shared.subarray(3 << 20)],
    ]);
    for (const [rel, content] of files) dist.data(rel, content, rel.startsWith('data/events/'));
    // the large files written but not digested yet on this thread
    expect(dist.digests.has('data/large.bin')).toBe(false);
    expect(dist.digests.has('data/small.bin')).toBe(true);
    await dist.digested();
    await dist.settled();
    for (const [rel, content] of files) {
      expect(dist.digests.get(rel)).toEqual(digestOf(content));
      expect(dist.written.get(rel)).toEqual({ sha: digestOf(content).sha256 });
      expect(readFileSync(join(root, 'staging', rel)).equals(Buffer.from(content))).toBe(true);
    }
    // nothing left to digest: resolves, and changes nothing
    const digests = new Map(dist.digests);
    await dist.digested();
    expect(dist.digests).toEqual(digests);
  }, 60_000);
});
