// HTTP behaviour shared by every route: headers, HEAD, 404, 405, the trailing-slash redirect.
import { describe, expect, it } from 'vitest';
import { fixtureSite } from './helpers.ts';

const site = fixtureSite();

describe('headers', () => {
  it('successful answers carry the reference headers', async () => {
    const answer = await site.get('/v1/cms/event/');
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('application/json');
    expect(answer.headers.get('vary')).toBe('Accept');
    expect(answer.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
    expect(answer.headers.get('x-frame-options')).toBe('DENY');
    expect(answer.headers.get('x-content-type-options')).toBe('nosniff');
    expect(answer.headers.get('referrer-policy')).toBe('same-origin');
    expect(Number(answer.headers.get('content-length'))).toBe(Buffer.byteLength(answer.text));
  });
});

describe('HEAD', () => {
  it('gives the same headers as GET and no body', async () => {
    for (const path of ['/v1/cms/event/', '/v1/cms/event/42/', '/v1/api/autocomplete/?q=m']) {
      const get = await site.get(path);
      const head = await site.get(path, { method: 'HEAD' });
      expect(head.status).toBe(200);
      expect(head.text).toBe('');
      const comparable = (h: Headers) => Object.fromEntries([...h].filter(([k]) => !['date', 'connection', 'keep-alive'].includes(k)));
      expect(comparable(head.headers)).toEqual(comparable(get.headers));
      expect(head.headers.get('content-length')).toBe(String(Buffer.byteLength(get.text)));
    }
  });

  it('gives the same headers as GET where the answer is compressed for the client', async () => {
    for (const path of ['/v1/cms/event/', '/v1/cms/event/?format=ics', '/v1/api/autocomplete/?q=m', '/v1/cms/event/42/']) {
      for (const coding of ['gzip', 'br']) {
        const headers = { 'Accept-Encoding': coding };
        const get = await site.get(path, { headers });
        const head = await site.get(path, { method: 'HEAD', headers });
        expect([head.status, head.text]).toEqual([200, '']);
        const comparable = (h: Headers) => Object.fromEntries([...h].filter(([k]) => !['date', 'connection', 'keep-alive'].includes(k)));
        expect(comparable(head.headers), `${path} ${coding}`).toEqual(comparable(get.headers));
      }
    }
  });
});

describe('errors', () => {
  it('unknown paths → 404 JSON', async () => {
    for (const path of ['/v2/', '/v1/cms/', '/v1/cms/events/', '/v1/cms/event/999/', '/v1/cms/event/abc/', '/v1/cms/event/1.5/', '/v1/cms/event/42/x/']) {
      const answer = await site.get(path);
      expect(answer.status, path).toBe(404);
      expect(answer.headers.get('content-type')).toBe('application/json');
      expect(answer.json()).toEqual({ detail: 'Not found.' });
    }
  });
  it('other methods → 405 JSON with Allow', async () => {
    for (const method of ['POST', 'PUT', 'DELETE', 'PATCH']) {
      const answer = await site.get('/v1/cms/event/', { method, body: method === 'DELETE' ? undefined : '{}' });
      expect(answer.status).toBe(405);
      expect(answer.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
      expect(answer.json()).toEqual({ detail: `Method "${method}" not allowed.` });
    }
  });
  it('a known path without its trailing slash → 301 with the query kept', async () => {
    const answer = await site.get('/v1/cms/event?limit=1&title=a%20b');
    expect(answer.status).toBe(301);
    expect(answer.headers.get('location')).toBe('/v1/cms/event/?limit=1&title=a%20b');
    expect((await site.get('/v1/cms/event/42')).headers.get('location')).toBe('/v1/cms/event/42/');
    expect((await site.get('/v1/api/autocomplete')).status).toBe(301);
  });
  it('percent-encoded paths are decoded before routing; broken escapes are 404', async () => {
    expect((await site.get('/v1/cms/event/%34%32/')).json().id).toBe(42);
    expect((await site.get('/v1/cms/event/%E0%A4%A/')).status).toBe(404);
    expect((await site.get('/v1/cms/event/..%2f..%2f/')).status).toBe(404);
  });
});

describe('compression', () => {
  it('compresses when Accept-Encoding allows, with the same bytes once decoded', async () => {
    const { request: raw } = await import('node:http');
    const { brotliDecompressSync, gunzipSync } = await import('node:zlib');
    const get = (encoding: string) =>
      new Promise<{ headers: Record<string, any>; body: Buffer }>((ok, fail) => {
        raw(`${site.url}/v1/cms/event/?limit=3`, { headers: { 'Accept-Encoding': encoding } }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c) => chunks.push(c)).on('end', () => ok({ headers: res.headers, body: Buffer.concat(chunks) }));
        }).on('error', fail).end();
      });
    const plain = await get('identity');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers.vary).toBe('Accept');
    const br = await get('gzip;q=0.5, br');
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toBe('Accept, Accept-Encoding');
    expect(brotliDecompressSync(br.body).equals(plain.body)).toBe(true);
    const gz = await get('gzip');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.body).equals(plain.body)).toBe(true);
    expect(Number(gz.headers['content-length'])).toBe(gz.body.length);
    expect(gz.headers.etag).toBe(`W/${plain.headers.etag}`);
  });
});
