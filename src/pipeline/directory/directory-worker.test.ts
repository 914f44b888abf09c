import { closeSync, fstatSync, openSync } from 'node:fs';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { removeDir, tempDir } from '../../../test/helpers.ts';
import { syntheticDirectory } from '../../query/autocomplete/test-fixtures.ts';
import { buildAutocompleteFiles } from '../../store/write/autocomplete-files.ts';
import { buildMiniSearchFiles } from '../../store/write/minisearch/build.ts';
import { answer, make as makeFiles, readRun, type MadeFile, type MadeTwins, type MakeRequest, type Stored } from './directory-worker.ts';

const dir = tempDir('aula-made-file-');
afterAll(() => removeDir(dir));

const objects = syntheticDirectory(300, 7);

/** A file with `fd` open as `flags` for the duration of `use`. */
function withFile<T>(name: string, flags: string, use: (fd: number) => T): T {
  const fd = openSync(join(dir, name), flags);
  try {
    return use(fd);
  } finally {
    closeSync(fd);
  }
}

const make = (fd: number | null, minisearch = true) => answer({ make: { objects, minisearch, fd } }) as Promise<MadeFile[]>;

describe('the directory worker', () => {
  it('writes each file to the scratch file and answers where it is: read back, every file is as made', async () => {
    const expected: Record<string, string | Uint8Array> = { ...(await buildAutocompleteFiles(objects)), ...(await buildMiniSearchFiles(objects)) };
    const fd = openSync(join(dir, 'all'), 'w+');
    try {
      const request: MakeRequest = { objects, minisearch: true, fd };
      const made = await makeFiles(request);
      // the objects let go of, once indexed
      expect(request.objects).toBeNull();
      expect(made.map((f) => f.name).sort()).toEqual(Object.keys(expected).sort());
      for (const f of made) {
        expect('run' in f).toBe(true);
        const content = readRun(fd, (f as Stored).run);
        if (typeof expected[f.name] === 'string') expect(content).toBe(expected[f.name]);
        else expect(Buffer.from(content as Uint8Array).equals(expected[f.name] as Uint8Array)).toBe(true);
      }
      expect(made.map((f) => [f.group, f.name])).toEqual([...Object.keys(await buildAutocompleteFiles(objects)).map((n) => ['autocomplete', n]), ['minisearch', 'minisearch.json'], ['minisearch', 'minisearch-options.js']]);
      // the twins are written after everything else, at the levels of a large file
      const end = fstatSync(fd).size;
      const index = made.find((f) => f.name === 'index.json') as Stored;
      const [twins] = (await answer({ compress: { fd, files: [index] } })) as MadeTwins[];
      expect(twins).toMatchObject({ name: 'index.json', gzip: 5, brotli: 5 });
      expect(twins.gz.at).toBe(end);
      expect(gunzipSync(readRun(fd, twins.gz)).toString()).toBe(expected['index.json']);
      expect(brotliDecompressSync(readRun(fd, twins.br)).toString()).toBe(expected['index.json']);
    } finally {
      closeSync(fd);
    }
  });

  it('answers a file as it is where there is no scratch file or a write fails, and makes MiniSearch’s only when asked', async () => {
    const own = await buildAutocompleteFiles(objects);
    expect(await make(null, false)).toEqual(Object.entries(own).map(([name, content]) => ({ group: 'autocomplete', name, large: false, content })));
    // a descriptor open for reading only: every write fails
    const made = await withFile('all', 'r', (fd) => make(fd));
    expect(made.every((f) => 'content' in f)).toBe(true);
    expect(made.map((f) => f.group)).toContain('minisearch');
  });
});
