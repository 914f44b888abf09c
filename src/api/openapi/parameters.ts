// The query parameters of the OpenAPI document, generated from the catalogs the API itself runs
// on (FILTER_PARAMETERS, EXPANDABLE, EVENT_FIELDS, DIRECTORY_MODELS), so the document cannot
// name a filter the server lacks or miss one it has.
import { FILTER_CATALOG, FILTER_PARAMETERS, type FilterParameter, type Lookup, type ValueType } from '../../query/events/catalog.ts';
import { EXPANDABLE } from '../events/shape.ts';
import { DIRECTORY_MODELS } from '../../model/types.ts';
import { EVENT_FIELDS } from '../../model/event-fields.ts';
import type { Schema } from './schemas.ts';
import { TIMESTAMP_EXAMPLES, TIMESTAMP_PATTERN } from '../../time/timestamp-pattern.ts';
import { ORDER_FIELDS, ORDERING_PARAM } from '../../query/events/ordering/ordering-param.ts';
import { SEARCH_FIELDS } from '../../store/format/search/search-text.ts';
import { SEARCH_PARAM } from '../../query/events/search/search.ts';

export type Parameter = Schema;

export interface PageDefaults {
  pageSize: number;
  maxPageSize: number;
}

const query = (name: string, description: string, schema: Schema, extra: Schema = {}): Parameter => ({
  name,
  in: 'query',
  required: false,
  description,
  schema,
  ...extra,
});

/** A comma-separated list, as `?expand=a,b` (the parameter may also be repeated). */
const commaList = (name: string, description: string, values: readonly string[]): Parameter =>
  query(name, description, { type: 'array', items: { type: 'string', enum: [...values] }, uniqueItems: true }, { style: 'form', explode: false });

export function paginationParameters(d: PageDefaults): Parameter[] {
  return [
    query(
      'limit',
      `Page size. Default ${d.pageSize}; larger values are clamped to ${d.maxPageSize}; a value that is not a positive integer means the default.`,
      { type: 'integer', minimum: 1, maximum: d.maxPageSize, default: d.pageSize },
    ),
    query('offset', 'Number of items skipped. A value that is not a non-negative integer means 0.', {
      type: 'integer',
      minimum: 0,
      default: 0,
    }),
  ];
}

export function formatParameter(values: readonly string[]): Parameter {
  const described: Record<string, string> = {
    json: '`json`: JSON only (406 when `Accept` excludes it)',
    api: '`api`: JSON, or the browsable HTML page when the client prefers `text/html`',
    ics: '`ics`: the events as an iCalendar file (`text/calendar`)',
  };
  return query(
    'format',
    `Renderer. Without it \`Accept\` chooses between JSON and HTML. ${values.map((v) => described[v]).join('; ')}. Any other value: 404.`,
    { type: 'string', enum: [...values] },
  );
}

export function shapeParameters(): Parameter[] {
  const fields = 'Comma-separated event fields; unknown names are ignored and named in `X-Ignored-Parameters`.';
  return [
    commaList('expand', 'Relational fields to expand (`*`: all): `categories` becomes a list of Category objects.', [...EXPANDABLE, '*']),
    commaList('fields', `Only these keys of each event, in the usual order. ${fields}`, EVENT_FIELDS),
    commaList('omit', `Every key of each event but these. ${fields}`, EVENT_FIELDS),
  ];
}

/** `ordering` and `search` on the event list: DRF's OrderingFilter and SearchFilter. */
/** `ordering`: DRF's OrderingFilter on the event list. */
export function orderingParameter(): Parameter {
  const fields = ORDER_FIELDS.map((f) => `\`${f}\``).join(', ');
  return query(
    ORDERING_PARAM,
    `The order of the events: comma-separated fields among ${fields}, each ascending, or descending with a leading \`-\`. Ties are broken by the default order (\`start\` descending, \`end\` descending, \`id\` ascending), so pages are stable. A null \`registration_end\` or \`dfp_points\` sorts after every value ascending and before every value descending (as in PostgreSQL). Titles compare by Unicode code units (upper case before lower case). Unknown or empty terms are ignored and named in \`X-Ignored-Parameters\` as \`ordering=<term>\`; \`next\` and \`previous\` keep the parameter.`,
    { type: 'array', items: { type: 'string', enum: ORDER_FIELDS.flatMap((f) => [f, `-${f}`]) } },
    {
      style: 'form',
      explode: false,
      examples: {
        upcoming: { summary: 'soonest first (with `end__gte=<now>`: the upcoming events)', value: ['start'] },
        points: { summary: 'most DFP points first (events without points come first), then by title', value: ['-dfp_points', 'title'] },
      },
    },
  );
}

/** `search`: DRF's SearchFilter on the event list and the one event. */
export function searchParameter(): Parameter {
  return query(
    SEARCH_PARAM,
    `Search terms, split on whitespace and commas; a term in double or single quotes is kept whole. Every term must occur in at least one of ${SEARCH_FIELDS.map((f) => `\`${f}\``).join(', ')} (the body's text as a reader sees it, without its HTML markup), ignoring case and diacritics, \`ß\` as \`ss\`, and umlauts also as \`ae\`, \`oe\`, \`ue\` (\`müller\` finds "Mueller"). Combines with every filter and with \`ordering\`; the order stays the list's. A NUL character is a 400.`,
    { type: 'string' },
    {
      examples: {
        words: { summary: 'every word somewhere in the event', value: 'herz kurs' },
        phrase: { summary: 'the words together', value: '"herz kurs"' },
        folded: { summary: 'Müller, Mueller and Muller', value: 'müller' },
      },
    },
  );
}

export const ifNoneMatch: Parameter = {
  name: 'If-None-Match',
  in: 'header',
  required: false,
  description: 'An ETag of an earlier answer: 304 without a body when the answer is still the same.',
  schema: { type: 'string' },
};

const LOOKUPS: Record<ValueType, Partial<Record<Lookup, string>>> = {
  string: {
    exact: 'equals the value',
    iexact: 'equals the value, ignoring case',
    contains: 'contains the value',
    icontains: 'contains the value, ignoring case',
    startswith: 'starts with the value',
    istartswith: 'starts with the value, ignoring case',
    endswith: 'ends with the value',
    iendswith: 'ends with the value, ignoring case',
    regex: 'matches the regular expression (RE2 syntax; an invalid one is a 400)',
    iregex: 'matches the regular expression, ignoring case (RE2 syntax; an invalid one is a 400)',
  },
  datetime: {
    exact: 'is this instant',
    gt: 'is after the instant',
    lt: 'is before the instant',
    gte: 'is at or after the instant',
    lte: 'is at or before the instant',
    contains: 'as rendered in the API (ISO 8601 with offset) contains the text',
    startswith: 'as rendered in the API starts with the text, e.g. `2025-05`',
  },
  number: {
    exact: 'equals the number',
    gt: 'is greater than the number',
    lt: 'is less than the number',
    gte: 'is at least the number',
    lte: 'is at most the number',
  },
  boolean: { exact: 'is `true` or `false` (also `1`/`0`, any case; anything else is a 400)' },
  'id-list': { exact: 'holds one of the ids (repeat the parameter for more: OR; an id that names nothing is a 400)' },
};

const ORDERED = new Set<Lookup>(['exact', 'gt', 'lt', 'gte', 'lte']);

function filterSchema(p: FilterParameter): Schema {
  switch (p.type) {
    case 'string':
      return { type: 'string' };
    case 'datetime':
      // contains/startswith take any text; the others one instant in the grammar of the content files
      return ORDERED.has(p.lookup) ? { type: 'string', pattern: TIMESTAMP_PATTERN, examples: TIMESTAMP_EXAMPLES } : { type: 'string' };
    case 'number':
      // decimals are accepted and truncated, so `number` and not `integer`
      return { type: 'number' };
    case 'boolean':
      return { type: 'boolean' };
    case 'id-list':
      return { type: 'array', items: { type: 'integer' } };
  }
}

/** What a client must know about the value of this lookup, beyond what it matches. */
function note(p: FilterParameter): string {
  if (p.type === 'string' && p.lookup.startsWith('i')) return ' Umlauts fold with case (ä = Ä); ß stays ß.';
  if (p.type === 'datetime' && ORDERED.has(p.lookup)) {
    return ' An instant is ISO 8601: with an offset (encode `+` as `%2B`), `Z`, or none for local time in the site time zone; a date alone means local midnight.';
  }
  if (p.type === 'number') return ' A decimal is truncated to an integer (`1.5` → 1, `1e1` → 10); anything else is a 400.';
  return '';
}

function filterParameter(p: FilterParameter, nullable: boolean): Parameter {
  const what = LOOKUPS[p.type][p.lookup];
  // a lookup added to the catalog must be explained here before the document can be built
  if (what === undefined) throw new Error(`openapi: no description of the ${p.type} lookup ${p.lookup}`);
  const alias = p.alias ? ` The same as \`${p.field}\`.` : '';
  const nulls = nullable ? ` Events whose ${p.field} is null never match.` : '';
  const description = `Events whose \`${p.field}\` ${what}.${alias}${nulls}${note(p)} Surrounding whitespace is trimmed; an empty value applies no filter.`;
  const extra: Schema = p.multiple ? { style: 'form', explode: true } : {};
  return query(p.name, description, filterSchema(p), extra);
}

/** One parameter per filter and lookup, in the declaration order of FILTER_CATALOG. */
export function filterParameters(): Parameter[] {
  const nullable = new Map(FILTER_CATALOG.map((f) => [f.field, f.nullable]));
  return FILTER_PARAMETERS.map((p) => filterParameter(p, nullable.get(p.field) ?? false));
}

export function autocompleteParameters(): Parameter[] {
  return [
    query(
      'q',
      'Search words: every word must match a word of the object (prefix, case- and diacritic-insensitive, typo-tolerant; `mul` and `muel` find "Müller"). Missing or blank: every object.',
      { type: 'string' },
    ),
    query(
      'm',
      'Comma-separated models (any case) to restrict the suggestions to; an unknown model is a 400.',
      { type: 'array', items: { type: 'string', enum: [...DIRECTORY_MODELS] }, uniqueItems: true },
      { style: 'form', explode: false },
    ),
  ];
}
