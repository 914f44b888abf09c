import { describe, expect, it } from 'vitest';
import { publicTarget } from './public-files.ts';

describe('publicTarget', () => {
  it('names public files and media below the base path and at the root', () => {
    expect(publicTarget('/api', '/api/openapi.json')).toEqual({ file: 'openapi.json' });
    expect(publicTarget('/api', '/openapi.json')).toEqual({ file: 'openapi.json' });
    expect(publicTarget('', '/schemas/event.schema.json')).toEqual({ file: 'schemas/event.schema.json' });
    expect(publicTarget('', '/autocomplete/index%2Ejson')).toEqual({ file: 'autocomplete/index.json' });
    expect(publicTarget('/api', '/api/cms/media/101/')).toEqual({ media: 101 });
    expect(publicTarget('', '/cms/media/7/')).toEqual({ media: 7 });
  });

  it('names nothing else of dist/, and nothing for paths that cannot be decoded', () => {
    for (const path of [
      '/manifest.json', '/data/events/00000.jsonl', '/data/media-files.json', '/edge/worker.js', '/api/edge/wrangler.toml',
      '/openapi.json.br', '/events.ics.gz', '/autocomplete/../manifest.json', '/autocomplete/%2e%2e/manifest.json',
      '/cms/media/101', '/cms/media/x/', '/cms/media/1234567890123456/', '/cms/media/101/file.png', '/%ZZ', 'openapi.json', '/api',
    ]) {
      expect(publicTarget('/api', path), path).toBeNull();
    }
  });
});
