import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { removeDir, tempDir } from '../../../test/helpers.ts';
import { writeFilesLater } from './write-files.ts';

const roots: string[] = [];
afterEach(() => roots.splice(0).forEach(removeDir));

describe('writeFilesLater', () => {
  it('writes every file, its folders made', async () => {
    const dir = tempDir('aula-write-');
    roots.push(dir);
    await writeFilesLater(dir, new Map<string, string | Uint8Array>([['a/b/c.json', 'c'], ['d.bin', Buffer.from([1, 2])]]));
    expect(readFileSync(join(dir, 'a/b/c.json'), 'utf8')).toBe('c');
    expect([...readFileSync(join(dir, 'd.bin'))]).toEqual([1, 2]);
  });

  it('rejects with the path named once every write has ended', async () => {
    const dir = tempDir('aula-write-');
    roots.push(dir);
    mkdirSync(join(dir, 'taken.json')); // a folder where a file is to go
    const failure = await writeFilesLater(dir, new Map([['taken.json', 'x'], ['ok.json', 'y']])).then(() => null, (e: unknown) => e as NodeJS.ErrnoException);
    expect(failure?.code).toBe('EISDIR');
    expect(failure?.path).toBe(join(dir, 'taken.json'));
    expect(readFileSync(join(dir, 'ok.json'), 'utf8')).toBe('y');
  });
});
