import { describe, expect, it } from 'vitest';
import { syntheticDirectory } from '../../query/autocomplete/test-fixtures.ts';
import { buildAutocompleteFiles } from '../../store/write/autocomplete-files.ts';
import { autocompleteData, autocompleteDataBeside } from './autocomplete-data.ts';

// the thread module on a real worker thread, as an installed aula runs it (start-thread.ts)
process.env.AULA_THREADS = 'worker';

describe('autocompleteDataBeside', () => {
  it('is, made on a thread, the file made here, on a buffer of its own; a small index is made on this thread', async () => {
    const index = (await buildAutocompleteFiles(syntheticDirectory(2000, 7)))['index.json'] as string;
    const here = Buffer.from(autocompleteData(index, 20));
    const made = await autocompleteDataBeside(index, 20, 0);
    expect(Buffer.from(made).equals(here)).toBe(true);
    expect([made.byteOffset, made.buffer.byteLength]).toEqual([0, made.byteLength]);
    expect(Buffer.from(await autocompleteDataBeside(index, 20)).equals(here)).toBe(true);
    // another page size is another file
    expect(Buffer.from(await autocompleteDataBeside(index, 5, 0)).equals(here)).toBe(false);
  }, 60_000);
});
