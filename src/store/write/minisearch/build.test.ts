// The generated files as a front end uses them: the options module imported from a temp file,
// the index loaded with the real minisearch package.
import MiniSearch from 'minisearch';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { person, room, syntheticDirectory } from '../../../query/autocomplete/test-fixtures.ts';
import { buildMiniSearchFiles, MINISEARCH_INDEX_FILE, MINISEARCH_OPTIONS_FILE, type MiniSearchFiles } from './build.ts';
import { miniSearchDocuments } from './documents.ts';
import { miniSearchOptions, type MiniSearchDocument } from './options.ts';
import type * as OptionsModule from './options-entry.ts';

// the same id in two models, which MiniSearch's idField must still tell apart
const objects = [
  ...syntheticDirectory(400, 5),
  person(70001, 'Anna', 'Müller', { title: 'Dr.', keywords: ['Dekanin'] }),
  person(70001, 'Peter', 'Mueller', { model: 'campus.Student' }),
  room(70001, 'Hörsaal 1', '05.012', { level: 5, room: 12 }),
];

let dir: string;
let files: MiniSearchFiles;
let options: (typeof OptionsModule)['default'];

beforeAll(async () => {
  files = await buildMiniSearchFiles(objects);
  dir = mkdtempSync(join(tmpdir(), 'aula-minisearch-'));
  for (const [rel, text] of Object.entries(files)) writeFileSync(join(dir, rel), text);
  options = ((await import(pathToFileURL(join(dir, MINISEARCH_OPTIONS_FILE)).href)) as typeof OptionsModule).default;
});

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('minisearch files', () => {
  it('writes the index and a self-contained options module', () => {
    expect(Object.keys(files).sort()).toEqual([MINISEARCH_OPTIONS_FILE, MINISEARCH_INDEX_FILE].sort());
    const js = files[MINISEARCH_OPTIONS_FILE];
    expect(js.startsWith('// The options to load minisearch.json with')).toBe(true);
    const code = js.replace(/^\/\/.*$/gm, ''); // the usage comment on top names imports
    expect(code).not.toMatch(/\bimport\b/); // nothing left to resolve in a browser
    expect(code).not.toMatch(/\brequire\s*\(/);
    expect(options).toMatchObject({ idField: 'key', fields: ['presentation', 'keywords'], storeFields: ['id', 'ctype', 'presentation', 'level_id', 'room_id'] });
    expect(typeof options.processTerm).toBe('function');
    expect(typeof options.tokenize).toBe('function');
  });

  it('loads with MiniSearch.loadJSON and the generated options', () => {
    const ms = MiniSearch.loadJSON(files[MINISEARCH_INDEX_FILE].toString(), options);
    expect(ms.documentCount).toBe(objects.length);
    const hits = ms.search('muel', { prefix: true, combineWith: 'AND' });
    const mine = hits.filter((h) => h.id === 70001);
    expect(mine.map((h) => h.ctype).sort()).toEqual(['campus.person', 'campus.student']);
    expect(mine.find((h) => h.ctype === 'campus.person')).toMatchObject({ presentation: 'Dr. Anna Müller\n', level_id: null, room_id: null });
    const roomHit = ms.search('05.012', { prefix: true, combineWith: 'AND' }).find((h) => h.id === 70001);
    expect(roomHit).toMatchObject({ ctype: 'campus.room', presentation: 'Hörsaal 1 (05.012)\n', level_id: 5, room_id: 12 });
    expect(ms.search('dekanin', { prefix: true }).map((h) => `${h.ctype}:${h.id}`)).toContain('campus.person:70001');
  });

  it('is deterministic whatever the order of the objects', async () => {
    const again = await buildMiniSearchFiles([...objects].reverse());
    expect(again[MINISEARCH_INDEX_FILE].equals(files[MINISEARCH_INDEX_FILE])).toBe(true);
    expect(again[MINISEARCH_OPTIONS_FILE]).toBe(files[MINISEARCH_OPTIONS_FILE]);
  });

  it('writes what MiniSearch itself writes of the objects in listing order', () => {
    const alone = new MiniSearch<MiniSearchDocument>(miniSearchOptions);
    alone.addAll(miniSearchDocuments(objects));
    expect(files[MINISEARCH_INDEX_FILE].equals(Buffer.from(JSON.stringify(alone)))).toBe(true);
  });

  it('writes an empty but loadable index for an empty directory', async () => {
    const empty = await buildMiniSearchFiles([]);
    const ms = MiniSearch.loadJSON(empty[MINISEARCH_INDEX_FILE].toString(), options);
    expect(ms.documentCount).toBe(0);
    expect(ms.search('a', { prefix: true })).toEqual([]);
  });
});
