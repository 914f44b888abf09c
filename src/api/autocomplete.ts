// GET /v1/api/autocomplete/: suggestions over the directory, in the event list's envelope.
import { parseModels } from '../query/autocomplete/index.ts';
import type { Dataset } from '../query/dataset.ts';
import { envelope, pageLinks, pageRange, pageWindow } from './paginate.ts';
import type { QueryParams } from '../query/query-dict.ts';
import { ignoredHeader, invalid, json, type ApiResponse } from './respond.ts';

export const AUTOCOMPLETE_PATH = '/v1/api/autocomplete/';
export const AUTOCOMPLETE_PARAMS = ['q', 'm', 'limit', 'offset', 'format'] as const;

export function autocomplete(ds: Dataset, params: QueryParams): ApiResponse {
  const ignored = ignoredHeader(params.keys().filter((k) => !(AUTOCOMPLETE_PARAMS as readonly string[]).includes(k)));
  const models = parseModels(params.get('m'));
  if (!models.ok) return invalid({ m: [models.message] }, ignored);
  const result = ds.autocomplete.search(params.get('q'), models.models);
  const window = pageWindow(params, ds.site);
  const [from, to] = pageRange(window, result.count);
  const links = pageLinks(window, result.count, ds.baseUrl, AUTOCOMPLETE_PATH, params);
  // encoded here, once: as text, its length and its bytes were each computed from the string again
  return json(200, Buffer.from(envelope(result.count, links, result.page(from, to - from))), ignored);
}
