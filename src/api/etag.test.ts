import { describe, expect, it } from 'vitest';
import { datasetTag, etagFor, hash53 } from './etag.ts';

describe('ETags from the dataset and the request', () => {
  it('are stable and differ when the request or the data differs', () => {
    const ds = datasetTag('{"format":1}', 'https://a.example');
    expect(etagFor(ds, '/v1/cms/event/?\njson')).toBe(etagFor(datasetTag('{"format":1}', 'https://a.example'), '/v1/cms/event/?\njson'));
    expect(etagFor(ds, '/v1/cms/event/?\njson')).not.toBe(etagFor(ds, '/v1/cms/event/?\nhtml'));
    expect(etagFor(ds, '/v1/cms/event/?\njson')).not.toBe(etagFor(datasetTag('{"format":2}', 'https://a.example'), '/v1/cms/event/?\njson'));
    expect(datasetTag('{}', 'https://a.example')).not.toBe(datasetTag('{}', 'https://b.example'));
    expect(etagFor(ds, 'x')).toMatch(/^"[0-9a-z]+-[0-9a-z]+"$/);
  });

  it('write a digest as 11 base-32 digits, every one of its 53 bits', () => {
    for (const text of ['', 'x', '/v1/cms/event/?limit=20&offset=1\n']) expect(hash53(text)).toMatch(/^[0-9a-v]{11}$/);
    // the top digit holds the last 3 of the 53 bits: all of its 8 values appear
    const tops = new Set<string>();
    for (let i = 0; i < 2_000; i++) tops.add(hash53(`k${i}`)[10]);
    expect([...tops].sort().join('')).toBe('01234567');
  });

  it('spread keys: no collision among 200,000 similar request keys', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 200_000; i++) seen.add(hash53(`/v1/cms/event/?limit=20&offset=${i}\njson`));
    expect(seen.size).toBe(200_000);
  });
});
