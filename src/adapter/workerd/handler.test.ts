import { describe, expect, it } from 'vitest';
import { toApiRequest, toResponse } from './handler.ts';

describe('toApiRequest', () => {
  it('keeps the path and query as sent, undecoded, without the fragment', () => {
    const r = toApiRequest(new Request('http://edge.example/api/v1/cms/event/?title__icontains=m%C3%BCller&x=a?b', { headers: { accept: 'text/html', 'if-none-match': '"t"' } }));
    expect(r).toEqual({
      method: 'GET',
      path: '/api/v1/cms/event/',
      query: 'title__icontains=m%C3%BCller&x=a?b',
      headers: { accept: 'text/html', 'if-none-match': '"t"' },
    });
    expect(toApiRequest(new Request('http://edge.example')).path).toBe('/');
    expect(toApiRequest(new Request('http://edge.example/v1/?q=1#frag')).query).toBe('q=1');
    expect(toApiRequest(new Request('http://edge.example/v1/', { method: 'OPTIONS' })).headers).toEqual({ accept: undefined, 'if-none-match': undefined });
  });
});

describe('toResponse', () => {
  it('sends bodies as given and none for an empty or 304 answer', async () => {
    const bytes = Buffer.from('{"a":"ü"}');
    const full = toResponse({ status: 200, headers: { 'Content-Type': 'application/json' }, body: bytes });
    expect(Buffer.from(await full.arrayBuffer()).equals(bytes)).toBe(true);
    expect(toResponse({ status: 304, headers: { ETag: '"x"' }, body: '' }).body).toBeNull();
    const moved = toResponse({ status: 301, headers: { Location: '/v1/cms/event/' }, body: '' });
    expect([moved.status, moved.headers.get('location'), moved.body]).toEqual([301, '/v1/cms/event/', null]);
  });
});
