// docs/api.md's browser autocomplete snippet, run as written against a built dist/: the module
// and its index are the page's; only the URL the page would resolve against its origin becomes
// the file's, and fetch reads file URLs as a browser reads its origin.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bodyText } from '../../src/api/body.ts';
import { createApi } from '../../src/api/core.ts';
import { loadDataset } from '../../src/query/dataset.ts';
import { removeDir, sampleDist, tempDir } from '../helpers.ts';
import { blocksFor } from './doc-blocks.ts';

let root: string;
let dist: string;
const realFetch = globalThis.fetch;

beforeAll(() => {
  root = tempDir('aula-doc-browser-');
  // the sample as `aula build` writes it (read only)
  dist = sampleDist();
  globalThis.fetch = (async (input: string | URL | Request, init?: RequestInit) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    return url.protocol === 'file:' ? new Response(readFileSync(url)) : realFetch(input, init);
  }) as typeof fetch;
});

afterAll(() => {
  globalThis.fetch = realFetch;
  removeDir(root);
});

describe("docs/api.md's autocomplete in the browser", () => {
  it('runs as written and finds what the server finds, in its order', async () => {
    const [block] = blocksFor('browser-autocomplete');
    expect(block.text).toContain("from '/autocomplete/autocomplete.js'");
    const runnable = block.text.replace("from '/autocomplete/", `from '${pathToFileURL(dist).href}/autocomplete/`);
    const file = join(root, 'snippet.mjs');
    writeFileSync(file, `${runnable}\nexport { count, results };\n`);
    const { count, results } = (await import(pathToFileURL(file).href)) as { count: number; results: { id: number; presentation: string }[] };
    const server = JSON.parse(bodyText(createApi(loadDataset(dist))({ method: 'GET', path: '/v1/api/autocomplete/', query: 'q=muel&m=campus.Person,structure.Person&limit=10', headers: {} }).body));
    expect(count).toBeGreaterThan(0);
    expect(count).toBe(server.count);
    expect(results.map((r) => r.id)).toEqual(server.results.map((r: { id: number }) => r.id));
    expect(results.some((r) => r.presentation.includes('Müller'))).toBe(true);
  });
});
