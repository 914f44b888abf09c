// GET /v1/cms/event/ and /v1/cms/event/<id>/.
import type { Dataset } from '../../query/dataset.ts';
import { envelopeBytes, pageLinks, pageRange, pageWindow, parsePythonInt } from '../paginate.ts';
import type { QueryParams } from '../../query/query-dict.ts';
import { ignoredHeader, invalid, json, notFound, type ApiResponse } from '../respond.ts';
import { filterEvents } from '../../query/events/filter.ts';
import { parseShape, shapeRenderer, SHAPE_PARAMS } from './shape.ts';

export const EVENT_LIST_PATH = '/v1/cms/event/';

export const LIST_RESERVED: ReadonlySet<string> = new Set<string>(['limit', 'offset', 'format', ...SHAPE_PARAMS]);

export function eventList(ds: Dataset, params: QueryParams): ApiResponse {
  const { table, rows } = ds.events;
  const shape = parseShape(params);
  const filtered = filterEvents(table, { timezone: ds.site.timezone, categoryIds: ds.categories.ids }, params, LIST_RESERVED);
  const ignored = ignoredHeader([...filtered.ignored, ...shape.ignored]);
  if (!filtered.ok) return invalid(filtered.errors, ignored);
  const matches = filtered.rows;
  const count = matches ? matches.length : table.length;
  const window = pageWindow(params, ds.site);
  const [from, to] = pageRange(window, count);
  const links = pageLinks(window, count, ds.baseUrl, EVENT_LIST_PATH, params);
  const render = shapeRenderer(shape, rows, ds.categories.json);
  const results: Uint8Array[] = [];
  for (let i = from; i < to; i++) results.push(render(matches ? matches[i] : i));
  return json(200, envelopeBytes(count, links, results), ignored);
}

/** The one event: a read-only viewset's retrieve, with the list's field shaping. */
export function eventDetail(ds: Dataset, id: string, params: QueryParams): ApiResponse {
  const value = parsePythonInt(id);
  const row = value === null ? undefined : ds.events.table.rowById.get(Number(value));
  if (row === undefined) return notFound();
  const shape = parseShape(params);
  const unknown = params.keys().filter((k) => k !== 'format' && !(SHAPE_PARAMS as readonly string[]).includes(k));
  return json(200, shapeRenderer(shape, ds.events.rows, ds.categories.json)(row), ignoredHeader([...unknown, ...shape.ignored]));
}
