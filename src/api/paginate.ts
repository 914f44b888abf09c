// DRF's LimitOffsetPagination: how limit/offset are read, which rows a page holds, and its links.
import { pageQuery } from './links.ts';
import { parsePythonInt } from '../query/python-numbers.ts';
import type { QueryParams } from '../query/query-dict.ts';
import { takeBuffer } from '../store/read/page-buffers.ts';

export interface PageSettings {
  page_size: number;
  max_page_size: number;
}

export interface PageWindow {
  limit: number;
  /** bigint: an offset is whatever integer the client sent, and links must repeat it exactly */
  offset: bigint;
}

// DRF reads limit and offset with int()
export { parsePythonInt };

export function pageWindow(params: QueryParams, settings: PageSettings): PageWindow {
  const rawLimit = params.get('limit');
  const limitValue = rawLimit === undefined ? null : parsePythonInt(rawLimit);
  const limit =
    limitValue === null || limitValue <= 0n
      ? settings.page_size
      : Number(limitValue > BigInt(settings.max_page_size) ? BigInt(settings.max_page_size) : limitValue);
  const rawOffset = params.get('offset');
  const offsetValue = rawOffset === undefined ? null : parsePythonInt(rawOffset);
  const offset = offsetValue === null || offsetValue < 0n ? 0n : offsetValue;
  return { limit, offset };
}

/** The [start, end) row range of the page within `count` rows. */
export function pageRange(window: PageWindow, count: number): [number, number] {
  if (count === 0 || window.offset > BigInt(count)) return [0, 0];
  const start = Number(window.offset);
  return [start, Math.min(count, start + window.limit)];
}

export interface PageLinks {
  next: string | null;
  previous: string | null;
  /** both links are JSON strings between quotes as they are (pageLinks': the base URL and path need no escaping) */
  plain?: boolean;
}

export function pageLinks(window: PageWindow, count: number, baseUrl: string, path: string, params: QueryParams): PageLinks {
  const { limit, offset } = window;
  const big = BigInt(limit);
  // (DRF's replace_query_param and remove_query_param: the query re-encoded, sorted by name)
  const next = offset + big >= BigInt(count) ? null : `${baseUrl}${path}?${pageQuery(params, String(limit), String(offset + big))}`;
  const previous = offset > 0n ? `${baseUrl}${path}?${pageQuery(params, String(limit), offset - big <= 0n ? null : String(offset - big))}` : null;
  return { next, previous, plain: plainInJson(baseUrl, path) };
}

/** The envelope up to the results' opening bracket; results, separated, and ENVELOPE_CLOSE follow. */
export function envelopeOpen(count: number, links: PageLinks): Buffer {
  const { next, previous } = links;
  if (links.plain) return Buffer.from(`{"count":${count},"next":${next === null ? 'null' : `"${next}"`},"previous":${previous === null ? 'null' : `"${previous}"`},"results":[`);
  return Buffer.from(`{"count":${count},"next":${JSON.stringify(next)},"previous":${JSON.stringify(previous)},"results":[`);
}

/** Characters JSON.stringify would escape (and any beyond ASCII, left to it) */
const ESCAPED_IN_JSON = /["\\\x00-\x1f\x7f-\uffff]/;
let lastPrefix = '';
let lastPlain = true;

/**
 * Whether links on `baseUrl` + `path` need no escaping in JSON: their queries never do (quote_plus
 * leaves only letters, digits and `_.-~%+=&`). One answer remembered: a server has one base URL.
 */
function plainInJson(baseUrl: string, path: string): boolean {
  const prefix = baseUrl + path;
  if (prefix !== lastPrefix) {
    lastPrefix = prefix;
    lastPlain = !ESCAPED_IN_JSON.test(prefix);
  }
  return lastPlain;
}

export const RESULT_SEPARATOR = Buffer.from(',');
const COMMA = RESULT_SEPARATOR[0];
export const ENVELOPE_CLOSE = Buffer.from(']}');

/**
 * The envelope around results serialized already: one buffer the size of the answer, each result
 * copied in once. On the page pool (store/read/page-buffers.ts): the server gives it back once
 * written, and its answer cache takes it over as it is, counted as the block it holds (a slice of
 * Buffer.allocUnsafe's shared 8 KiB slab, kept by the cache, would hold the whole slab uncounted).
 */
export function joinResults(open: Buffer, results: readonly Uint8Array[]): Buffer {
  let total = open.length + ENVELOPE_CLOSE.length + Math.max(0, results.length - 1);
  for (let i = 0; i < results.length; i++) total += results[i].byteLength;
  const out = takeBuffer(total);
  let at = open.copy(out, 0);
  for (let i = 0; i < results.length; i++) {
    if (i > 0) out[at++] = COMMA;
    out.set(results[i], at);
    at += results[i].byteLength;
  }
  ENVELOPE_CLOSE.copy(out, at);
  return out;
}

/** Work units (query/work-budget.ts) per byte of results serialized already, copied into an answer as they are. */
export const UNITS_PER_STORED_BYTE = 0.6;

/** The envelope, joined from pre-serialized results. */
export function envelope(count: number, links: PageLinks, results: readonly string[]): string {
  return `{"count":${count},"next":${JSON.stringify(links.next)},"previous":${JSON.stringify(links.previous)},"results":[${results.join(',')}]}`;
}
