// GET /v1/cms/event/ and /v1/cms/event/<id>/.
import type { Dataset } from '../../query/dataset.ts';
import { BodyChunks, joinedOnPool, releaseAll } from '../body.ts';
import { ENVELOPE_CLOSE, envelopeOpen, pageLinks, pageRange, pageWindow, parsePythonInt, RESULT_SEPARATOR, UNITS_PER_STORED_BYTE } from '../paginate.ts';
import type { QueryParams } from '../../query/query-dict.ts';
import { nextInFile, type EventRows } from '../../store/format/event-rows.ts';
import { ignoredHeader, invalid, json, notFound, type ApiResponse } from '../respond.ts';
import { matchEvents, matchesRow, type FilterContext } from '../../query/events/filter.ts';
import { orderSourceOf } from '../../query/events/ordering/field-orders.ts';
import { orderedPage } from '../../query/events/ordering/ordered-page.ts';
import { ORDERING_PARAM, parseOrdering } from '../../query/events/ordering/ordering-param.ts';
import { SEARCH_PARAM } from '../../query/events/search/search.ts';
import { charge } from '../../query/work-budget.ts';
import { isPlain, isSpliced, parseShape, rowSplicer, shapeRenderer, SHAPE_PARAMS, type RowSplicer } from './shape.ts';
import { takeBuffer } from '../../store/read/page-buffers.ts';

const COMMA = 0x2c;

/**
 * Work units (query/work-budget.ts) per byte of the events a page lists: as stored, they are
 * copied into the answer (UNITS_PER_STORED_BYTE); shaped by `fields`, `omit` or `expand`, each is
 * cut up and spliced, several times the work a byte (bench/results.md has the figures).
 */
const UNITS_PER_SHAPED_BYTE = 4;
/**
 * … and with every field kept and `categories` expanded (rowSplicer), copied around the value's
 * expansion, made once per distinct value: close to a plain copy, far from a splice.
 */
const UNITS_PER_SPLICED_BYTE = 1;
/**
 * … and per read of the file beyond the first: the rows of an ordered or filtered page lie apart
 * in the file, a system call each, which costs about what copying the row's bytes does: counted
 * by the bytes alone, such a page would be charged a fraction of its CPU.
 */
const UNITS_PER_READ = 2_000;

export const EVENT_LIST_PATH = '/v1/cms/event/';

export const LIST_RESERVED: ReadonlySet<string> = new Set<string>(['limit', 'offset', 'format', ORDERING_PARAM, SEARCH_PARAM, ...SHAPE_PARAMS]);
/** A retrieve reads its filters, `search` and shaping; paging and ordering do nothing there (named as ignored). */
const DETAIL_RESERVED: ReadonlySet<string> = new Set<string>(['format', SEARCH_PARAM, ...SHAPE_PARAMS]);

const filterContext = (ds: Dataset): FilterContext => ({ timezone: ds.site.timezone, categoryIds: ds.categories.ids, search: { index: ds.search, rows: ds.events.rows } });

/** The events a list or calendar query asks for: the matches (null: every event), in its order. */
export function listQuery(ds: Dataset, params: QueryParams) {
  const { table } = ds.events;
  const ordering = parseOrdering(params);
  const filtered = matchEvents(table, filterContext(ds), params, LIST_RESERVED);
  const ignored = [...filtered.ignored, ...ordering.ignored];
  if (!filtered.ok) return { ok: false as const, errors: filtered.errors, ignored };
  const { matches } = filtered;
  const count = matches ? matches.count : table.length;
  /** the events at places [from, to) of the answer: of the matches only this slice is ever listed (see query/events/matches.ts) */
  const slice = (from: number, to: number): Uint32Array | null => {
    if (ordering.keys.length > 0) return orderedPage(orderSourceOf(table), ordering.keys, matches, from, to);
    return matches ? matches.slice(from, to) : null;
  };
  return { ok: true as const, count, slice, ignored };
}

export function eventList(ds: Dataset, params: QueryParams): ApiResponse {
  const { rows } = ds.events;
  const shape = parseShape(params);
  const query = listQuery(ds, params);
  const ignored = ignoredHeader([...query.ignored, ...shape.ignored]);
  if (!query.ok) return invalid(query.errors, ignored);
  const { count } = query;
  const window = pageWindow(params, ds.site);
  const [first, last] = pageRange(window, count);
  const page = query.slice(first, last);
  const [from, to] = page ? [0, page.length] : [first, last];
  const links = pageLinks(window, count, ds.baseUrl, EVENT_LIST_PATH, params);
  // the page's bytes are known before any is read: a page too large to make is refused first
  let bytes = 0;
  rows.willRead(page, from, to);
  for (let i = from; i < to; i++) bytes += rows.byteLength(page ? page[i] : i);
  const perByte = isPlain(shape) ? UNITS_PER_STORED_BYTE : isSpliced(shape) ? UNITS_PER_SPLICED_BYTE : UNITS_PER_SHAPED_BYTE;
  charge(bytes * perByte + (rows.inMemory ? 0 : (readsOf(page, from, to) - 1) * UNITS_PER_READ), `the page of ${to - from} events`);
  // Events as stored, from the file: read straight into the answer, in the file's order (see EventRows.joinRows).
  if (isPlain(shape) && !rows.inMemory) {
    return json(200, rows.joinRows(page, from, to, envelopeOpen(count, links), COMMA, ENVELOPE_CLOSE), ignored);
  }
  const ordered = page !== null && !rows.inMemory && !ascending(page);
  const splice = rows.inMemory || !isSpliced(shape) ? null : rowSplicer(shape, rows, ds.categories.json);
  if (splice) return json(200, splicedPage(rows, page, from, to, ordered, envelopeOpen(count, links), splice), ignored);
  const render = shapeRenderer(shape, rows, ds.categories.json);
  // Otherwise the page is spliced from chunks (the stored rows' bytes among them). Read from the
  // file, those rows are this answer's own pooled buffers: the chunks are joined into one (see
  // joinedOnPool). In memory (the build, aula dev) they stay chunks, views of the rows: the server
  // writes them as they are and joins them only to compress.
  const chunks: Uint8Array[] = [envelopeOpen(count, links)];
  const add = (row: number, whole: Buffer) => {
    if (chunks.length > 1) chunks.push(RESULT_SEPARATOR);
    render(row, whole, chunks);
  };
  // An ordered page lists rows out of their order in the file: read in file order (a run of them
  // in one read, as a default page is), then put in the page's order.
  if (ordered) inPageOrder(rows, page, add);
  else rows.eachRow(page, from, to, add);
  chunks.push(ENVELOPE_CLOSE);
  return json(200, rows.inMemory ? new BodyChunks(chunks) : joinedOnPool(chunks), ignored);
}

/**
 * The page's rows, read from the file, spliced straight into one pooled buffer after `head`; the
 * rows' own pooled buffers handed back once copied (nothing else holds them: read for this answer).
 */
function splicedPage(rows: EventRows, page: Uint32Array | null, from: number, to: number, ordered: boolean, head: Buffer, splice: RowSplicer): Buffer {
  const inPlace = ordered ? null : splicedInPlace(rows, page, from, to, head, splice);
  if (inPlace) return inPlace;
  const listed: number[] = [];
  const read: Buffer[] = [];
  let total = head.length + ENVELOPE_CLOSE.length + Math.max(0, to - from - 1);
  const add = (row: number, whole: Buffer) => {
    listed.push(row);
    read.push(whole);
    total += splice.size(row, whole);
  };
  if (ordered) inPageOrder(rows, page!, add);
  else rows.eachRow(page, from, to, add);
  const out = takeBuffer(total);
  let at = head.copy(out, 0);
  for (let i = 0; i < listed.length; i++) {
    if (i > 0) out[at++] = COMMA;
    at = splice.write(listed[i], read[i], out, at);
  }
  ENVELOPE_CLOSE.copy(out, at);
  releaseAll(read);
  return out;
}

/**
 * splicedPage for rows in the file's order whose expansions are known already (knownSize): the
 * answer's size is known before any row is read, so the rows are read straight into the answer's
 * buffer, at its end, and each moved forward to its place with its value expanded: no buffer of
 * their own, no second copy. Null (nothing read) where a row's expansion is not known.
 *
 * The rows' bytes stay ahead of where they go: a row's place is its bytes' place less what the
 * rows after it grow by (each expansion at least as long as its value), the envelope's close and
 * the separators between runs, so a row's expansion never reaches the bytes it is moved from.
 */
function splicedInPlace(rows: EventRows, page: Uint32Array | null, from: number, to: number, head: Buffer, splice: RowSplicer): Buffer | null {
  let total = head.length + ENVELOPE_CLOSE.length + Math.max(0, to - from - 1);
  const spans: [number, number][] = [];
  let expanded = 0;
  for (let i = from; i < to; i++) {
    const row = page ? page[i] : i;
    const span = splice.span(row);
    const size = splice.knownSize(row, span);
    if (size < 0) return null;
    spans.push(span);
    total += size;
    expanded += size - rows.byteLength(row) + span[1] - span[0];
  }
  // the expansions' bytes, as RowSplicer.size charges them, before the answer's buffer is made
  charge(expanded, 'the expanded categories');
  const out = takeBuffer(total);
  let source = total - rows.runsLength(page, from, to);
  rows.readRuns(page, from, to, out, source);
  let at = head.copy(out, 0);
  for (let i = from; i < to; i++) {
    const row = page ? page[i] : i;
    if (i > from) {
      out[at++] = COMMA;
      // the newline between two rows of one run
      if (nextInFile(page, i)) source++;
    }
    at = splice.moveWithin(row, spans[i - from], out, source, at);
    source += rows.byteLength(row);
  }
  ENVELOPE_CLOSE.copy(out, at);
  return out;
}

/**
 * About how many reads the page's rows take from the file: one per run of rows next to each other
 * (in either direction: an order by `start` lists them backwards), at least one.
 */
function readsOf(page: Uint32Array | null, from: number, to: number): number {
  if (page === null) return 1;
  let reads = 1;
  for (let i = from + 1; i < to; i++) {
    const step = page[i] - page[i - 1];
    reads += step === 1 || step === -1 ? 0 : 1;
  }
  return reads;
}

function ascending(rows: Uint32Array): boolean {
  for (let i = 1; i < rows.length; i++) if (rows[i] < rows[i - 1]) return false;
  return true;
}

/** Visits the rows of `page` in its order, having read them in the file's. */
function inPageOrder(rows: EventRows, page: Uint32Array, visit: (row: number, whole: Buffer) => void): void {
  const sorted = page.slice().sort();
  const read = new Map<number, Buffer>();
  rows.eachRow(sorted, 0, sorted.length, (row, whole) => read.set(row, whole));
  for (const row of page) visit(row, read.get(row)!);
}

/**
 * The one event: a read-only viewset's retrieve, with the list's field shaping. As DRF's
 * get_object, it looks the event up among those the filters (and `search`) leave: a filter
 * that is not valid is the list's 400, an event the filters leave out is not found. The filters
 * are tested on that one event, not run over the list.
 */
export function eventDetail(ds: Dataset, id: string, params: QueryParams): ApiResponse {
  const shape = parseShape(params);
  const value = parsePythonInt(id);
  const row = value === null ? undefined : ds.events.table.rowById.get(Number(value));
  const filtered = matchesRow(ds.events.table, filterContext(ds), params, DETAIL_RESERVED, row);
  const ignored = ignoredHeader([...filtered.ignored, ...shape.ignored]);
  if (!filtered.ok) return invalid(filtered.errors, ignored);
  if (row === undefined || !filtered.match) return notFound();
  const chunks: Uint8Array[] = [];
  shapeRenderer(shape, ds.events.rows, ds.categories.json)(row, ds.events.rows.bytes(row), chunks);
  return json(200, chunks.length === 1 ? (chunks[0] as Buffer) : new BodyChunks(chunks), ignored);
}
