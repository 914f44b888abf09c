import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { removeDir, tempDir } from '../../../test/helpers.ts';
import { syntheticDirectory } from '../../query/autocomplete/test-fixtures.ts';
import { buildAutocompleteFiles } from '../../store/write/autocomplete-files.ts';
import { dataPath } from '../directory/directory-outputs.ts';
import { autocompleteData, keptAutocompleteData } from './autocomplete-data.ts';

const roots: string[] = [];
afterEach(() => roots.splice(0).forEach(removeDir));

describe('data/autocomplete.bin in the build cache', () => {
  it('is read back for the same index and page size, made again (and kept) for any other, and never taken from a damaged file', async () => {
    const root = tempDir('aula-ac-data-');
    roots.push(root);
    const path = dataPath(join(root, 'cache'), join(root, 'content'));
    const index = (await buildAutocompleteFiles(syntheticDirectory(3000, 5)))['index.json'] as string;
    const other = (await buildAutocompleteFiles(syntheticDirectory(3000, 6)))['index.json'] as string;
    const made = Buffer.from(autocompleteData(index, 20));
    expect(Buffer.from(keptAutocompleteData(null, index, 20)).equals(made)).toBe(true);
    expect(Buffer.from(keptAutocompleteData(path, index, 20)).equals(made)).toBe(true);
    const kept = statSync(path, { bigint: true });
    // a hit writes nothing: the file is the one kept
    expect(Buffer.from(keptAutocompleteData(path, index, 20)).equals(made)).toBe(true);
    expect(statSync(path, { bigint: true })).toMatchObject({ ino: kept.ino, mtimeNs: kept.mtimeNs });
    // either argument changed: made anew, and kept in its place
    const smaller = Buffer.from(autocompleteData(index, 5));
    expect(smaller.equals(made)).toBe(false);
    expect(Buffer.from(keptAutocompleteData(path, index, 5)).equals(smaller)).toBe(true);
    expect(statSync(path, { bigint: true }).ino).not.toBe(kept.ino);
    expect(Buffer.from(keptAutocompleteData(path, other, 5)).equals(autocompleteData(other, 5) as Buffer)).toBe(true);
    // one byte of the kept file flipped: a miss, made again
    const bytes = readFileSync(path);
    bytes[bytes.length - 1] ^= 1;
    writeFileSync(path, bytes);
    expect(Buffer.from(keptAutocompleteData(path, other, 5)).equals(autocompleteData(other, 5) as Buffer)).toBe(true);
    expect(readFileSync(path).equals(bytes)).toBe(false);
  });
});
