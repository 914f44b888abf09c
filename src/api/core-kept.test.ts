// Api.kept: the answer the core keeps for a request, without any work (the server sends it before
// judging the request's cost): undefined until the core has kept it, then the core's own answer.
import { describe, expect, it } from 'vitest';
import { fixtureApi } from '../../test/helpers.ts';
import { bodyText } from './body.ts';
import { createApi } from './core.ts';
import { loadDataset } from '../query/dataset.ts';

const site = fixtureApi();

describe('Api.kept', () => {
  it('gives the answer the core kept, as the core answers it: the same bytes, a 304 and a HEAD alike', () => {
    const dataset = loadDataset(site.dist);
    try {
      const api = createApi(dataset);
      const get = { method: 'GET', path: '/v1/cms/event/', query: 'title__icontains=kurs', headers: {} };
      expect(api.kept!(get)).toBeUndefined();
      const first = api(get);
      // kept on its key's second request (the cache's admission)
      expect(api.kept!(get)).toBeUndefined();
      api(get);
      const kept = api.kept!(get)!;
      expect(kept.status).toBe(200);
      expect(kept.headers).toEqual(first.headers);
      expect(bodyText(kept.body)).toBe(bodyText(first.body));
      const etag = first.headers.ETag;
      expect(api.kept!({ ...get, headers: { 'if-none-match': etag } })?.status).toBe(304);
      const head = api.kept!({ ...get, method: 'HEAD' })!;
      expect([head.status, head.body, head.headers['Content-Length']]).toEqual([200, '', first.headers['Content-Length']]);
      // another Accept, another method: not this answer
      expect(api.kept!({ ...get, headers: { accept: 'text/html' } })).toBeUndefined();
      expect(api.kept!({ ...get, method: 'OPTIONS' })).toBeUndefined();
    } finally {
      dataset.close();
    }
  });
  it('answers each request by its own key after a miss kept() saw, whichever request comes next', () => {
    const dataset = loadDataset(site.dist);
    try {
      const api = createApi(dataset);
      const plain = createApi(dataset);
      const a = { method: 'GET', path: '/v1/cms/event/', query: 'limit=2', headers: {} };
      const b = { method: 'GET', path: '/v1/cms/event/', query: 'limit=3', headers: {} };
      expect(api.kept!(a)).toBeUndefined();
      // another request between the miss and its answer: answered as itself, and a's key is not used for it
      expect(bodyText(api(b).body)).toBe(bodyText(plain(b).body));
      expect(bodyText(api(a).body)).toBe(bodyText(plain(a).body));
      expect(api.kept!(a)).toBeUndefined();
      expect(bodyText(api(a).body)).toBe(bodyText(plain(a).body));
      // the second answer was kept under a's own key
      expect(bodyText(api.kept!(a)!.body)).toBe(bodyText(plain(a).body));
      expect(api.kept!(b)).toBeUndefined();
    } finally {
      dataset.close();
    }
  });
});
