// The MiniSearch index of a fresh build of the bundled sample, used as a front end uses it: the
// options module imported from dist/, the index loaded with the real minisearch package, and
// docs/api.md's snippet run as written against the files served over HTTP.
import MiniSearch from 'minisearch';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAutocomplete, type Autocomplete } from '../src/query/autocomplete/searcher.ts';
import { AUTOCOMPLETE_INDEX_FILE } from '../src/store/format/dist-paths.ts';
import { fold, rawWords } from '../src/store/format/words.ts';
import { loadContent } from '../src/content/index.ts';
import type * as OptionsModule from '../src/store/write/minisearch/options-entry.ts';
import { mulberry32 as rng } from '../src/util/mulberry32.ts';
import { blocksFor } from './docs/doc-blocks.ts';
import { FIXTURE_FILES } from './fixture-content.ts';
import { aula } from './aula-cli.ts';
import { removeDir, SAMPLE_CONTENT, sampleDist, tempDir, writeContent } from './helpers.ts';

// the package's ES build, which a bundler or an import map would hand the browser
const MINISEARCH_ES = join(dirname(createRequire(import.meta.url).resolve('minisearch')), '..', 'es', 'index.js');

interface Suggestion {
  id: number;
  ctype: string;
  presentation: string;
}

let root: string;
let dist: string;
let options: (typeof OptionsModule)['default'];
let miniSearch: MiniSearch;
let autocomplete: Autocomplete;

beforeAll(async () => {
  root = tempDir('aula-minisearch-');
  // the sample as `aula build` writes it by default (read only)
  dist = sampleDist();
  options = ((await import(pathToFileURL(join(dist, 'autocomplete', 'minisearch-options.js')).href)) as typeof OptionsModule).default;
  miniSearch = MiniSearch.loadJSON(readFileSync(join(dist, 'autocomplete', 'minisearch.json'), 'utf8'), options);
  autocomplete = createAutocomplete(readFileSync(join(dist, 'autocomplete', AUTOCOMPLETE_INDEX_FILE), 'utf8'));
});

afterAll(() => {
  if (root) removeDir(root);
});

describe('a fresh build of the sample', () => {
  it('has both indexes, precompressed (its own phase in the timings: `aula build --no-minisearch` below)', () => {
    for (const file of [AUTOCOMPLETE_INDEX_FILE, 'minisearch.json', 'minisearch-options.js']) {
      const bytes = readFileSync(join(dist, 'autocomplete', file));
      expect(gunzipSync(readFileSync(join(dist, 'autocomplete', `${file}.gz`)))).toEqual(bytes);
      expect(brotliDecompressSync(readFileSync(join(dist, 'autocomplete', `${file}.br`)))).toEqual(bytes);
    }
  });

  it('loads with MiniSearch.loadJSON and the generated options module', () => {
    expect(miniSearch.documentCount).toBe(autocomplete.size);
    expect(miniSearch.documentCount).toBe(1000);
  });
});

/** The suggestions the own autocomplete finds without typo tolerance, as the API's compact JSON. */
function ownSuggestions(q: string): string[] {
  const result = autocomplete.search(q, null, { typos: false });
  return result.page(0, result.count).sort();
}

/** MiniSearch's results cut down to the stored fields, in the same form. */
function miniSearchSuggestions(q: string): string[] {
  return miniSearch
    .search(q, { prefix: true, combineWith: 'AND' })
    .map((r) => JSON.stringify({ id: r.id, ctype: r.ctype, presentation: r.presentation, level_id: r.level_id, room_id: r.room_id }))
    .sort();
}

/** Queries drawn from the sample: prefixes, full words, other spellings, two words, keywords. */
async function sampleQueries(): Promise<string[]> {
  const all = autocomplete.search(undefined, null);
  const presentations = all.page(0, all.count).map((s) => (JSON.parse(s) as Suggestion).presentation);
  const words = [...new Set(presentations.flatMap(rawWords))].sort();
  const umlauts = words.filter((w) => /[äöüÄÖÜ]/.test(w));
  const r = rng(14);
  const pick = <T>(a: readonly T[]) => a[Math.floor(r() * a.length)];
  const prefix = (w: string) => w.slice(0, 1 + Math.floor(r() * w.length));
  const german = (w: string) => w.replace(/[äöüÄÖÜ]/g, (c) => ({ ä: 'ae', ö: 'oe', ü: 'ue', Ä: 'Ae', Ö: 'Oe', Ü: 'Ue' })[c]!);
  const fixed = ['muel', 'mül', 'mul', 'MUELLER', 'Müller', 'mueller', 'weiss', 'Weiß', 'groß', 'gross', 'Univ.-Prof.', 'Hörsaal', 'horsaal', 'hoersaal', 'für', 'fur'];
  const out = new Set(fixed);
  for (let i = 0; i < 80; i++) out.add(prefix(pick(words)));
  for (let i = 0; i < 40; i++) out.add(pick(words));
  for (let i = 0; i < 30; i++) {
    const w = pick(umlauts);
    out.add(prefix(w)); // with the umlaut
    out.add(prefix(german(w))); // transliterated
    out.add(fold(w)); // folded
    out.add(w.toUpperCase());
  }
  for (let i = 0; i < 60; i++) {
    const p = rawWords(pick(presentations));
    out.add(`${prefix(pick(p))} ${prefix(pick(p))}`); // two words of one object
  }
  for (let i = 0; i < 20; i++) out.add(`${prefix(pick(words))} ${prefix(pick(words))}`); // two words, usually of none
  // keywords are searchable but never shown, so they come from the content itself
  const { model } = await loadContent(SAMPLE_CONTENT);
  const withKeywords = model!.directory.filter((o) => o.keywords.length > 0);
  expect(withKeywords.length).toBeGreaterThan(10);
  for (let i = 0; i < 40; i++) {
    const o = pick(withKeywords);
    const keyword = pick(rawWords(pick(o.keywords)));
    out.add(i % 2 === 0 ? prefix(keyword) : `${prefix(keyword)} ${prefix(pick(rawWords(o.presentation)))}`);
  }
  return [...out];
}

describe('MiniSearch vs the own autocomplete without typo tolerance', () => {
  it('finds the same set of objects, with the same suggestion fields, for every sample query', async () => {
    const queries = await sampleQueries();
    expect(queries.length).toBeGreaterThanOrEqual(200);
    let nonEmpty = 0;
    for (const q of queries) {
      const own = ownSuggestions(q);
      expect(miniSearchSuggestions(q), JSON.stringify(q)).toEqual(own);
      if (own.length > 0) nonEmpty++;
    }
    expect(nonEmpty).toBeGreaterThan(queries.length / 2);
  });

  it('finds Müller and Mueller by muel, mül and MUELLER, and only Müller-like words by mul', () => {
    const last = (q: string) => new Set(miniSearch.search(q, { prefix: true, combineWith: 'AND' }).flatMap((h) => rawWords(String(h.presentation))).filter((w) => /^mu/i.test(fold(w))));
    for (const q of ['muel', 'mül', 'MUELLER']) expect([...last(q)]).toEqual(expect.arrayContaining(['Müller', 'Mueller']));
    expect(last('mul').has('Mueller')).toBe(false);
    expect(last('mul').has('Müller')).toBe(true);
  });
});

describe('the docs snippet (docs/api.md, With MiniSearch)', () => {
  let server: Server;
  let base: string;

  beforeAll(async () => {
    // a static host for dist/: the snippet fetches the index over HTTP like a page would
    server = createServer((req, res) => {
      const rel = (req.url ?? '').split('?')[0];
      const file = rel === '/autocomplete/minisearch.json' ? join(dist, 'autocomplete', 'minisearch.json') : null;
      if (file === null) res.writeHead(404).end();
      else res.writeHead(200, { 'content-type': 'application/json' }).end(readFileSync(file));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const addr = server.address();
    base = `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}`;
  });

  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('runs as written and finds Müller and Mueller', async () => {
    const blocks = blocksFor('minisearch');
    expect(blocks).toHaveLength(1);
    const snippet = blocks[0].text;
    expect(snippet).toContain("search('muel', { prefix: true, fuzzy: 0.2 })");
    // only the places the page would resolve against its own origin and import map change
    const runnable = snippet
      .replace("from 'minisearch'", `from '${pathToFileURL(MINISEARCH_ES).href}'`)
      .replace("from '/autocomplete/", `from '${pathToFileURL(dist).href}/autocomplete/`)
      .replace("fetch('/autocomplete/", `fetch('${base}/autocomplete/`);
    expect(runnable).not.toMatch(/'\/autocomplete\//);
    const file = join(root, 'readme-snippet.mjs');
    writeFileSync(file, `${runnable}\nexport { miniSearch, results };\n`);
    const mod = (await import(pathToFileURL(file).href)) as { miniSearch: MiniSearch; results: { id: number; ctype: string; presentation: string; score: number }[] };
    expect(mod.miniSearch.documentCount).toBe(1000);
    const names = mod.results.map((r) => r.presentation);
    expect(names.some((p) => p.includes('Müller'))).toBe(true);
    expect(names.some((p) => p.includes('Mueller'))).toBe(true);
    expect(mod.results[0]).toEqual(expect.objectContaining({ id: expect.any(Number), ctype: expect.any(String), score: expect.any(Number) }));
  });
});

describe('aula build --no-minisearch', () => {
  it('writes neither file and shows no minisearch phase; without the flag --timings shows it', () => {
    const work = tempDir('aula-minisearch-cli-');
    try {
      const content = writeContent(join(work, 'content'), FIXTURE_FILES);
      const run = (out: string, ...flags: string[]) => aula(['build', '--content', content, '--out', join(work, out), '--timings', ...flags]);
      const without = run('without', '--no-minisearch');
      expect(without.code).toBe(0);
      expect(without.out).toMatch(/^ {2}render data /m);
      expect(without.out).not.toMatch(/^ {2}minisearch /m);
      expect(existsSync(join(work, 'without', 'autocomplete', AUTOCOMPLETE_INDEX_FILE))).toBe(true);
      expect(existsSync(join(work, 'without', 'autocomplete', 'minisearch.json'))).toBe(false);
      expect(existsSync(join(work, 'without', 'autocomplete', 'minisearch-options.js'))).toBe(false);
      const withIt = run('with');
      expect(withIt.code).toBe(0);
      expect(withIt.out).toMatch(/^ {2}minisearch +\d+\.\d\d s, \d+\.\d\d s CPU$/m);
      expect(existsSync(join(work, 'with', 'autocomplete', 'minisearch.json.br'))).toBe(true);
    } finally {
      removeDir(work);
    }
  });
});

// That the serve path loads neither minisearch nor the builder is checked for every build-time
// package by test/architecture (imports.test.ts statically, serve-graph.test.ts in a real server).
