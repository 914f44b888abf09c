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

  it('spread keys: no collision among 200,000 similar request keys', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 200_000; i++) seen.add(hash53(`/v1/cms/event/?limit=20&offset=${i}\njson`));
    expect(seen.size).toBe(200_000);
  });
});
