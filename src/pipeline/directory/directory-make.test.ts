import { describe, expect, it } from 'vitest';
import { syntheticDirectory } from '../../query/autocomplete/test-fixtures.ts';
import { buildAutocompleteFiles } from '../../store/write/autocomplete-files.ts';
import { buildMiniSearchFiles } from '../../store/write/minisearch/build.ts';
import type { Group } from './directory-made-file.ts';
import { makeDirectoryFiles, type DirectorySource } from './directory-make.ts';
import { AUTOCOMPLETE_INDEX_FILE } from '../../store/format/dist-paths.ts';
import { autocompleteData, SERVER_INDEX } from './server-index.ts';

// large enough for minisearch.json to pass the 1 MB above which it is compressed here
const objects = syntheticDirectory(6000, 7);

describe('makeDirectoryFiles', () => {
  it('hands on each index as soon as it is made, with its large files’ twins, and lets go of the objects', async () => {
    const source: DirectorySource = { objects };
    const put: { group: Group; names: string[]; twins: string[] }[] = [];
    let minisearch: Record<string, string | Uint8Array> = {};
    let server: unknown = null;
    await makeDirectoryFiles(source, { autocomplete: true, minisearch: true, compress: true, pageSize: 7, keep: null }, (group, files, twins) => {
      put.push({ group, names: Object.keys(files).sort(), twins: Object.keys(twins) });
      if (group === 'minisearch') minisearch = files;
      else server = files[SERVER_INDEX];
    });
    expect(source.objects).toBeNull();
    const own = await buildAutocompleteFiles(objects);
    const mini = await buildMiniSearchFiles(objects);
    expect(put).toEqual([
      { group: 'autocomplete', names: [...Object.keys(own), SERVER_INDEX].sort(), twins: [] },
      { group: 'minisearch', names: Object.keys(mini).sort(), twins: ['minisearch.json'] },
    ]);
    expect(Buffer.from(minisearch['minisearch.json'] as Uint8Array).equals(mini['minisearch.json'])).toBe(true);
    // the server's index beside the browser's, its first pages of the page size asked for
    expect(Buffer.from(server as Uint8Array).equals(autocompleteData(own[AUTOCOMPLETE_INDEX_FILE], 7))).toBe(true);
    expect(Buffer.from(server as Uint8Array).equals(autocompleteData(own[AUTOCOMPLETE_INDEX_FILE], 20))).toBe(false);
  });

  it('leaves the large files to be compressed later when asked to, naming them', async () => {
    const put: { group: Group; twins: string[] }[] = [];
    const deferred: string[] = [];
    await makeDirectoryFiles({ objects }, { autocomplete: true, minisearch: true, compress: true, pageSize: 20, keep: null }, (group, _files, twins) => put.push({ group, twins: Object.keys(twins) }), deferred);
    expect(put).toEqual([
      { group: 'autocomplete', twins: [] },
      { group: 'minisearch', twins: [] },
    ]);
    expect(deferred).toEqual(['minisearch.json']);
  });

  it('makes only the indexes asked for', async () => {
    const put: Group[] = [];
    await makeDirectoryFiles({ objects }, { autocomplete: false, minisearch: true, compress: false, pageSize: 20, keep: null }, (group) => put.push(group));
    expect(put).toEqual(['minisearch']);
  });
});
