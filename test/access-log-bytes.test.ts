// The access log's byte count is the body a client received, for the public files and media
// `aula serve` answers as for the API: GET, compressed, HEAD (no body) and 304 alike.
import { request as httpRequest } from 'node:http';
import { describe, expect, it } from 'vitest';
import type { AccessEntry } from '../src/server/access-log.ts';
import { fixtureSite, serve } from './helpers.ts';

const entries: AccessEntry[] = [];
const site = fixtureSite();

describe('the access log of aula serve', () => {
  it('counts the body bytes sent for public files, media and API answers', async () => {
    // a second server over the fixture's dist, with the access log on
    const running = await serve(site.dist, { accessLog: (e) => entries.push(e), watch: false });
    try {
      const url = running.url;
      const at = (path: string, headers: Record<string, string> = {}, method = 'GET') =>
        new Promise<{ status: number; bytes: number; etag?: string }>((ok, fail) => {
          const req = httpRequest(`${url}${path}`, { method, headers, agent: false }, (res) => {
            let bytes = 0;
            res.on('data', (c: Buffer) => (bytes += c.length));
            res.on('end', () => ok({ status: res.statusCode ?? 0, bytes, etag: res.headers.etag }));
          });
          req.on('error', fail);
          req.end();
        });
      const cases: [string, Record<string, string>, string][] = [
        ['/api/events.ics', {}, 'GET'],
        ['/api/events.ics', { 'Accept-Encoding': 'gzip' }, 'GET'],
        ['/api/openapi.json', {}, 'GET'],
        ['/api/cms/media/12/', {}, 'GET'],
        ['/api/v1/cms/event/?limit=1', {}, 'GET'],
        ['/api/events.ics', {}, 'HEAD'],
      ];
      const got: { status: number; bytes: number; etag?: string }[] = [];
      for (const [path, headers, method] of cases) got.push(await at(path, headers, method));
      const etag = got[0].etag!;
      got.push(await at('/api/events.ics', { 'If-None-Match': etag }));
      await new Promise((r) => setImmediate(r));
      const logged = entries.map((e) => [e.target, e.status, e.bytes]);
      expect(logged).toEqual([...cases.map(([path], i) => [path, got[i].status, got[i].bytes]), ['/api/events.ics', 304, 0]]);
      // the files are not empty, so a 0 above would have been the old miscount
      expect(got[0].bytes).toBeGreaterThan(1000);
      expect(got[1].bytes).toBeLessThan(got[0].bytes);
      expect(got[3].bytes).toBeGreaterThan(0);
      expect(got[5]).toMatchObject({ status: 200, bytes: 0 });
    } finally {
      await running.close();
    }
  });
});
