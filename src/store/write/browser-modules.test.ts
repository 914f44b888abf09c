// The bundled browser module (dist/autocomplete/autocomplete.js) must give exactly what the
// server gives for the same q/m: it is imported here from a temp file, as a browser would.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseModels } from '../../model/directory-models.ts';
import { createAutocomplete } from '../../query/autocomplete/searcher.ts';
import { mulberry32 } from '../../util/mulberry32.ts';
import { person, room, syntheticDirectory } from '../../query/autocomplete/test-fixtures.ts';
import type * as StaticModule from '../../query/autocomplete/static-entry.ts';
import { AUTOCOMPLETE_INDEX_FILE, AUTOCOMPLETE_MODULE_FILE } from '../format/dist-paths.ts';
import { buildAutocompleteFiles } from './autocomplete-files.ts';

const objects = [
  ...syntheticDirectory(1500, 21),
  person(90001, 'Anna', 'Müller', { title: 'Dr.' }),
  person(90002, 'Hans', 'Weiß', { keywords: ['Dekan'] }),
  room(90003, 'Hörsaal 1', '05.012', { level: 5, room: 12 }),
];

let dir: string;
let files: Record<string, string>;
let mod: typeof StaticModule;

beforeAll(async () => {
  files = await buildAutocompleteFiles(objects);
  dir = mkdtempSync(join(tmpdir(), 'aula-autocomplete-'));
  for (const [rel, text] of Object.entries(files)) writeFileSync(join(dir, rel), text);
  mod = (await import(pathToFileURL(join(dir, AUTOCOMPLETE_MODULE_FILE)).href)) as typeof StaticModule;
});

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('build output', () => {
  it('writes the index and one self-contained browser module', () => {
    expect(Object.keys(files).sort()).toEqual([AUTOCOMPLETE_MODULE_FILE, AUTOCOMPLETE_INDEX_FILE].sort());
    const js = files[AUTOCOMPLETE_MODULE_FILE];
    expect(js).not.toMatch(/\bfrom\s*["']/); // no imports left
    expect(js).not.toMatch(/\brequire\s*\(/);
    expect(js).not.toContain('node:');
    expect(typeof mod.loadAutocomplete).toBe('function');
    expect(typeof mod.createAutocompleteFromUrl).toBe('function');
    expect(typeof mod.search).toBe('function');
  });

  it('is deterministic', async () => {
    const again = await buildAutocompleteFiles([...objects].reverse());
    expect(again).toEqual(files);
  });
});

describe('static module vs server', () => {
  it('agrees on count and suggestions (byte for byte) for many q/m pairs', () => {
    const server = createAutocomplete(files[AUTOCOMPLETE_INDEX_FILE]);
    const browser = mod.loadAutocomplete(files[AUTOCOMPLETE_INDEX_FILE]);
    expect(browser.size).toBe(server.size);

    const r = mulberry32(3);
    const pick = <T>(a: readonly T[]) => a[Math.floor(r() * a.length)];
    const fixed = ['mül', 'mul', 'muel', 'MUELLER', 'weiss', 'oz', '05.012', 'Univ.-Prof.', 'dekan', 'hans m', 'zimmerman', 'hörsal', 'x', '', ' ', '(', undefined];
    const generated = Array.from({ length: 300 }, () => {
      const words = pick(objects).presentation.split(' ');
      const w = pick(words);
      const cut = w.slice(0, 1 + Math.floor(r() * w.length));
      return r() < 0.5 ? cut : `${cut} ${pick(words).slice(0, 3)}`;
    });
    const ms = [undefined, '', 'campus.person', 'CAMPUS.PERSON, geo.room', ' ,structure.Organization,, ', 'campus.Room,campus.Student,structure.Person', 'foo.Bar', 'campus.Person,nope'];
    let compared = 0;
    for (const q of [...fixed, ...generated]) {
      const m = pick(ms);
      const limit = pick([20, 5, 1000]);
      const offset = pick([0, 0, 3, 40]);
      const parsed = parseModels(m);
      if (!parsed.ok) {
        expect(() => browser.search(q, m, limit, offset)).toThrow(parsed.message);
        expect(() => browser.search(q, m, limit, offset)).toThrow(mod.InvalidModelsError);
        continue;
      }
      const expected = server.search(q, parsed.models);
      const got = browser.search(q, m, limit, offset);
      expect(got.count, `${q} / ${m}`).toBe(expected.count);
      expect(JSON.stringify(got.results), `${q} / ${m}`).toBe(`[${expected.page(offset, limit).join(',')}]`);
      compared++;
    }
    expect(compared).toBeGreaterThan(200);
  });

  it('defaults limit to 20, caps it at 1000 and clamps the offset', () => {
    const browser = mod.loadAutocomplete(files[AUTOCOMPLETE_INDEX_FILE]);
    const server = createAutocomplete(files[AUTOCOMPLETE_INDEX_FILE]).search(undefined, null);
    expect(browser.search().results).toHaveLength(20);
    expect(browser.search(undefined, undefined, 5000).results).toHaveLength(1000);
    expect(browser.search(undefined, undefined, 0).results).toHaveLength(20);
    expect(JSON.stringify(browser.search('', '', 2, -4).results)).toBe(`[${server.page(0, 2).join(',')}]`);
    expect(browser.search().count).toBe(objects.length);
  });
});

describe('loading over HTTP', () => {
  let server: Server;
  let base: string;

  beforeAll(async () => {
    server = createServer((req, res) => {
      const text = files[(req.url ?? '').replace(/^\//, '')];
      res.writeHead(text === undefined ? 404 : 200, { 'content-type': 'application/json' }).end(text ?? '');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const addr = server.address();
    base = `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}/`;
  });

  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('loads with createAutocompleteFromUrl and serves the module-level search', async () => {
    // a fresh module instance, so no index has been loaded into it yet
    const fresh = (await import(`${pathToFileURL(join(dir, AUTOCOMPLETE_MODULE_FILE)).href}?fresh`)) as typeof StaticModule;
    expect(() => fresh.search('mül')).toThrow(/load an index first/);
    const ac = await fresh.createAutocompleteFromUrl(`${base}${AUTOCOMPLETE_INDEX_FILE}`);
    expect(ac.size).toBe(objects.length);
    const viaModule = fresh.search('mül', 'campus.person');
    expect(viaModule).toEqual(ac.search('mül', 'campus.person'));
    expect(viaModule.results.map((s) => s.presentation)).toContain('Dr. Anna Müller\n');
  });

  it('reports a missing index', async () => {
    await expect(mod.createAutocompleteFromUrl(`${base}missing.json`)).rejects.toThrow(/404/);
  });
});
