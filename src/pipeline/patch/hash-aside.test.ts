import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { removeDir, tempDir } from '../../../test/helpers.ts';
import { sha256Aside, sharedBuffer } from './hash-aside.ts';
import { writeAside } from './write-aside.ts';

const root = tempDir('aula-aside-');
afterAll(() => removeDir(root));

describe('work aside', () => {
  it('hashes a large shared buffer on a worker thread, and a small or private one here, to the same digest', async () => {
    const big = sharedBuffer(17 << 20);
    for (let i = 0; i < big.length; i += 4096) big[i] = i % 251;
    big.write('the end', big.length - 7);
    const want = createHash('sha256').update(big).digest('hex');
    expect(await sha256Aside(big)).toBe(want);
    expect(await sha256Aside(Buffer.from(big))).toBe(want);
    expect(await sha256Aside(big.subarray(3, 99))).toBe(createHash('sha256').update(big.subarray(3, 99)).digest('hex'));
  });

  it('writes a new file on a libuv thread, and never over an existing one', async () => {
    const bytes = sharedBuffer(3 << 20).fill(7);
    const path = join(root, 'new.bin');
    await writeAside(path, bytes);
    expect(readFileSync(path).equals(bytes)).toBe(true);
    await expect(writeAside(path, bytes)).rejects.toThrow(/EEXIST/);
  });
});
