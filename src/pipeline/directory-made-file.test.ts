import { closeSync, openSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { removeDir, tempDir } from '../../test/helpers.ts';
import type { DirectoryMade } from './directory-make.ts';
import { readMade, writeMade } from './directory-made-file.ts';

const dir = tempDir('aula-made-file-');
afterAll(() => removeDir(dir));

function roundTrip(made: DirectoryMade, name: string) {
  const fd = openSync(join(dir, name), 'w+');
  try {
    const layout = writeMade(fd, made);
    // the layout goes by message: it must survive a structured clone
    return { layout, read: readMade(fd, structuredClone(layout)) };
  } finally {
    closeSync(fd);
  }
}

describe('the directory worker’s scratch file', () => {
  it('gives back every file as it was made: text as the same string (a lone surrogate too), bytes as the same bytes, and the twins with the file they compress', () => {
    const index = `{"a":"Hörsaal \ud800 „x“"}`;
    const mini = Buffer.from('{"documentCount":1}');
    const made: DirectoryMade = {
      autocomplete: { 'index.json': index, 'autocomplete.js': 'export {}' },
      minisearch: { 'minisearch.json': mini, 'minisearch-options.js': '' },
      compressed: { 'minisearch.json': { content: mini, gzip: 5, brotli: 5, gz: new Uint8Array([1, 2]), br: new Uint8Array([3]) } },
    };
    const { read } = roundTrip(made, 'all');
    expect(read.autocomplete).toEqual(made.autocomplete);
    expect(read.autocomplete!['index.json']).toBe(index);
    expect(Buffer.from(read.minisearch!['minisearch.json'] as Uint8Array).equals(mini)).toBe(true);
    expect(read.minisearch!['minisearch-options.js']).toBe('');
    const twins = read.compressed['minisearch.json'];
    expect(twins.content).toBe(read.minisearch!['minisearch.json']);
    expect([twins.gzip, twins.brotli, [...twins.gz], [...twins.br]]).toEqual([5, 5, [1, 2], [3]]);
  });

  it('keeps a group not made as none, and refuses twins without their file', () => {
    const only: DirectoryMade = { autocomplete: null, minisearch: { 'minisearch.json': Buffer.from('{}') }, compressed: {} };
    expect(roundTrip(only, 'one').read).toEqual({ autocomplete: null, minisearch: { 'minisearch.json': Buffer.from('{}') }, compressed: {} });
    const fd = openSync(join(dir, 'bad'), 'w+');
    try {
      const layout = writeMade(fd, only);
      layout.twins.push({ name: 'index.json', gzip: 6, brotli: 5, gz: 0, br: 0 });
      expect(() => readMade(fd, layout)).toThrow(/twins of index.json but not the file/);
    } finally {
      closeSync(fd);
    }
  });
});
