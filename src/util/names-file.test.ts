import { openSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { removeDir, tempDir } from '../../test/helpers.ts';
import { beginNamesFile, readNamesFile } from './names-file.ts';
import { namesIn, namesPart } from './shared-names.ts';

const root = tempDir('names-file-');
afterAll(() => removeDir(root));

const head = Buffer.from('HEAD\n');
const write = (body: Buffer) => {
  const path = join(root, 'file');
  writeFileSync(path, Buffer.concat([head, ...namesPart(['a', 'b/c']), body]));
  return path;
};

describe('a names file', () => {
  it('is read back as written, here or its body on the thread pool', async () => {
    const path = write(Buffer.from('the body'));
    const here = readNamesFile(openSync(path, 'r'), head.length, () => 1 << 20)!;
    expect([here.head.toString(), namesIn(here.names), Buffer.from(here.body).toString()]).toEqual(['HEAD\n', ['a', 'b/c'], 'the body']);
    expect(here.names.bytes.buffer).toBeInstanceOf(SharedArrayBuffer);
    const begun = beginNamesFile(openSync(path, 'r'), head.length, () => 1 << 20)!;
    expect(namesIn(begun.names)).toEqual(['a', 'b/c']);
    const later = (await begun.file)!;
    expect(Buffer.from(later.body).toString()).toBe('the body');
    expect(later.body.byteOffset).toBe(0);
  });

  it('is none where it is larger than allowed for its names, or its names run past its end', () => {
    const path = write(Buffer.alloc(100));
    expect(readNamesFile(openSync(path, 'r'), head.length, (names) => (names === 2 ? 50 : 1 << 20))).toBeNull();
    expect(beginNamesFile(openSync(path, 'r'), head.length, () => 50)).toBeNull();
    writeFileSync(path, Buffer.concat([head, namesPart(['a', 'b'])[0]]));
    expect(readNamesFile(openSync(path, 'r'), head.length, () => 1 << 20)).toBeNull();
  });
});
