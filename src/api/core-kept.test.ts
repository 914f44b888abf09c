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
});
