// GET /v1/api/autocomplete/: suggestions over the directory, in the event list's envelope.
import { parseModels } from '../query/autocomplete/index.ts';
import type { Dataset } from '../query/dataset.ts';
import { charge } from '../query/work-budget.ts';
import { envelopeOpen, joinResults, pageLinks, pageRange, pageWindow, UNITS_PER_STORED_BYTE } from './paginate.ts';
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
  const page = result.pageBytes(from, to - from);
  // the suggestions as the build stored them, copied into the answer: charged as the event list's stored rows are
  let bytes = 0;
  for (const suggestion of page) bytes += suggestion.length;
  charge(bytes * UNITS_PER_STORED_BYTE, 'q');
  return json(200, joinResults(envelopeOpen(result.count, links), page), ignored);
}
