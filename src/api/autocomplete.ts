// GET /v1/api/autocomplete/: suggestions over the directory, in the event list's envelope.
import { parseModels } from '../query/autocomplete/index.ts';
import type { Dataset } from '../query/dataset.ts';
import { envelopeOpen, pageLinks, pageRange, pageWindow } from './paginate.ts';
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
  return json(200, joined(envelopeOpen(result.count, links), result.pageBytes(from, to - from)), ignored);
}

/**
 * The envelope around the suggestions as the build stored them: one buffer the size of the
 * answer, each suggestion's bytes copied in, none rendered or encoded again.
 */
function joined(open: Buffer, results: readonly Uint8Array[]): Buffer {
  // a comma between results, and "]}"
  let length = open.length + Math.max(0, results.length - 1) + 2;
  for (const r of results) length += r.length;
  const out = Buffer.allocUnsafe(length);
  let at = open.copy(out, 0);
  for (let i = 0; i < results.length; i++) {
    if (i > 0) out[at++] = COMMA;
    out.set(results[i], at);
    at += results[i].length;
  }
  out[at++] = CLOSE_BRACKET;
  out[at++] = CLOSE_BRACE;
  return out;
}

const COMMA = 0x2c;
const CLOSE_BRACKET = 0x5d;
const CLOSE_BRACE = 0x7d;
