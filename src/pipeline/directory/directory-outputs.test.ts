import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { removeDir, tempDir } from '../../../test/helpers.ts';
import { createHash } from 'node:crypto';
import { outputsPath, readStored, store } from './directory-outputs.ts';

const roots: string[] = [];
afterEach(() => roots.splice(0).forEach(removeDir));

const keyOf = (name: string) => createHash('sha256').update(name).digest();

describe('directory outputs', () => {
  it('gives back the files kept under the same key only, and nothing of a damaged or foreign file', () => {
    const root = tempDir('aula-dir-out-');
    roots.push(root);
    const path = outputsPath(join(root, 'cache'), join(root, 'content'), 'autocomplete');
    expect(readStored(path, keyOf('a'))).toBeNull();
    store(path, keyOf('a'), { 'index.json': 'a', 'minisearch.json': new Uint8Array([1, 2, 3]) });
    expect(readStored(path, keyOf('a'))).toEqual({ 'index.json': 'a', 'minisearch.json': new Uint8Array([1, 2, 3]) });
    expect(readStored(path, keyOf('b'))).toBeNull();
    // files of bytes (kept after the head, as they are) beside texts, in any order, empty or not
    const many = { 'a.bin': new Uint8Array([9]), 'b.json': 'ü\ud800', 'c.bin': new Uint8Array(0), 'd.bin': new Uint8Array(70_000).fill(7) };
    store(path, keyOf('a'), many);
    expect(readStored(path, keyOf('a'))).toEqual(many);
    // one file per index: a new key replaces the old
    store(path, keyOf('b'), { 'index.json': 'b' });
    expect(readdirSync(join(root, 'cache'))).toEqual([path.split('/').pop()]);
    expect(readStored(path, keyOf('a'))).toBeNull();
    expect(readStored(path, keyOf('b'))).toEqual({ 'index.json': 'b' });
    const bytes = readFileSync(path);
    bytes[bytes.length - 2] ^= 1;
    writeFileSync(path, bytes);
    expect(readStored(path, keyOf('b'))).toBeNull();
    store(path, keyOf('b'), { 'index.json': 'b' });
    writeFileSync(path, readFileSync(path, 'latin1').replace(/"aula":"[^"]*"/, '"aula":"0.0.0"'), 'latin1');
    expect(readStored(path, keyOf('b'))).toBeNull();
  });
});
