import { closeSync, openSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { removeDir, tempDir } from '../../../test/helpers.ts';
import { appendTwins, fileContent, MadeWriter, readMade, type DirectoryMade } from './directory-worker.ts';

const dir = tempDir('aula-made-file-');
afterAll(() => removeDir(dir));

const index = `{"a":"Hörsaal \ud800 „x“"}`;
const mini = Buffer.from('{"documentCount":1}');
const made: DirectoryMade = {
  autocomplete: { 'index.json': index, 'autocomplete.js': 'export {}' },
  minisearch: { 'minisearch.json': mini, 'minisearch-options.js': '' },
  compressed: { 'minisearch.json': { content: mini, gzip: 5, brotli: 5, gz: new Uint8Array([1, 2]), br: new Uint8Array([3]) } },
};

/** `made` put group by group through a writer on a file (or none), then read back as the job does. */
function roundTrip(fd: number | null, before?: (writer: MadeWriter) => void) {
  const writer = new MadeWriter(fd);
  before?.(writer);
  writer.put('autocomplete', made.autocomplete!, {});
  writer.put('minisearch', made.minisearch!, made.compressed);
  // the layout and the rest go by message: they must survive a structured clone
  const { layout, rest } = structuredClone({ layout: writer.layout, rest: writer.rest });
  return { layout, read: readMade(fd, layout, rest) };
}

function expectMade(read: DirectoryMade) {
  expect(read.autocomplete).toEqual(made.autocomplete);
  expect(read.autocomplete!['index.json']).toBe(index);
  expect(Buffer.from(read.minisearch!['minisearch.json'] as Uint8Array).equals(mini)).toBe(true);
  expect(read.minisearch!['minisearch-options.js']).toBe('');
  const twins = read.compressed['minisearch.json'];
  expect(twins.content).toBe(read.minisearch!['minisearch.json']);
  expect([twins.gzip, twins.brotli, [...twins.gz], [...twins.br]]).toEqual([5, 5, [1, 2], [3]]);
}

describe('the directory worker’s scratch file', () => {
  it('gives back every file as it was made: text as the same string (a lone surrogate too), bytes as the same bytes, and the twins with the file they compress', () => {
    const fd = openSync(join(dir, 'all'), 'w+');
    try {
      const { layout, read } = roundTrip(fd);
      expect(layout.groups).toEqual(['autocomplete', 'minisearch']);
      expect(layout.files).toHaveLength(4);
      expectMade(read);
    } finally {
      closeSync(fd);
    }
  });

  it('keeps a large text as UTF-8 when that gives it back as it was, gives a file back to be compressed, and takes its twins after', () => {
    const large = `{"x":"${'Hörsaal „x“ '.repeat(100_000)}"}`;
    const surrogate = `${large}\ud800`;
    const fd = openSync(join(dir, 'large'), 'w+');
    try {
      const writer = new MadeWriter(fd);
      writer.put('autocomplete', { 'index.json': large, 'other.json': surrogate }, {});
      expect(writer.writing).toBe(true);
      const byName = new Map(writer.layout.files.map((f) => [f.name, f]));
      // half the bytes of UTF-16; a lone surrogate keeps it UTF-16
      expect(byName.get('index.json')).toMatchObject({ encoding: 'utf8', length: Buffer.byteLength(large) });
      expect(byName.get('other.json')!.encoding).toBe('utf16le');
      expect(Buffer.from(fileContent(fd, byName.get('index.json')!) as Uint8Array).toString()).toBe(large);
      expect(fileContent(fd, byName.get('other.json')!)).toBe(surrogate);
      // twins written after the rest (by another thread), their entries added to the layout
      const appended = appendTwins(fd, writer.end, { 'index.json': { content: large, gzip: 5, brotli: 5, gz: new Uint8Array([7]), br: new Uint8Array([8, 9]) } });
      expect(appended.end).toBe(writer.end + 3);
      const layout = { ...writer.layout, twins: [...writer.layout.twins, ...appended.entries] };
      const read = readMade(fd, structuredClone(layout), writer.rest);
      expect(read.autocomplete).toEqual({ 'index.json': large, 'other.json': surrogate });
      expect(read.compressed['index.json']).toMatchObject({ content: large, gzip: 5, brotli: 5 });
      expect([...read.compressed['index.json'].gz, ...read.compressed['index.json'].br]).toEqual([7, 8, 9]);
    } finally {
      closeSync(fd);
    }
    expect(new MadeWriter(null).writing).toBe(false);
  });

  it('holds what it cannot write (no file, or a write that fails) and gives it back all the same', () => {
    expectMade(roundTrip(null).read);
    // a descriptor open for reading only: every write fails, from the first group on
    const fd = openSync(join(dir, 'all'), 'r');
    try {
      const { layout, read } = roundTrip(fd);
      expect(layout.files).toEqual([]);
      expectMade(read);
    } finally {
      closeSync(fd);
    }
  });

  it('keeps a group not made as none, and refuses twins without their file', () => {
    const fd = openSync(join(dir, 'one'), 'w+');
    try {
      const writer = new MadeWriter(fd);
      writer.put('minisearch', { 'minisearch.json': Buffer.from('{}') }, {});
      expect(readMade(fd, writer.layout, writer.rest)).toEqual({ autocomplete: null, minisearch: { 'minisearch.json': Buffer.from('{}') }, compressed: {} });
      const layout = { ...writer.layout, twins: [{ name: 'index.json', gzip: 6, brotli: 5, gz: { at: 0, length: 0 }, br: { at: 0, length: 0 } }] };
      expect(() => readMade(fd, layout, writer.rest)).toThrow(/twins of index.json but not the file/);
    } finally {
      closeSync(fd);
    }
  });
});
