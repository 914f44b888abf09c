// Absolute links as DRF builds them (rest_framework.utils.urls): the request's query is re-parsed,
// one parameter replaced or removed, and everything re-encoded with Python's urlencode, sorted by name.
import { QueryParams } from '../query/query-dict.ts';

/** Python's quote_plus: only ASCII letters, digits and `_.-~` stay; space becomes `+`. */
export function quotePlus(text: string): string {
  // most names and values (limit, offset, numbers, plain words, dates) are ASCII: encoded here
  // in one pass, a character at a time; anything else as encodeURIComponent does, adjusted
  let out = '';
  let from = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80 && STAYS[c] === 1) continue;
    if (c >= 0x80) return quoteOther(text);
    out += text.slice(from, i) + (c === 0x20 ? '+' : ESCAPED[c]);
    from = i + 1;
  }
  return from === 0 ? text : out + text.slice(from);
}

/** ASCII characters quote_plus keeps as they are */
const STAYS = new Uint8Array(0x80);
for (const c of 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.~-') STAYS[c.charCodeAt(0)] = 1;
/** `%XX` of each ASCII character */
const ESCAPED = Array.from({ length: 0x80 }, (_, c) => `%${c.toString(16).toUpperCase().padStart(2, '0')}`);

function quoteOther(text: string): string {
  return encodeURIComponent(text.toWellFormed())
    .replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
    .replace(/%20/g, '+');
}

/** Python sorts strings by code point; JavaScript's default sort compares UTF-16 units. */
const SURROGATE = /[\ud800-\udfff]/;

export function compareCodePoints(a: string, b: string): number {
  // where the first differing units, and the unit before them, are no surrogates, UTF-16 units
  // order as code points do
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  const x = i < a.length ? a.charCodeAt(i) : 0;
  const y = i < b.length ? b.charCodeAt(i) : 0;
  if (!isSurrogate(x) && !isSurrogate(y) && (i === 0 || !isSurrogate(a.charCodeAt(i - 1)))) {
    return i === n ? a.length - b.length : x - y;
  }
  return byCodePoints(a, b);
}

/** names up to which sortByCodePoints sorts by insertion; past it the steps grow as n² */
const FEW_NAMES = 16;

/**
 * Sorts names in place by code point. A request's few (most have two to four) by insertion:
 * Array#sort's set-up for a list of two or three costs more than the sorting, and its garbage is
 * collected per request.
 */
function sortByCodePoints(names: string[]): string[] {
  if (names.length > FEW_NAMES) return names.sort(compareCodePoints);
  for (let i = 1; i < names.length; i++) {
    const name = names[i];
    let j = i;
    for (; j > 0 && compareCodePoints(names[j - 1], name) > 0; j--) names[j] = names[j - 1];
    names[j] = name;
  }
  return names;
}

const isSurrogate = (unit: number) => unit >= 0xd800 && unit <= 0xdfff;

function byCodePoints(a: string, b: string): number {
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
  parts: readonly string[];
  /** the parts but `limit` and `offset`, joined: those before `limit`, between the two, after `offset` (pageQuery's) */
  around?: readonly [string, string, string];
}

/**
 * The last parameters encoded: a page's next and previous links, made one after the other,
 * encode the same parameters twice. One entry, not a WeakMap: an entry per request in a WeakMap
 * costs the garbage collector more than the encoding it spares.
 */
let lastParams: QueryParams | null = null;
let lastEncoded: EncodedParams | null = null;

function encodedParams(params: QueryParams): EncodedParams {
  let e = params === lastParams ? lastEncoded : null;
  if (!e) {
    const keys = sortByCodePoints(params.keys());
    const parts = keys.map((key) => {
      const k = quotePlus(key);
      let part = '';
      for (const v of params.getAll(key)) part += part === '' ? `${k}=${quotePlus(v)}` : `&${k}=${quotePlus(v)}`;
      return part;
    });
    e = { keys, parts };
    lastParams = params;
    lastEncoded = e;
  }
  return e;
}

/** urlencode(sorted(parse_qs(query).items()), doseq=True) with `changes` applied (null removes). */
export function encodeQuery(params: QueryParams, changes: Readonly<Record<string, string | null>>): string {
  const { keys, parts } = encodedParams(params);
  // the changed keys that stay, in order; merged below with the request's own, in order already
  const added: string[] = [];
  for (const key in changes) if (changes[key] !== null) added.push(key);
  if (added.length > 1) sortByCodePoints(added);
  let query = '';
  const append = (part: string) => (query = query === '' ? part : `${query}&${part}`);
  let a = 0;
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i];
    for (; a < added.length && compareCodePoints(added[a], key) < 0; a++) append(`${quotePlus(added[a])}=${quotePlus(changes[added[a]]!)}`);
    if (!Object.hasOwn(changes, key)) append(parts[i]);
  }
  for (; a < added.length; a++) append(`${quotePlus(added[a])}=${quotePlus(changes[added[a]]!)}`);
  return query;
}

/**
 * encodeQuery(params, { limit, offset }) for a page's link: the parts of the other parameters are
 * joined once per request around where `limit` and `offset` go (both links of a page are made
 * from them), and the two values are digits, which quote_plus keeps as they are.
 */
export function pageQuery(params: QueryParams, limit: string, offset: string | null): string {
  const e = encodedParams(params);
  const [before, between, after] = (e.around ??= around(e));
  let query = before === '' ? `limit=${limit}` : `${before}&limit=${limit}`;
  if (between !== '') query += `&${between}`;
  if (offset !== null) query += `&offset=${offset}`;
  return after === '' ? query : `${query}&${after}`;
}

function around({ keys, parts }: EncodedParams): [string, string, string] {
  const joined: [string, string, string] = ['', '', ''];
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i];
    if (key === 'limit' || key === 'offset') continue;
    const at = compareCodePoints(key, 'limit') < 0 ? 0 : compareCodePoints(key, 'offset') < 0 ? 1 : 2;
    joined[at] = joined[at] === '' ? parts[i] : `${joined[at]}&${parts[i]}`;
  }
  return joined;
}

export function linkTo(baseUrl: string, path: string, params: QueryParams, changes: Readonly<Record<string, string | null>>): string {
  const query = encodeQuery(params, changes);
  return query === '' ? `${baseUrl}${path}` : `${baseUrl}${path}?${query}`;
}
