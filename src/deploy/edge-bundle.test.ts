// The block sums an --edge build writes beside the bundle: one file per file the manifest lists
// them for, named by their SHA-256, made from the files as they will be served.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { removeDir, tempDir } from '../../test/helpers.ts';
import { BLOCKED_FILE_BYTES, blockSumsFile, digestOf, sha256Hex, sumsOfBlocks, type Manifest } from '../store/format/manifest.ts';
import { blockSumFiles } from './edge-bundle.ts';

const root = tempDir('aula-edge-sums-');
afterAll(() => removeDir(root));

describe('blockSumFiles', () => {
  it('writes the sums of each file listing them, named by their SHA-256; a file changed since it was digested fails the build', () => {
    const big = new Uint8Array(BLOCKED_FILE_BYTES + 5).map((_, i) => i * 31);
    const small = new Uint8Array(100).fill(7);
    mkdirSync(join(root, 'data'), { recursive: true });
    writeFileSync(join(root, 'data/big.bin'), big);
    writeFileSync(join(root, 'data/small.bin'), small);
    const manifest = { files: { 'data/big.bin': digestOf(big), 'data/small.bin': digestOf(small) } } as unknown as Manifest;
    const sums = blockSumFiles(root, manifest);
    const name = blockSumsFile(manifest.files['data/big.bin'] as { blocks: string });
    expect([...sums.keys()]).toEqual([name]);
    expect(name).toBe(`edge/blocks/${sha256Hex(sumsOfBlocks(big))}.bin`);
    expect(Buffer.from(sums.get(name)!).equals(Buffer.from(sumsOfBlocks(big)))).toBe(true);
    // one byte changed after the manifest was made
    big[BLOCKED_FILE_BYTES] ^= 1;
    writeFileSync(join(root, 'data/big.bin'), big);
    expect(() => blockSumFiles(root, manifest)).toThrow(/^data\/big\.bin changed while the build ran; build again$/);
  });
});
