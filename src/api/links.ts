// Absolute links as DRF builds them (rest_framework.utils.urls): the request's query is re-parsed,
// one parameter replaced or removed, and everything re-encoded with Python's urlencode, sorted by name.
import { QueryParams } from '../query/query-dict.ts';

/** Python's quote_plus: only ASCII letters, digits and `_.-~` stay; space becomes `+`. */
const UNRESERVED = /^[A-Za-z0-9_.~-]*$/;

export function quotePlus(text: string): string {
  // most names and values (limit, offset, numbers, plain words) need no encoding at all
  if (UNRESERVED.test(text)) return text;
  return encodeURIComponent(text.toWellFormed())
    .replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
    .replace(/%20/g, '+');
}

/** Python sorts strings by code point; JavaScript's default sort compares UTF-16 units. */
const SURROGATE = /[\ud800-\udfff]/;

export function compareCodePoints(a: string, b: string): number {
  // without surrogates, UTF-16 units order as code points do
  if (!SURROGATE.test(a) && !SURROGATE.test(b)) return a < b ? -1 : a > b ? 1 : 0;
  const ia = a[Symbol.iterator]();
  const ib = b[Symbol.iterator]();
  for (;;) {
    const x = ia.next();
    const y = ib.next();
    if (x.done || y.done) return x.done ? (y.done ? 0 : -1) : 1;
    const d = x.value.codePointAt(0)! - y.value.codePointAt(0)!;
    if (d !== 0) return d;
  }
}

/** urlencode(sorted(parse_qs(query).items()), doseq=True) with `changes` applied (null removes). */
export function encodeQuery(params: QueryParams, changes: Readonly<Record<string, string | null>>): string {
  const grouped = new Map<string, string[]>();
  for (const key of params.keys()) grouped.set(key, [...params.getAll(key)]);
  for (const [key, value] of Object.entries(changes)) {
    if (value === null) grouped.delete(key);
    else grouped.set(key, [value]);
  }
  const parts: string[] = [];
  for (const key of [...grouped.keys()].sort(compareCodePoints)) {
    const k = quotePlus(key);
    for (const v of grouped.get(key)!) parts.push(`${k}=${quotePlus(v)}`);
  }
  return parts.join('&');
}

export function linkTo(baseUrl: string, path: string, params: QueryParams, changes: Readonly<Record<string, string | null>>): string {
  const query = encodeQuery(params, changes);
  return `${baseUrl}${path}${query ? `?${query}` : ''}`;
}
