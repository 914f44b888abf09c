import { describe, expect, it } from 'vitest';
import { cors, parseCorsOrigins } from './cors.ts';

describe('parseCorsOrigins', () => {
  it('reads * or a comma list of origins', () => {
    expect(parseCorsOrigins('*')).toBe('*');
    expect(parseCorsOrigins('https://a.example, http://localhost:3000/')).toEqual(['https://a.example', 'http://localhost:3000']);
  });
  it.each(['', ',', 'a.example', 'ftp://a.example', 'https://a.example/path', 'https://a.example?x'])('refuses %j', (value) => {
    expect(() => parseCorsOrigins(value)).toThrow();
  });
});

describe('cors', () => {
  it('adds headers once per answer and origin (the same object for a repeated request)', () => {
    const c = cors(['https://a.example']);
    const headers = { 'Content-Type': 'application/json', Vary: 'Accept' };
    const first = c.withHeaders(headers, 'https://a.example');
    expect(c.withHeaders(headers, 'https://a.example')).toBe(first);
    expect(first).toMatchObject({ 'Access-Control-Allow-Origin': 'https://a.example', Vary: 'Accept, Origin' });
    expect(headers).toEqual({ 'Content-Type': 'application/json', Vary: 'Accept' });
    expect(c.withHeaders(headers, undefined)).toEqual({ ...headers, Vary: 'Accept, Origin' });
  });
  it('answers a preflight only from an allowed origin, and echoes only a token list of headers', () => {
    const c = cors(['https://a.example']);
    expect(c.preflight('OPTIONS', 'https://b.example', 'GET', undefined)).toBeNull();
    expect(c.preflight('OPTIONS', 'https://a.example', undefined, undefined)).toBeNull();
    expect(c.preflight('GET', 'https://a.example', 'GET', undefined)).toBeNull();
    expect(c.preflight('OPTIONS', 'https://a.example', 'GET', 'x-a, x-b')?.['Access-Control-Allow-Headers']).toBe('x-a, x-b');
    expect(c.preflight('OPTIONS', 'https://a.example', 'GET', 'x-a\r\nX-Evil: 1')?.['Access-Control-Allow-Headers']).toBe('Accept, Accept-Language, If-None-Match');
  });
});
