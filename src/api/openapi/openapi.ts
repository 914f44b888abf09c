// The OpenAPI 3.1 description of the API, generated from the catalogs the API runs on. Built as a
// plain object so the build can write it as JSON and the server can answer it unchanged.
import { AUTOCOMPLETE_PATH } from '../autocomplete.ts';
import { EVENT_LIST_PATH } from '../events/list.ts';
import { ALLOW } from '../respond.ts';
import {
  autocompleteParameters, filterParameters, formatParameter, ifNoneMatch, orderingParameter, paginationParameters, searchParameter, shapeParameters,
  type PageDefaults,
} from './parameters.ts';
import { componentSchemas, ref, type Schema } from './schemas.ts';

export interface OpenApiOptions {
  /** origin + optional path prefix, without a trailing slash */
  baseUrl: string;
  /** aula's version, as the document's own version */
  version: string;
  /** the site's page_size (default 20) */
  pageSize?: number;
  /** the site's max_page_size (default 1000) */
  maxPageSize?: number;
}

const headerRef = (name: string) => ({ $ref: `#/components/headers/${name}` });
const responseRef = (name: string) => ({ $ref: `#/components/responses/${name}` });

/** What every successful answer carries; a 304 repeats it without a body. */
const SUCCESS_HEADERS = {
  ETag: headerRef('ETag'),
  'Cache-Control': headerRef('Cache-Control'),
  Vary: headerRef('Vary'),
  'X-Ignored-Parameters': headerRef('X-Ignored-Parameters'),
};

const HTML = { 'text/html': { schema: { type: 'string', description: 'The browsable API page (`format=api` or `Accept: text/html`).' } } };

function ok(description: string, json: Schema, more: Record<string, unknown> = {}) {
  return { description, headers: SUCCESS_HEADERS, content: { 'application/json': { schema: json }, ...HTML, ...more } };
}

/** The answers every GET shares beside its 200. */
const COMMON_RESPONSES = {
  '304': responseRef('NotModified'),
  '404': responseRef('NotFound'),
  '405': responseRef('MethodNotAllowed'),
  '406': responseRef('NotAcceptable'),
};

function options(operationId: string, summary: string, tag: string) {
  return {
    operationId,
    summary,
    tags: [tag],
    responses: { '200': { description: "DRF's metadata plus the query contract.", content: { 'application/json': { schema: ref('Metadata') } } } },
  };
}

function paths(d: PageDefaults) {
  const page = paginationParameters(d);
  const shape = shapeParameters();
  return {
    [EVENT_LIST_PATH]: {
      get: {
        operationId: 'listEvents',
        summary: 'List events',
        description:
          'Events in descending order of `start` (then `end` descending, `id` ascending) unless `ordering` names another order, filtered by every filter parameter given and by `search` (AND). Unknown parameters are ignored and named in `X-Ignored-Parameters`.',
        tags: ['events'],
        parameters: [...page, formatParameter(['json', 'api', 'ics']), ...shape, orderingParameter(), searchParameter(), ...filterParameters(), ifNoneMatch],
        responses: {
          '200': ok('A page of events.', ref('EventPage'), {
            'text/calendar': {
              schema: { type: 'string', description: 'With `format=ics`: the events of the answer as an iCalendar (RFC 5545) VCALENDAR.' },
            },
          }),
          '400': responseRef('BadRequest'),
          ...COMMON_RESPONSES,
        },
      },
      options: options('describeEvents', 'Describe the event list', 'events'),
    },
    [`${EVENT_LIST_PATH}{id}/`]: {
      get: {
        operationId: 'getEvent',
        summary: 'One event',
        description:
          "The event looked up among those the filter parameters and `search` leave, as the list's (DRF's `get_object`): an invalid filter is the list's 400, an event the filters leave out is 404. `limit`, `offset` and `ordering` do nothing here and are named in `X-Ignored-Parameters`.",
        tags: ['events'],
        parameters: [
          { name: 'id', in: 'path', required: true, description: 'The event id.', schema: { type: 'integer' } },
          formatParameter(['json', 'api']),
          ...shape,
          searchParameter(),
          ...filterParameters(),
          ifNoneMatch,
        ],
        responses: { '200': ok('The event.', ref('Event')), '400': responseRef('BadRequest'), ...COMMON_RESPONSES },
      },
      options: options('describeEvent', 'Describe the event instance', 'events'),
    },
    [AUTOCOMPLETE_PATH]: {
      get: {
        operationId: 'autocomplete',
        summary: 'Autocomplete over people, rooms and organizations',
        description: 'Suggestions ranked by how well they match `q`. Unknown parameters are ignored and named in `X-Ignored-Parameters`.',
        tags: ['autocomplete'],
        parameters: [...autocompleteParameters(), ...page, formatParameter(['json', 'api']), ifNoneMatch],
        responses: { '200': ok('A page of suggestions.', ref('AutocompletePage')), '400': responseRef('BadRequest'), ...COMMON_RESPONSES },
      },
      options: options('describeAutocomplete', 'Describe the autocomplete', 'autocomplete'),
    },
  };
}

const detailResponse = (description: string, headers: Record<string, unknown> = {}) => ({
  description,
  headers: { Vary: headerRef('Vary'), ...headers },
  content: { 'application/json': { schema: ref('Detail') } },
});

const components = () => ({
  schemas: {
    ...componentSchemas(),
    Metadata: {
      type: 'object',
      description: "The answer to OPTIONS: DRF's name, description, renders and parses, then what the endpoint accepts.",
      properties: {
        name: { type: 'string' },
        description: { type: 'string' },
        renders: { type: 'array', items: { type: 'string' } },
        parses: { type: 'array', items: { type: 'string' } },
      },
      required: ['name', 'description', 'renders', 'parses'],
      additionalProperties: true,
    },
  },
  headers: {
    ETag: { description: 'A strong validator: the same tag as long as the dataset and the request are the same; another build gives another tag.', schema: { type: 'string' } },
    'Cache-Control': {
      description: 'The caching policy of successful answers (`aula serve --cache-control`, default `public, max-age=60, s-maxage=300, stale-while-revalidate=60, stale-if-error=86400`).',
      schema: { type: 'string' },
    },
    Vary: { description: 'The answer depends on the `Accept` header.', schema: { type: 'string', const: 'Accept' } },
    'X-Ignored-Parameters': {
      description:
        'The query parameters that were not understood and so had no effect, comma-separated (`expand=`, `fields=`, `omit=` items and `ordering=` terms as `name=value`). Absent when there are none.',
      schema: { type: 'string' },
    },
    Allow: { description: 'The methods the endpoint answers.', schema: { type: 'string', const: ALLOW } },
  },
  responses: {
    NotModified: { description: 'The answer is the one the `If-None-Match` tag names.', headers: SUCCESS_HEADERS },
    BadRequest: {
      description: 'Invalid values of query parameters: each one with its messages.',
      headers: { Vary: headerRef('Vary'), 'X-Ignored-Parameters': headerRef('X-Ignored-Parameters') },
      content: { 'application/json': { schema: ref('ParameterErrors') } },
    },
    NotFound: detailResponse('No such path or event, or an unknown `format`: `{"detail":"Not found."}`.'),
    MethodNotAllowed: detailResponse('Any method but GET, HEAD and OPTIONS: `{"detail":"Method \\"POST\\" not allowed."}`.', {
      Allow: headerRef('Allow'),
    }),
    NotAcceptable: detailResponse('`Accept` admits neither JSON nor HTML: `{"detail":"Could not satisfy the request Accept header."}`.'),
  },
});

export function openApiDocument(options: OpenApiOptions): object {
  const defaults: PageDefaults = { pageSize: options.pageSize ?? 20, maxPageSize: options.maxPageSize ?? 1000 };
  return {
    openapi: '3.1.0',
    info: {
      title: 'aula',
      version: options.version,
      summary: 'Events of a content management system and autocomplete over a directory of people, rooms and organizations.',
      description:
        'Read-only. Every path also answers HEAD (the GET answer without a body) and OPTIONS. Paths end with a slash; without it the answer is a 301 to the path with it. Answers are compact JSON in UTF-8.',
      license: { name: 'MIT', identifier: 'MIT' },
    },
    servers: [{ url: options.baseUrl }],
    tags: [
      { name: 'events', description: 'The event list and single events.' },
      { name: 'autocomplete', description: 'Suggestions over the directory.' },
    ],
    paths: paths(defaults),
    components: components(),
  };
}
