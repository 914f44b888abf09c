// Routes of the API: a path pattern, a name for pages and metadata, and the handler.
import type { Dataset } from '../query/dataset.ts';
import { AUTOCOMPLETE_PATH, autocomplete } from './autocomplete.ts';
import { eventCalendar } from './events/calendar.ts';
import { eventDetail, eventList, EVENT_LIST_PATH } from './events/list.ts';
import type { QueryParams } from '../query/query-dict.ts';
import { json, type ApiResponse } from './respond.ts';
import { openApiJson } from './schema.ts';

export interface Route {
  /** DRF's view name, shown as the page title and in OPTIONS */
  name: string;
  pattern: RegExp;
  handle(ds: Dataset, params: QueryParams, match: RegExpExecArray): ApiResponse;
  /** other `format` values this route answers itself (the rest are negotiated as JSON/HTML) */
  formats?: Record<string, (ds: Dataset, params: QueryParams) => ApiResponse>;
  /** what OPTIONS tells beyond DRF's name/description/renders/parses */
  describe(): Record<string, unknown>;
}

export interface RouteDescriptions {
  eventList(): Record<string, unknown>;
  eventDetail(): Record<string, unknown>;
  autocomplete(): Record<string, unknown>;
  schema(): Record<string, unknown>;
}

export const SCHEMA_PATH = '/v1/schema/';

/** DRF DefaultRouter's root view: where each endpoint is, as absolute URLs under the base URL. */
function apiRoot(ds: Dataset): ApiResponse {
  return json(200, JSON.stringify({
    event: `${ds.baseUrl}${EVENT_LIST_PATH}`,
    autocomplete: `${ds.baseUrl}${AUTOCOMPLETE_PATH}`,
    schema: `${ds.baseUrl}${SCHEMA_PATH}`,
  }));
}

export function routes(describe: RouteDescriptions): Route[] {
  return [
    {
      name: 'Event List',
      pattern: new RegExp(`^${EVENT_LIST_PATH}$`),
      handle: (ds, params) => eventList(ds, params),
      formats: { ics: eventCalendar },
      describe: describe.eventList,
    },
    {
      name: 'Event Instance',
      pattern: new RegExp(`^${EVENT_LIST_PATH}([^/.]+)/$`),
      handle: (ds, params, match) => eventDetail(ds, match[1], params),
      describe: describe.eventDetail,
    },
    {
      name: 'Autocomplete',
      pattern: new RegExp(`^${AUTOCOMPLETE_PATH}$`),
      handle: (ds, params) => autocomplete(ds, params),
      describe: describe.autocomplete,
    },
    {
      name: 'Schema',
      pattern: new RegExp(`^${SCHEMA_PATH}$`),
      handle: (ds) => json(200, openApiJson(ds)),
      describe: describe.schema,
    },
    {
      name: 'Api Root',
      pattern: /^\/(?:v1\/)?$/,
      handle: (ds) => apiRoot(ds),
      describe: () => ({}),
    },
  ];
}

export function matchRoute(table: readonly Route[], path: string): { route: Route; match: RegExpExecArray } | null {
  for (const route of table) {
    const match = route.pattern.exec(path);
    if (match) return { route, match };
  }
  return null;
}
