// How many requests the edge worker makes of its ASSETS binding: the dataset's files once each and
// no HEADs (their sizes are in the manifest); a public file once on its first request (the read that
// gives its ETag also answers), then once per answer, and not at all for a 304.
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURE_FILES } from '../../../test/fixture-content.ts';
import { buildOk, removeDir, tempDir, writeContent } from '../../../test/helpers.ts';
import { loadedFiles } from '../../store/format/dist-paths.ts';
import { EdgeLoadError, loadEdgeDataset, type AssetFetcher } from './assets.ts';
import { EdgePublicFiles } from './public-files.ts';

let root: string;
let dist: string;
beforeAll(async () => {
  root = tempDir('aula-edge-assets-');
  dist = join(root, 'dist');
  await buildOk({ content: writeContent(join(root, 'content'), FIXTURE_FILES), out: dist, precompress: false });
});
afterAll(() => removeDir(root));

/** dist/ as the asset service gives it, logging every request as "METHOD path". */
function assetsOf(folder: string, log: string[]): AssetFetcher {
  return {
    async fetch(input, init) {
      const rel = new URL(input).pathname.slice(1);
      const method = init?.method ?? 'GET';
      log.push(`${method} ${rel}`);
      let bytes: Buffer;
      try {
        if (!statSync(join(folder, rel)).isFile()) throw new Error('not a file');
        bytes = readFileSync(join(folder, rel));
      } catch {
        return new Response('not found', { status: 404 });
      }
      const headers = { 'Content-Length': String(bytes.byteLength) };
      return new Response(method === 'HEAD' ? null : bytes, { status: 200, headers });
    },
  };
}

describe('loading the dataset', () => {
  it('fetches the manifest and each loaded file once, and makes no HEAD request', async () => {
    const log: string[] = [];
    const ds = await loadEdgeDataset(assetsOf(dist, log), { maxDataBytes: 1e9 });
    expect(ds.events.table.length).toBeGreaterThan(0);
    expect(log).toEqual(['GET manifest.json', ...loadedFiles(ds.manifest).map((rel) => `GET ${rel}`)]);
  });

  it('refuses a dist over the bound from the manifest alone, before fetching the data', async () => {
    const log: string[] = [];
    const refused = await loadEdgeDataset(assetsOf(dist, log), { maxDataBytes: 1000 }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(EdgeLoadError);
    expect((refused as EdgeLoadError).permanent).toBe(true);
    expect((refused as EdgeLoadError).detail).toMatch(/larger than an edge isolate can hold/);
    expect(log).toEqual(['GET manifest.json']);
  });
});

describe('public files', () => {
  const page = 'openapi.json';
  const ask = (files: EdgePublicFiles, method: string, ifNoneMatch?: string) =>
    files.answer({ method, path: `/${page}`, ifNoneMatch });

  it('a first GET fetches the file once and answers from that read', async () => {
    const log: string[] = [];
    const files = new EdgePublicFiles(assetsOf(dist, log), 'http://127.0.0.1:8000', 'public, max-age=60');
    const first = (await ask(files, 'GET'))!;
    const bytes = readFileSync(join(dist, page));
    expect(first.status).toBe(200);
    expect(Buffer.from(await first.arrayBuffer()).equals(bytes)).toBe(true);
    expect(first.headers.get('content-length')).toBe(String(bytes.byteLength));
    expect(first.headers.get('content-type')).toMatch(/^application\/json/);
    expect(log).toEqual([`GET ${page}`]);

    const etag = first.headers.get('etag')!;
    expect((await ask(files, 'GET', etag))!.status).toBe(304);
    expect(log).toHaveLength(1);

    const again = (await ask(files, 'GET'))!;
    expect(Buffer.from(await again.arrayBuffer()).equals(bytes)).toBe(true);
    expect(again.headers.get('etag')).toBe(etag);
    expect(log).toEqual([`GET ${page}`, `GET ${page}`]);
  });

  it('a HEAD after the first request asks for no body', async () => {
    const log: string[] = [];
    const files = new EdgePublicFiles(assetsOf(dist, log), 'http://127.0.0.1:8000', 'public, max-age=60');
    const head = (await ask(files, 'HEAD'))!;
    expect(head.status).toBe(200);
    expect(head.body).toBeNull();
    expect(head.headers.get('content-length')).toBe(String(statSync(join(dist, page)).size));
    await ask(files, 'HEAD');
    expect(log).toEqual([`GET ${page}`, `HEAD ${page}`]);
  });

  it('a file absent at first is answered once deployed', async () => {
    const log: string[] = [];
    const empty = join(root, 'empty');
    const files = new EdgePublicFiles(assetsOf(empty, log), 'http://127.0.0.1:8000', 'public, max-age=60');
    expect(await ask(files, 'GET')).toBeNull();
    writeContent(empty, { [page]: '{"openapi":"3"}' });
    const later = (await ask(files, 'GET'))!;
    expect(await later.text()).toBe('{"openapi":"3"}');
  });
});
