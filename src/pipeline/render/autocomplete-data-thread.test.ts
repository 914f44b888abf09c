import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { removeDir, tempDir } from '../../../test/helpers.ts';
import { syntheticDirectory } from '../../query/autocomplete/test-fixtures.ts';
import { buildAutocompleteFiles } from '../../store/write/autocomplete-files.ts';
import { dataPath } from '../directory/directory-outputs.ts';
import { autocompleteData, autocompleteDataBeside } from './autocomplete-data.ts';

// the thread module on a real worker thread, as an installed aula runs it (start-thread.ts)
process.env.AULA_THREADS = 'worker';

const roots: string[] = [];
afterEach(() => roots.splice(0).forEach(removeDir));

describe('autocompleteDataBeside', () => {
  it("is, made on a thread and kept in the build cache there, the file made here; read back from the cache on the thread, the same bytes on a buffer of their own", async () => {
    const root = tempDir('aula-ac-thread-');
    roots.push(root);
    const path = dataPath(join(root, 'cache'), join(root, 'content'));
    const index = (await buildAutocompleteFiles(syntheticDirectory(2000, 7)))['index.json'] as string;
    const here = Buffer.from(autocompleteData(index, 20));
    const made = await autocompleteDataBeside(path, index, 20, 0);
    expect(Buffer.from(made).equals(here)).toBe(true);
    const kept = await autocompleteDataBeside(path, index, 20, 0);
    expect(Buffer.from(kept).equals(here)).toBe(true);
    expect([kept.byteOffset, kept.buffer.byteLength]).toEqual([0, kept.byteLength]);
    // without a cache, and a small index made on this thread: the same bytes
    expect(Buffer.from(await autocompleteDataBeside(null, index, 20, 0)).equals(here)).toBe(true);
    expect(Buffer.from(await autocompleteDataBeside(null, index, 20)).equals(here)).toBe(true);
  }, 60_000);
});
