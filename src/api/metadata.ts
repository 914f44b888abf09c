// What OPTIONS answers: DRF's SimpleMetadata (name, description, renders, parses) plus the
// query contract, so that a client can discover filters, lookups and expansions.
import { FILTER_CATALOG } from '../query/events/filter.ts';
import { EXPANDABLE } from './events/shape.ts';
import { EVENT_FIELDS } from '../model/event-fields.ts';
import { DIRECTORY_MODELS } from '../model/types.ts';
import { ORDER_FIELDS, ORDERING_PARAM } from '../query/events/ordering/ordering-param.ts';
import { SEARCH_PARAM } from '../query/events/search/search.ts';
import { SEARCH_FIELDS } from '../store/format/search/search-text.ts';
import type { RouteDescriptions } from './router.ts';

export const RENDERS = ['application/json', 'text/html'];
export const PARSES = ['application/json', 'application/x-www-form-urlencoded', 'multipart/form-data'];

const shaping = {
  expandable: [...EXPANDABLE],
  fields: { parameters: ['fields', 'omit'], names: [...EVENT_FIELDS] },
};

export const describeRoutes: RouteDescriptions = {
  eventList: () => ({
    pagination: { parameters: ['limit', 'offset'] },
    filters: FILTER_CATALOG,
    // as DRF's OrderingFilter and SearchFilter name them
    ordering: { parameter: ORDERING_PARAM, fields: [...ORDER_FIELDS], default: ['-start', '-end', 'id'] },
    search: { parameter: SEARCH_PARAM, fields: [...SEARCH_FIELDS] },
    ...shaping,
  }),
  eventDetail: () => shaping,
  schema: () => ({ document: 'OpenAPI 3.1 description of this API' }),
  autocomplete: () => ({
    pagination: { parameters: ['limit', 'offset'] },
    parameters: {
      q: 'search words; every word must match a word of the object (prefix, case- and diacritic-insensitive, typo-tolerant)',
      m: `comma-separated models, any of ${DIRECTORY_MODELS.join(', ')}`,
    },
  }),
};

export function metadataBody(name: string, extra: Record<string, unknown>): string {
  return JSON.stringify({ name, description: '', renders: RENDERS, parses: PARSES, ...extra });
}
