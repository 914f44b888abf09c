import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { removeDir, tempDir } from '../../test/helpers.ts';
import { unlinkMany } from './unlink-many.ts';

const made: string[] = [];
const folder = () => made[made.push(tempDir('aula-unlink-many-')) - 1];
afterEach(() => {
  for (const dir of made.splice(0)) removeDir(dir);
});

describe('unlinkMany', () => {
  it('removes every file named, and nothing else', async () => {
    const dir = folder();
    const names = Array.from({ length: 50 }, (_, i) => `${i}.json`);
    for (const name of [...names, 'keep.txt']) writeFileSync(join(dir, name), name);
    await unlinkMany(names.map((n) => join(dir, n)), 4);
    expect(readdirSync(dir)).toEqual(['keep.txt']);
  });

  it('tries every file before it throws the first failure, with its code and path', async () => {
    const dir = folder();
    mkdirSync(join(dir, 'a folder'));
    for (const name of ['1', '2', '3']) writeFileSync(join(dir, name), name);
    const failure = await unlinkMany([join(dir, '1'), join(dir, 'gone'), join(dir, 'a folder'), join(dir, '2'), join(dir, '3')], 2).catch((e: NodeJS.ErrnoException) => e);
    expect(failure).toMatchObject({ code: 'ENOENT', path: join(dir, 'gone') });
    expect(readdirSync(dir)).toEqual(['a folder']);
    expect(existsSync(join(dir, '3'))).toBe(false);
  });

  it('of no files, does nothing', async () => {
    await expect(unlinkMany([])).resolves.toBeUndefined();
  });
});
