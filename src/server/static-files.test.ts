// aula serve's public files over real HTTP (nginx-free; test/nginx.test.ts compares with nginx).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtureSite, SAMPLE_CONTENT, servedSample } from '../../test/helpers.ts';
import { SCRIPTED_MEDIA_FILES } from '../../test/fixture-content.ts';
import { isPublicFile } from '../store/format/public-files.ts';
import { StaticFiles } from './static-files.ts';

let site: Awaited<ReturnType<typeof servedSample>>;
beforeAll(async () => {
  // served under a base URL with a path, as behind a proxy at /api
  site = await servedSample({ baseUrl: 'https://example.org/api' });
});
afterAll(() => site?.close());

describe('public files from aula serve', () => {
  it('answers them under the base path and without it, with type, validator and length', async () => {
    for (const path of ['/api/events.ics', '/events.ics']) {
      const r = await site.get(path);
      expect(r.status, path).toBe(200);
      expect(r.headers.get('content-type')).toBe('text/calendar; charset=utf-8');
      // the dist was built for another URL: the calendar is the API's under this one, not the file
      expect(r.text).toBe((await site.get('/api/v1/cms/event/?format=ics')).text);
      expect(r.text).toMatch(/^UID:event-\d+@example\.org\r$/m);
      expect(r.text).not.toBe(readFileSync(join(site.dist, 'events.ics'), 'utf8'));
      expect(r.headers.get('etag')).toMatch(/^"/);
      expect(r.headers.get('x-content-type-options')).toBe('nosniff');
    }
    expect((await site.get('/api/autocomplete/autocomplete.js')).headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect((await site.get('/api/schemas/event.schema.json')).headers.get('content-type')).toBe('application/json');
  });

  it("names the URL it serves under in its documents, not the build's, and sends no stale compressed twin", async () => {
    expect(readFileSync(join(site.dist, 'openapi.json'), 'utf8')).not.toContain('https://example.org/api');
    const schema = await fetch(`${site.url}/api/openapi.json`, { headers: { 'accept-encoding': 'br, gzip' } });
    expect(schema.headers.get('content-encoding')).toBe(null);
    expect(((await schema.json()) as { servers: unknown }).servers).toEqual([{ url: 'https://example.org/api' }]);
    const calendar = await fetch(`${site.url}/api/events.ics`, { headers: { 'accept-encoding': 'br, gzip' } });
    expect(calendar.headers.get('content-encoding')).toBe(null);
    expect(await calendar.text()).toMatch(/^UID:event-\d+@example\.org\r$/m);
  });

  it('answers If-None-Match with 304 and HEAD without a body', async () => {
    const first = await site.get('/api/openapi.json');
    const again = await site.get('/api/openapi.json', { headers: { 'if-none-match': first.headers.get('etag')! } });
    expect(again.status).toBe(304);
    expect(again.text).toBe('');
    const head = await site.get('/api/openapi.json', { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-length')).toBe(String(Buffer.byteLength(first.text)));
  });

  it('sends the precompressed form the client accepts', async () => {
    const r = await fetch(`${site.url}/api/autocomplete/index.json`, { headers: { 'accept-encoding': 'br' } });
    expect(r.headers.get('content-encoding')).toBe('br');
    expect(r.headers.get('vary')).toBe('Accept-Encoding');
    expect(await r.text()).toBe(readFileSync(join(site.dist, 'autocomplete', 'index.json'), 'utf8'));
  });

  it('answers a media file at the URL the API gives it', async () => {
    const media = JSON.parse(readFileSync(join(site.dist, 'data', 'media-files.json'), 'utf8'));
    const logo = media.find((m: { file: string }) => m.file.endsWith('.png'));
    const r = await fetch(`${site.url}/api/cms/media/${logo.id}/`);
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await r.arrayBuffer()).equals(readFileSync(join(SAMPLE_CONTENT, 'media', 'files', 'meduni-logo.png')))).toBe(true);
  });

  it('never answers other files of dist/ or outside it: the API says 404', async () => {
    for (const path of ['/api/manifest.json', '/api/data/media-files.json', '/api/schemas/../manifest.json', '/api/schemas/%2e%2e%2fmanifest.json',
      '/api/cms/media/101/meduni-logo.png', '/api/cms/media/101', '/api/autocomplete/', '/api/events.ics.br', '/api/%2e%2e/%2e%2e/etc/passwd']) {
      const r = await site.get(path);
      expect([301, 404], path).toContain(r.status);
      expect(r.headers.get('content-type'), path).toBe('application/json');
    }
    expect((await site.get('/api/events.ics', { method: 'POST' })).status).not.toBe(200);
  });
});

describe('media files a browser would run a script in', () => {
  const fixture = fixtureSite(SCRIPTED_MEDIA_FILES);

  it('are sent with Content-Security-Policy: sandbox (SVG, HTML), and no other type is (PNG)', async () => {
    const expected: [number, string, string | null][] = [[21, 'image/svg+xml', 'sandbox'], [22, 'text/html', 'sandbox'], [12, 'image/png', null]];
    for (const [id, type, policy] of expected) {
      for (const method of ['GET', 'HEAD']) {
        const r = await fixture.get(`/cms/media/${id}/`, { method });
        expect(r.status, `${method} ${id}`).toBe(200);
        expect(r.headers.get('content-type'), `${method} ${id}`).toBe(type);
        expect(r.headers.get('content-security-policy'), `${method} ${id}`).toBe(policy);
        expect(r.headers.get('x-content-type-options')).toBe('nosniff');
      }
    }
    expect((await fixture.get('/cms/media/21/')).text).toBe(SCRIPTED_MEDIA_FILES['media/plan.svg']);
  });
});

describe('other methods than GET and HEAD on a public file', () => {
  it('are 405 naming GET and HEAD, with the body and headers of the API\'s 405', async () => {
    const api = await site.get('/api/v1/cms/event/', { method: 'POST', body: '{}' });
    expect(api.status).toBe(405);
    for (const path of ['/api/events.ics', '/events.ics', '/api/openapi.json', '/api/cms/media/101/']) {
      for (const method of ['POST', 'PUT', 'DELETE', 'OPTIONS']) {
        const r = await site.get(path, { method, body: method === 'POST' || method === 'PUT' ? 'x'.repeat(100) : undefined });
        expect(r.status, `${method} ${path}`).toBe(405);
        expect(r.headers.get('allow'), `${method} ${path}`).toBe('GET, HEAD');
        expect(r.text).toBe(`{"detail":"Method \\"${method}\\" not allowed."}`);
        expect(r.headers.get('content-type')).toBe(api.headers.get('content-type'));
        expect(r.headers.get('content-length')).toBe(String(Buffer.byteLength(r.text)));
      }
    }
    // no such file: the API's answer, as nginx passes it to the server
    expect((await site.get('/api/cms/media/999999/', { method: 'POST' })).status).toBe(404);
    expect((await site.get('/api/schemas/nope.schema.json', { method: 'POST' })).status).toBe(404);
    // the connection stays usable after an unread body
    expect((await site.get('/api/events.ics')).status).toBe(200);
  });
});

describe('the quick test before a public-file lookup', () => {
  it('lets every public file of a built dist through, with and without the base path, and stops API paths', () => {
    const files = new StaticFiles(site.dist, 'https://example.org/api');
    const rels = (readdirSync(site.dist, { recursive: true }) as string[]).map((f) => f.split('\\').join('/')).filter(isPublicFile);
    expect(rels.length).toBeGreaterThan(3);
    const media = JSON.parse(readFileSync(join(site.dist, 'data', 'media-files.json'), 'utf8')) as { id: number }[];
    const paths = [...rels.map((r) => `/${r}`), ...media.map((m) => `/cms/media/${m.id}/`)];
    for (const path of paths) {
      expect(files.mayAnswer(path), path).toBe(true);
      expect(files.mayAnswer(`/api${path}`), path).toBe(true);
    }
    for (const path of ['/v1/cms/event/', '/api/v1/cms/event/?limit=1', '/', '/api/', '/healthz']) expect(files.mayAnswer(path), path).toBe(false);
    // percent-encoded paths are decoded by the lookup itself
    expect(files.mayAnswer('/%65vents.ics')).toBe(true);
  });
});

