// What a CDN in front of aula acts on: the default Cache-Control, the build id on every API
// answer (the same for every replica of a build, another for another build), and the
// content-hashed autocomplete files with their year-long immutable policy.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contentHash } from '../src/store/write/hashed-files.ts';
import { DEFAULT_CACHE_CONTROL } from '../src/defaults.ts';
import { IMMUTABLE_CACHE_CONTROL } from '../src/store/format/public-files.ts';
import type { RunningServer } from '../src/server/http.ts';
import type { Manifest } from '../src/store/format/manifest.ts';
import { FIXTURE_FILES } from './fixture-content.ts';
import { buildOk, removeDir, request, serve, tempDir, writeContent } from './helpers.ts';

describe('caching for CDNs', () => {
  let root: string;
  let dist: string;
  let manifest: Manifest;
  let servers: RunningServer[] = [];

  beforeAll(async () => {
    root = tempDir('aula-cdn-');
    const content = writeContent(join(root, 'content'), FIXTURE_FILES);
    dist = join(root, 'dist');
    manifest = (await buildOk({ content, out: dist })).manifest;
    // two replicas of one build
    servers = [await serve(dist, { watch: false }), await serve(dist, { watch: false })];
  });

  afterAll(async () => {
    for (const s of servers) await s.close();
    if (root) removeDir(root);
  });

  it('defaults to a policy a shared cache can act on', async () => {
    expect(DEFAULT_CACHE_CONTROL).toBe('public, max-age=60, s-maxage=300, stale-while-revalidate=60, stale-if-error=86400');
    const answer = await request(`${servers[0].url}/v1/cms/event/?title__icontains=kurs`);
    expect(answer.headers.get('cache-control')).toBe(DEFAULT_CACHE_CONTROL);
  });

  it('names the build on every API answer, the same on every replica', async () => {
    expect(manifest.build_id).toMatch(/^[0-9a-f]{16}$/);
    const etag = (await request(`${servers[0].url}/v1/cms/event/`)).headers.get('etag')!;
    const cases: [string, RequestInit, number][] = [
      ['/v1/cms/event/', {}, 200],
      ['/v1/cms/event/', { method: 'HEAD' }, 200],
      ['/v1/cms/event/', { headers: { 'If-None-Match': etag } }, 304],
      ['/v1/cms/event/', { method: 'OPTIONS' }, 200],
      ['/v1/cms/event', {}, 301],
      ['/v1/api/autocomplete/?m=nope', {}, 400],
      ['/v1/cms/event/999999/', {}, 404],
      ['/v1/cms/event/', { method: 'POST' }, 405],
      ['/v1/api/autocomplete/?q=muel', {}, 200],
      ['/nowhere', {}, 404],
    ];
    for (const server of servers) {
      for (const [path, init, status] of cases) {
        const answer = await request(`${server.url}${path}`, init);
        expect(answer.status, `${init.method ?? 'GET'} ${path}`).toBe(status);
        expect(answer.headers.get('x-aula-build'), `${init.method ?? 'GET'} ${path}`).toBe(manifest.build_id);
      }
    }
  });

  it('gives the same content the same build id and other content another', async () => {
    const again = await buildOk({ content: join(root, 'content'), out: join(root, 'again') });
    expect(again.manifest.build_id).toBe(manifest.build_id);
    const other = writeContent(join(root, 'other'), { ...FIXTURE_FILES, 'site.yaml': FIXTURE_FILES['site.yaml'].replace('page_size: 2', 'page_size: 3') });
    const changed = await buildOk({ content: other, out: join(root, 'other-dist') });
    expect(changed.manifest.build_id).not.toBe(manifest.build_id);
  });

  it('writes content-hashed twins of the autocomplete module and index, the module loading its twin', async () => {
    const names = readdirSync(join(dist, 'autocomplete'));
    const index = names.find((n) => /^index\.[0-9a-f]{12}\.json$/.test(n))!;
    const module = names.find((n) => /^autocomplete\.[0-9a-f]{12}\.js$/.test(n))!;
    expect(index).toBeDefined();
    expect(module).toBeDefined();
    const indexBytes = readFileSync(join(dist, 'autocomplete', index));
    const moduleText = readFileSync(join(dist, 'autocomplete', module), 'utf8');
    expect(index).toBe(`index.${contentHash(indexBytes)}.json`);
    expect(module).toBe(`autocomplete.${contentHash(moduleText)}.js`);
    expect(indexBytes.equals(readFileSync(join(dist, 'autocomplete/index.json')))).toBe(true);
    expect(moduleText).toContain(`"./${index}"`);
    expect(moduleText).not.toContain('"./index.json"');
    // the compressed twins are those of index.json (compressed once)
    for (const ext of ['.gz', '.br']) {
      expect(readFileSync(join(dist, 'autocomplete', index + ext)).equals(readFileSync(join(dist, `autocomplete/index.json${ext}`))), ext).toBe(true);
    }
    // both are listed (verifiable) in the manifest
    expect(manifest.files[`autocomplete/${index}`].bytes).toBe(indexBytes.length);
    expect(manifest.files[`autocomplete/${module}`]).toBeDefined();

    // the hashed module searches as the server does
    const url = servers[0].url;
    const { createAutocompleteFromUrl } = await import(pathToFileURL(join(dist, 'autocomplete', module)).href);
    const ac = await createAutocompleteFromUrl(`${url}/autocomplete/${index}`);
    const server = (await request(`${url}/v1/api/autocomplete/?q=muel`)).json();
    expect(ac.search('muel').results).toEqual(server.results);
  });

  it('serves the hashed files as immutable and the plain names under the short policy', async () => {
    const names = readdirSync(join(dist, 'autocomplete')).filter((n) => /\.[0-9a-f]{12}\.(js|json)$/.test(n));
    expect(names).toHaveLength(2);
    for (const name of names) {
      const answer = await request(`${servers[0].url}/autocomplete/${name}`, { headers: { 'Accept-Encoding': 'gzip' } });
      expect(answer.status, name).toBe(200);
      expect(answer.headers.get('cache-control'), name).toBe(IMMUTABLE_CACHE_CONTROL);
      expect(answer.headers.get('content-encoding'), name).toBe('gzip');
    }
    for (const name of ['autocomplete.js', 'index.json']) {
      expect((await request(`${servers[0].url}/autocomplete/${name}`)).headers.get('cache-control'), name).toBe(DEFAULT_CACHE_CONTROL);
    }
    // another hash is no file
    expect((await request(`${servers[0].url}/autocomplete/index.000000000000.json`)).status).toBe(404);
  });

  it('writes the immutable policy into the Netlify and Vercel rules', () => {
    // the fixture's base URL has a path: the rules name the public URLs below it
    const prefix = new URL(manifest.base_url).pathname.replace(/\/$/, '');
    expect(prefix).toBe('/api');
    const hashed = readdirSync(join(dist, 'autocomplete')).filter((n) => /\.[0-9a-f]{12}\.(js|json)$/.test(n)).map((n) => `${prefix}/autocomplete/${n}`).sort();
    const headers = readFileSync(join(dist, '_headers'), 'utf8');
    for (const path of hashed) expect(headers).toContain(`${path}\n  Cache-Control: ${IMMUTABLE_CACHE_CONTROL}\n`);
    const vercel = JSON.parse(readFileSync(join(dist, 'vercel.json'), 'utf8'));
    // (the media files' headers are their type's: src/deploy/routing.test.ts)
    const immutable = vercel.headers.filter((h: { source: string }) => !h.source.includes('/media/'));
    expect(immutable.map((h: { source: string }) => h.source).sort()).toEqual(hashed);
    for (const h of immutable) expect(h.headers).toEqual([{ key: 'Cache-Control', value: IMMUTABLE_CACHE_CONTROL }]);
    // nginx reads its include files at start and reload only: they name no build (test/nginx.test.ts)
    expect(readFileSync(join(dist, 'deploy/nginx-server.conf'), 'utf8')).not.toContain(manifest.build_id!);
  });
});
