// The documents of dist/ that are the API core's own answers, written as files by the build:
// answered anew wherever the data they were made from is served otherwise (under another base
// URL, or `aula dev`'s data made in memory), so they never disagree with the API.
import type { Dataset } from '../query/dataset.ts';
import { bodyBuffer } from './body.ts';
import { createApi } from './core.ts';
import { EVENT_LIST_PATH } from './events/list.ts';
import { SCHEMA_PATH } from './router.ts';

/** [file in dist/, API path, query] */
export const DOCUMENTS: readonly [string, string, string][] = [
  ['openapi.json', SCHEMA_PATH, ''],
  ['events.ics', EVENT_LIST_PATH, 'format=ics'],
];

const PATHS = new Map(DOCUMENTS.map(([rel, path, query]) => [rel, { path, query }]));

/** Whether `rel` is one of the documents. */
export const isDocument = (rel: string): boolean => PATHS.has(rel);

/**
 * The document `rel` of dist/ as the build makes it from `dataset` (no work limit, no cache), null
 * when the API answers it with no body; undefined when `rel` is not one of them.
 */
export function answerDocument(dataset: Dataset, rel: string): Buffer | null | undefined {
  const document = PATHS.get(rel);
  if (document === undefined) return undefined;
  const api = createApi(dataset, { cacheLimits: { entries: 0, bytes: 0 }, workLimit: Infinity });
  const response = api({ method: 'GET', path: document.path, query: document.query, headers: {} });
  return response.status === 200 ? bodyBuffer(response.body) : null;
}
