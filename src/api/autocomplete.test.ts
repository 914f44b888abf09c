// The answer is joined from the stored suggestion bytes: it must be the envelope around the
// rendered suggestions, byte for byte, for no result, one and a page of them, at any offset.
import { prefixCodes } from '../query/autocomplete/prefix-codes.ts';
import { describe, expect, it } from 'vitest';
import { autocompleteOf } from '../query/autocomplete/searcher.ts';
import { prefixTops } from '../query/autocomplete/prefix-tops.ts';
import { syntheticDirectory } from '../query/autocomplete/test-fixtures.ts';
import type { Dataset } from '../query/dataset.ts';
import { QueryParams } from '../query/query-dict.ts';
import { decodeIndex } from '../store/format/autocomplete-index.ts';
import { readAutocompleteFile } from '../store/read/autocomplete-file.ts';
import { autocompleteFile } from '../store/write/autocomplete-file.ts';
import { buildIndexJson } from '../store/write/index-builder.ts';
import { autocomplete } from './autocomplete.ts';
import { bodyText } from './body.ts';
import { envelope, pageLinks, pageRange, pageWindow } from './paginate.ts';

describe('GET /v1/api/autocomplete/', () => {
  const index = decodeIndex(buildIndexJson(syntheticDirectory(300, 4)));
  const stored = autocompleteOf(readAutocompleteFile(autocompleteFile(index, prefixTops(index, 20), prefixCodes(index, 2))));
  const site = { page_size: 20, max_page_size: 1000 };
  const ds = { autocomplete: stored, site, baseUrl: 'https://events.example.org' } as unknown as Dataset;

  it('answers the envelope around the rendered suggestions, byte for byte', () => {
    let nonEmpty = 0;
    for (const query of ['q=zzzzqx', 'q=hans+m', 'q=m', 'q=m&offset=7&limit=3', 'q=s&limit=1', 'q=m&offset=100000', '', 'm=campus.room&q=h']) {
      const params = QueryParams.parse(query);
      const result = stored.search(params.get('q'), query.includes('m=') ? ['campus.Room'] : null);
      const window = pageWindow(params, site);
      const [from, to] = pageRange(window, result.count);
      const links = pageLinks(window, result.count, ds.baseUrl, '/v1/api/autocomplete/', params);
      const answer = autocomplete(ds, params);
      expect(answer.status, query).toBe(200);
      expect(bodyText(answer.body), query).toBe(envelope(result.count, links, result.page(from, to - from)));
      if (to > from) nonEmpty++;
    }
    expect(nonEmpty).toBeGreaterThan(4);
  });
});
