import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { removeDir, tempDir } from '../../../test/helpers.ts';
import { createHash } from 'node:crypto';
import { outputsPath, readStored, store, type DirectoryFiles } from './directory-outputs.ts';

const roots: string[] = [];
afterEach(() => roots.splice(0).forEach(removeDir));

const keyOf = (name: string) => createHash('sha256').update(name).digest();

/** `make()`'s files, or the stored ones when `key` is the one they were made of: as the directory job reads and keeps them. */
async function directoryFiles(path: string | null, key: Buffer | null, make: () => Promise<DirectoryFiles>): Promise<DirectoryFiles> {
  if (path === null || key === null) return make();
  const stored = readStored(path, key);
  if (stored) return stored;
  const made = await make();
  store(path, key, made);
  return made;
}

describe('directory outputs', () => {
  it('makes the files once per directory, and again after any change or damage', async () => {
    const root = tempDir('aula-dir-out-');
    roots.push(root);
    const path = outputsPath(join(root, 'cache'), join(root, 'content'), 'autocomplete');
    let made = 0;
    const make = (name: string) => async () => ({ 'index.json': `${name} ${++made}` });
    const run = (name: string) => directoryFiles(path, keyOf(name), make(name));
    expect(await run('a')).toEqual({ 'index.json': 'a 1' });
    expect(await run('a')).toEqual({ 'index.json': 'a 1' });
    expect(await run('b')).toEqual({ 'index.json': 'b 2' });
    expect(readdirSync(join(root, 'cache'))).toEqual([path.split('/').pop()]);
    const bytes = readFileSync(path);
    bytes[bytes.length - 2] ^= 1;
    writeFileSync(path, bytes);
    expect(await run('b')).toEqual({ 'index.json': 'b 3' });
    writeFileSync(path, readFileSync(path, 'latin1').replace(/"aula":"[^"]*"/, '"aula":"0.0.0"'), 'latin1');
    expect(await run('b')).toEqual({ 'index.json': 'b 4' });
    // without a cache folder, always made
    expect(await directoryFiles(null, null, make('c'))).toEqual({ 'index.json': 'c 5' });
  });
});
