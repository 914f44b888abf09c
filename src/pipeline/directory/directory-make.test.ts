import { describe, expect, it } from 'vitest';
import { syntheticDirectory } from '../../query/autocomplete/test-fixtures.ts';
import { buildAutocompleteFiles } from '../../store/write/autocomplete-files.ts';
import { buildMiniSearchFiles } from '../../store/write/minisearch/build.ts';
import type { Group } from './directory-make.ts';
import { makeDirectoryFiles, type DirectorySource } from './directory-make.ts';

// large enough for minisearch.json to pass the 1 MB above which it is compressed here
const objects = syntheticDirectory(6000, 7);

describe('makeDirectoryFiles', () => {
  it('hands on each index as soon as it is made, with its large files’ twins, and lets go of the objects', async () => {
    const source: DirectorySource = { objects };
    const put: { group: Group; names: string[]; twins: string[] }[] = [];
    let minisearch: Record<string, string | Uint8Array> = {};
    await makeDirectoryFiles(source, { minisearch: true, compress: true }, (group, files, twins) => {
      put.push({ group, names: Object.keys(files).sort(), twins: Object.keys(twins) });
      if (group === 'minisearch') minisearch = files;
    });
    expect(source.objects).toBeNull();
    const own = await buildAutocompleteFiles(objects);
    const mini = await buildMiniSearchFiles(objects);
    expect(put).toEqual([
      { group: 'autocomplete', names: Object.keys(own).sort(), twins: [] },
      { group: 'minisearch', names: Object.keys(mini).sort(), twins: ['minisearch.json'] },
    ]);
    expect(Buffer.from(minisearch['minisearch.json'] as Uint8Array).equals(mini['minisearch.json'])).toBe(true);
  });

  it('leaves the large files to be compressed later when asked to, naming them', async () => {
    const put: { group: Group; twins: string[] }[] = [];
    const deferred: string[] = [];
    await makeDirectoryFiles({ objects }, { minisearch: true, compress: true }, (group, _files, twins) => put.push({ group, twins: Object.keys(twins) }), deferred);
    expect(put).toEqual([
      { group: 'autocomplete', twins: [] },
      { group: 'minisearch', twins: [] },
    ]);
    expect(deferred).toEqual(['minisearch.json']);
  });

  it('makes MiniSearch’s index only when asked for', async () => {
    const put: Group[] = [];
    await makeDirectoryFiles({ objects }, { minisearch: false, compress: false }, (group) => put.push(group));
    expect(put).toEqual(['autocomplete']);
  });
});
