// The filters of the event list, in declaration order. The order is part of the interface: the
// 400 body lists errors in it (as django-filter does), and OPTIONS / docs / OpenAPI list it.
import { BOOL_FIELDS, TEXT_FIELDS, TIME_FIELDS } from '../../store/format/event-table.ts';

export const STRING_LOOKUPS = ['iexact', 'contains', 'icontains', 'startswith', 'istartswith', 'endswith', 'iendswith', 'regex', 'iregex'] as const;
export const TIME_LOOKUPS = ['exact', 'gt', 'lt', 'gte', 'lte', 'contains', 'startswith'] as const;
export const NUMBER_LOOKUPS = ['exact', 'gt', 'lt', 'gte', 'lte'] as const;

export type StringLookup = (typeof STRING_LOOKUPS)[number];
export type TimeLookup = (typeof TIME_LOOKUPS)[number];
export type NumberLookup = (typeof NUMBER_LOOKUPS)[number];
/** `exact` is the plain `?field=` filter; `?field__exact=` is accepted as the same. */
export type Lookup = 'exact' | StringLookup | TimeLookup | NumberLookup;

/**
 * - string: compared as text (null never matches)
 * - datetime: ISO 8601 (offset, `Z`, naive = site time zone, or date only = local midnight);
 *   `contains`/`startswith` take any text and match the rendered ISO string
 * - number: a decimal number, truncated to an integer (`1.5` → 1, `1e1` → 10)
 * - boolean: true/false/1/0, any case
 * - id-list: integer ids, repeatable, OR-combined
 */
export type ValueType = 'string' | 'datetime' | 'number' | 'boolean' | 'id-list';

export type FilterField =
  | (typeof TEXT_FIELDS)[number]
  | (typeof TIME_FIELDS)[number]
  | (typeof BOOL_FIELDS)[number]
  | 'dfp_points'
  | 'id'
  | 'categories'
  | 'groups';

export interface FieldFilters {
  field: FilterField;
  type: ValueType;
  /** whether the field can be null (null never matches any filter) */
  nullable: boolean;
  /** allowed lookups, `exact` first (it is the plain `?field=` parameter) */
  lookups: readonly Lookup[];
  /** values may be repeated and are OR-combined */
  multiple: boolean;
}

const NULLABLE = new Set<FilterField>(['organizer', 'location', 'contact', 'email', 'registration_end', 'dfp_points']);

function field(f: FilterField, type: ValueType, lookups: readonly Lookup[]): FieldFilters {
  return { field: f, type, nullable: NULLABLE.has(f), lookups, multiple: type === 'id-list' };
}

export const FILTER_CATALOG: readonly FieldFilters[] = [
  ...TEXT_FIELDS.map((f) => field(f, 'string', ['exact', ...STRING_LOOKUPS])),
  ...TIME_FIELDS.map((f) => field(f, 'datetime', TIME_LOOKUPS)),
  field('dfp_points', 'number', NUMBER_LOOKUPS),
  field('id', 'number', ['exact']),
  ...BOOL_FIELDS.map((f) => field(f, 'boolean', ['exact'])),
  field('categories', 'id-list', ['exact']),
  field('groups', 'id-list', ['exact']),
];

export interface FilterParameter {
  /** the query parameter name */
  name: string;
  field: FilterField;
  lookup: Lookup;
  type: ValueType;
  multiple: boolean;
  /** `field__exact`, the alias of the plain `field` parameter */
  alias: boolean;
}

/** Every accepted parameter, in declaration order: per field the plain name, `__exact`, then the lookups. */
export const FILTER_PARAMETERS: readonly FilterParameter[] = FILTER_CATALOG.flatMap((f) =>
  f.lookups.flatMap((lookup): FilterParameter[] => {
    const base = { field: f.field, lookup, type: f.type, multiple: f.multiple };
    if (lookup !== 'exact') return [{ ...base, name: `${f.field}__${lookup}`, alias: false }];
    return [
      { ...base, name: f.field, alias: false },
      { ...base, name: `${f.field}__exact`, alias: true },
    ];
  }),
);

export const FILTER_PARAMETER_NAMES: ReadonlySet<string> = new Set(FILTER_PARAMETERS.map((p) => p.name));
