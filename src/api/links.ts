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

/** A request's parameters encoded once: keys in code-point order, each key's `k=v&k=v2` part. */
interface EncodedParams {
  keys: readonly string[];
  parts: ReadonlyMap<string, string>;
}

/** per request: a page's next and previous links encode the same parameters twice */
const encodedOf = new WeakMap<QueryParams, EncodedParams>();

function encodedParams(params: QueryParams): EncodedParams {
  let e = encodedOf.get(params);
  if (!e) {
    const keys = params.keys().sort(compareCodePoints);
    const parts = new Map<string, string>();
    for (const key of keys) {
      const k = quotePlus(key);
      parts.set(key, params.getAll(key).map((v) => `${k}=${quotePlus(v)}`).join('&'));
    }
    e = { keys, parts };
    encodedOf.set(params, e);
  }
  return e;
}

/** urlencode(sorted(parse_qs(query).items()), doseq=True) with `changes` applied (null removes). */
export function encodeQuery(params: QueryParams, changes: Readonly<Record<string, string | null>>): string {
  const { keys, parts } = encodedParams(params);
  const entries: [string, string][] = [];
  for (const key of keys) {
    if (!Object.hasOwn(changes, key)) entries.push([key, parts.get(key)!]);
  }
  let added = false;
  for (const key in changes) {
    const value = changes[key];
    if (value === null) continue;
    entries.push([key, `${quotePlus(key)}=${quotePlus(value)}`]);
    added = true;
  }
  // the request's own keys are in order already; a changed one goes to its place
  if (added) entries.sort((a, b) => compareCodePoints(a[0], b[0]));
  let query = '';
  for (let i = 0; i < entries.length; i++) query += i === 0 ? entries[i][1] : `&${entries[i][1]}`;
  return query;
}

export function linkTo(baseUrl: string, path: string, params: QueryParams, changes: Readonly<Record<string, string | null>>): string {
  const query = encodeQuery(params, changes);
  return `${baseUrl}${path}${query ? `?${query}` : ''}`;
}
