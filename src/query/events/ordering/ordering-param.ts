// `ordering` on the event list, as DRF's OrderingFilter reads it: a comma-separated list of
// fields, each ascending, or descending with a leading `-`; the last `ordering` given counts;
// terms naming no orderable field (and empty ones) are dropped, and named in
// X-Ignored-Parameters as `ordering=<term>`. Ties are broken by the default order (start
// descending, end descending, id ascending), so that pages are stable.
import type { QueryParams } from '../../query-dict.ts';

/** The fields `ordering` accepts, in the order the docs and OPTIONS list them. */
export const ORDER_FIELDS = ['start', 'end', 'title', 'last_modified', 'registration_end', 'dfp_points', 'id'] as const;
export type OrderField = (typeof ORDER_FIELDS)[number];

export interface OrderKey {
  field: OrderField;
  descending: boolean;
}

export const ORDERING_PARAM = 'ordering';

/** The list's own order: what every ordering ends with, as its tie-break. */
export const DEFAULT_ORDER: readonly OrderKey[] = [
  { field: 'start', descending: true },
  { field: 'end', descending: true },
  { field: 'id', descending: false },
];

export interface Ordering {
  /** the keys that decide the order beyond the default one; empty: the default order */
  keys: OrderKey[];
  /** `ordering=<term>` for every term dropped */
  ignored: string[];
}

const KNOWN: ReadonlySet<string> = new Set(ORDER_FIELDS);
const same = (a: OrderKey, b: OrderKey) => a.field === b.field && a.descending === b.descending;

export function parseOrdering(params: QueryParams): Ordering {
  const value = params.get(ORDERING_PARAM);
  // (an empty value, as a missing one, asks for the default order)
  if (!value) return { keys: [], ignored: [] };
  const keys: OrderKey[] = [];
  const ignored: string[] = [];
  for (const raw of value.split(',')) {
    const term = raw.trim();
    const descending = term.startsWith('-');
    const field = descending ? term.slice(1) : term;
    if (KNOWN.has(field)) keys.push({ field: field as OrderField, descending });
    else ignored.push(`${ORDERING_PARAM}=${term}`);
  }
  return { keys: effectiveKeys(keys), ignored };
}

/**
 * The keys that change the order: a field after `id` (unique) or named again decides nothing, and
 * keys at the end that begin the default order are what the tie-break does anyway. `-start` is the
 * default order itself: no keys.
 */
export function effectiveKeys(keys: readonly OrderKey[]): OrderKey[] {
  const out: OrderKey[] = [];
  const seen = new Set<OrderField>();
  for (const k of keys) {
    if (seen.has(k.field)) continue;
    seen.add(k.field);
    out.push(k);
    if (k.field === 'id') break;
  }
  // the longest tail that is a beginning of the default order
  for (let tail = Math.min(out.length, DEFAULT_ORDER.length); tail > 0; tail--) {
    const from = out.length - tail;
    let match = true;
    for (let i = 0; i < tail && match; i++) match = same(out[from + i], DEFAULT_ORDER[i]);
    if (match) return out.slice(0, from);
  }
  return out;
}
