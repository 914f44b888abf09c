// The event data files — the event parts and each part's offsets and calendar entries, the column
// files and data/search.bin — made from the list's rows in one place, whichever build asks: the full
// build, the build over the event state and `aula dev` hand it the rows they made and, when they have it, the previous
// build's data with each row's place in it. A row that is a previous row has its bytes, values,
// entry and terms taken from the previous data; the rows made anew are read; a file whose bytes
// come out as the previous one's is that file, and named so. With no previous data every row is
// made anew: the same code, with nothing to take.
import type { CalendarPart } from '../format/calendar-file.ts';
import { cutParts, partBounds } from '../format/event-parts.ts';
import { EventRows, FIELD_COUNT } from '../format/event-rows.ts';
import { TIME_FIELDS, type ColumnValues, type EventTable, type TextField, type TimeField } from '../format/event-table.ts';
import { COLUMN_FILES } from '../format/column-files.ts';
import { calendarPartFile, DATA_FILES, eventOffsetsFile, partFirsts, partOfRow, type EventPart } from '../format/dist-paths.ts';
import { calendarPart, type CalendarSource } from './calendar-file.ts';
import { columnFileMakers, columnFilesReusing, sameValue, splicedColumnValues } from './column-files.ts';
import { newPlaces } from './column-splice.ts';
import { rowString } from './column-values.ts';
import { EVENT_FIELDS, type EventField } from '../../model/event-fields.ts';
import { rowTerms, searchIndex, type FieldValues } from './search-index.ts';
import { searchIndexInPlace, searchIndexShifted, type RowChange, type RowJoin } from './search-splice.ts';

const STRIDE = FIELD_COUNT + 1;
const NEWLINE = new Uint8Array([0x0a]);

/** Makes the calendar entries (the calendar's parts) of rows from their columns and rows, with the feed's formatter (an upper layer's). */
export type CalendarMaker = (values: ColumnValues, rows: EventRows, timezone: string) => (row: number) => string | Uint8Array;

/**
 * A piece of a new event part: bytes [begin, end) of the previous parts' concatenation (where
 * the previous offsets place them), or bytes given (the new rows', as views of their buffer).
 */
export type Segment = { begin: number; end: number } | { bytes: Uint8Array };

/**
 * Bytes [begin, end) of the previous event parts end to end. A reader given `into` may put them there,
 * at `at`, and return that view (a new part is then made with one copy of them, not two); else
 * they are copied from what it returns.
 */
export type PartsBytes = (begin: number, end: number, into?: Uint8Array, at?: number) => Uint8Array;

/** What the previous build made of its rows, each file as its bytes. */
export interface PreviousData {
  /** its offsets: rows × (FIELD_COUNT + 1) */
  starts: Uint32Array;
  /** its event parts, as its manifest lists them */
  parts: readonly EventPart[];
  /** where each of its event parts starts in their concatenation, then their length */
  bounds: readonly number[];
  /** its column values (read only when a row stays), and its column files by path */
  values: () => ColumnValues;
  /** its columns as loaded from their files, each read when first used (where the caller has them) */
  table?: () => EventTable;
  file: (rel: string) => Uint8Array;
  /** its calendar's part p (of `parts`) as read (when first asked for) */
  calendar: (part: number) => CalendarPart;
  /** bytes [begin, end) of its event parts end to end (read into `into` at `at` where given: partBytes) */
  bytes: PartsBytes;
}

export interface EventDataInput {
  /** the rows made anew, in list order */
  rows: EventRows;
  /** the new rows' column values (columnValuesFromRows of their events and `rows`) */
  values: ColumnValues;
  /** row i of the list is the previous row order[i], or, where that is negative, the new row -order[i] - 1; null: the new rows are the list */
  order: Int32Array | null;
  previous: PreviousData | null;
  timezone: string;
  /** the list's ids, in list order: where the parts are cut (event-parts.ts cutParts) */
  ids: ArrayLike<number>;
  /** the parts' mean rows (dist-paths.ts EVENT_PART_ROWS; tests make it small) */
  partRows: number;
  calendar: CalendarMaker;
  /** false: data/search.bin is left for the caller to make when it is read (searchIndexOf over every row) */
  search?: boolean;
  /**
   * true: the files of `reused` are left out of `files`, for the caller to link from the previous
   * build: a file that stays is then not even read (previous.file is not called for it)
   */
  linkReused?: boolean;
  /** given the parts as soon as they are cut, before the other files are made (to be written meanwhile) */
  onParts?: (made: Pick<EventData, 'parts' | 'bounds' | 'cut'>) => void;
  /**
   * given the calendar's parts, the search index and each column file as soon as it is made, instead of
   * `files`: written and let go, they are not held while the next is made
   */
  onFile?: (rel: string, bytes: Uint8Array) => void;
}

export interface EventData {
  /** the offsets, rows × (FIELD_COUNT + 1) */
  starts: Uint32Array;
  /** the parts as the manifest lists them */
  cut: EventPart[];
  /** each part's pieces, or null where the part is the previous part as it is (same name, same bytes) */
  parts: (Segment[] | null)[];
  /** where each part starts in the rows' bytes, then their length */
  bounds: number[];
  /** the other data files, by path; `reused` names those whose bytes are the previous build's (not in `files` with `linkReused`) */
  files: Map<string, Uint8Array>;
  reused: Set<string>;
  /** the list's column values (what the next build's `previous.values` gives) */
  values: () => ColumnValues;
}

/** The event data files of the list described by `input`. */
export function eventData(input: EventDataInput): EventData {
  const { rows, order, previous } = input;
  const count = order ? order.length : rows.length;
  const kept = previous && order ? order : null;
  const fresh = input.values;
  const lineStart = previous ? lineStarts(previous) : new Float64Array(1);
  const cut = cutParts(input.ids, input.partRows);
  const firsts = partFirsts(cut);
  const { starts, parts } = partsOf(count, kept, rows, previous, cut, firsts, lineStart);
  const bounds = partBounds(starts, firsts);
  input.onParts?.({ parts, bounds, cut });
  const files = new Map<string, Uint8Array>();
  const reused = new Set<string>();
  const put = input.onFile ?? ((rel: string, bytes: Uint8Array) => void files.set(rel, bytes));
  /** a file whose bytes are the previous build's */
  const keep = (rel: string) => {
    reused.add(rel);
    if (!input.linkReused) files.set(rel, previous!.file(rel));
  };
  // each part's offsets beside it: a part kept as it is keeps its offsets too
  parts.forEach((segments, j) => {
    const rel = eventOffsetsFile(cut[j].name);
    const own = starts.subarray(firsts[j] * STRIDE, firsts[j + 1] * STRIDE);
    files.set(rel, new Uint8Array(own.buffer, own.byteOffset, own.byteLength));
    if (segments === null) reused.add(rel);
  });
  const before = kept && previous ? previous : null;
  const unchanged = before !== null && rows.length === 0 && count === before.starts.length / STRIDE && kept!.every((from, i) => from === i);
  // every previous row at its own place: the previous rows at the new rows' places, for the search index and the columns
  const lines = before && inPlace(kept!, before) ? placedLines(before, lineStart) : null;
  // the calendar cut as the rows are: a part kept is the previous part, the others the new rows'
  // entries made between the previous rows' as they are
  const entry = unchanged ? null : input.calendar(fresh, rows, input.timezone);
  const calendar: CalendarSource = { order: kept, previous: before && before.calendar, firsts: before ? partFirsts(before.parts) : [0], fresh: (i) => entry!(kept ? -kept[i] - 1 : i) };
  parts.forEach((segments, j) => {
    const rel = calendarPartFile(cut[j].name);
    if (segments === null) keep(rel);
    else put(rel, calendarPart(firsts[j], firsts[j + 1], calendar));
  });
  if (unchanged && input.search !== false) keep(DATA_FILES.search);
  else if (input.search !== false) put(DATA_FILES.search, searchFile(before, kept, rows, fresh.text, lines));
  // the columns last: their values (every row's strings) are not held while the calendar and the
  // search index are made
  let values = (): ColumnValues => fresh;
  if (unchanged) {
    values = before.values;
    // every row the previous one at its place: every file is the previous one
    for (const rel of COLUMN_FILES) keep(rel);
  } else if (before?.table && lines) {
    const spliced = splicedColumnValues(before.values(), fresh, kept!);
    values = () => spliced;
    const { files: columns, reused: same } = columnsInPlace(spliced, fresh, kept!, before as Required<PreviousData>, lines);
    for (const [rel, bytes] of columns) put(rel, bytes);
    for (const rel of same) keep(rel);
  } else if (before?.table) {
    // rows added, removed or moved: each column spliced from the previous one as loaded
    const spliced = splicedColumnValues(before.values(), fresh, kept!);
    values = () => spliced;
    const table = before.table();
    const { now } = newPlaces(kept!, table.length);
    for (const m of columnFileMakers()) put(m.rel, m.splice(table, fresh, kept!, now, () => before.file(m.rel)));
  } else {
    const priorValues = before ? before.values() : null;
    const spliced = priorValues ? splicedColumnValues(priorValues, fresh, kept!) : fresh;
    values = () => spliced;
    const columns = columnFilesReusing(spliced, priorValues, undefined, before?.table, put);
    for (const rel of columns.reused) keep(rel);
  }
  return { starts, cut, parts, bounds, files, reused, values };
}

/** Whether every previous row is at its own place in the new list, and the list as long: new rows only stand in for others. */
function inPlace(order: Int32Array, previous: PreviousData): boolean {
  if (order.length !== previous.starts.length / STRIDE) return false;
  for (let i = 0; i < order.length; i++) if (order[i] >= 0 && order[i] !== i) return false;
  return true;
}

/**
 * The column files of a list whose previous rows are all at their own places (inPlace), but those
 * that are the previous ones (`reused`): a column is the previous one unless a new row's value
 * differs from the previous row's at its place, read from the previous file row by row, so only
 * the columns that changed are read whole.
 */
function columnsInPlace(values: ColumnValues, fresh: ColumnValues, order: Int32Array, previous: Required<PreviousData>, lines: PlacedLines): { files: Map<string, Uint8Array>; reused: Set<string> } {
  const table = previous.table;
  // the column file holds the same string, all its text decoded to give it: only where the row is not there
  const string = (field: string, row: number) => {
    const line = lines(row);
    if (line === null) return (TIME_FIELDS.includes(field as TimeField) ? table().stored.iso[field as TimeField] : table().stored.text[field as TextField]).at(row);
    return rowString(line, 0, previous.starts, row * STRIDE, EVENT_FIELDS.indexOf(field as EventField));
  };
  const places: number[] = [];
  for (let i = 0; i < order.length; i++) if (order[i] < 0) places.push(i);
  const files = new Map<string, Uint8Array>();
  const reused = new Set<string>();
  for (const m of columnFileMakers()) {
    const now = m.input(fresh);
    if (places.every((i) => sameValue(now[-order[i] - 1], m.at({ table, string }, i)))) reused.add(m.rel);
    else files.set(m.rel, m.make(values, table));
  }
  return { files, reused };
}

/**
 * The offsets and each part's pieces: runs of previous rows as ranges of the previous parts, runs
 * of new rows as views of their bytes. A part whose rows are a previous part's, row for row, under
 * its name (and as much the last part as it was: every part but the last ends with a newline), is
 * that part (null).
 */
function partsOf(count: number, order: Int32Array | null, rows: EventRows, previous: PreviousData | null, cut: readonly EventPart[], firsts: readonly number[], lineStart: Float64Array): { starts: Uint32Array; parts: (Segment[] | null)[] } {
  const fromOf = (i: number) => (order ? order[i] : -(i + 1));
  const n = previous ? previous.starts.length / STRIDE : 0;
  if (!order && rows.length === count) {
    // every row new, in order: the offsets are the rows' own
    return { starts: rows.starts instanceof Uint32Array ? rows.starts : Uint32Array.from(rows.starts), parts: cut.map((_, j) => freshParts(rows, firsts[j], firsts[j + 1])) };
  }
  const starts = new Uint32Array(count * STRIDE);
  const was = previous ? partFirsts(previous.parts) : null;
  const parts: (Segment[] | null)[] = cut.map((_, j) => (order && was && keptPart(order, previous!.parts, was, cut, firsts, j) ? null : []));
  const bytes = rows.length > 0 ? rows.lineBytes : Buffer.alloc(0);
  for (let i = 0, part = 0; i < count; ) {
    while (firsts[part + 1] <= i) part++;
    const segments = parts[part];
    // the newline after a row belongs to the row's part
    if (i > 0 && i === firsts[part]) parts[part - 1]?.push({ bytes: NEWLINE });
    else if (i > 0) segments?.push({ bytes: NEWLINE });
    // a run stays within its part: previous rows in order, or new rows
    const from = fromOf(i);
    const partEnd = firsts[part + 1];
    let k = i + 1;
    while (k < partEnd && fromOf(k) === fromOf(k - 1) + (from < 0 ? -1 : 1)) k++;
    if (from >= 0) {
      const last = fromOf(k - 1);
      starts.set(previous!.starts.subarray(from * STRIDE, (last + 1) * STRIDE), i * STRIDE);
      segments?.push({ begin: lineStart[from], end: lineStart[last + 1] - 1 });
    } else {
      const first = -from - 1;
      const last = -fromOf(k - 1) - 1;
      starts.set(rows.starts.subarray(first * STRIDE, (last + 1) * STRIDE), i * STRIDE);
      segments?.push({ bytes: bytes.subarray(rows.lineStart(first), rows.lineStart(last) + rows.byteLength(last)) });
    }
    i = k;
  }
  return { starts, parts: parts.map((segments) => joined(segments, lineStart[n] - 1)) };
}

/** Whether new part j is a previous part as it is: the same name, the same rows in order, and the last part if it was. */
function keptPart(order: Int32Array, before: readonly EventPart[], was: readonly number[], cut: readonly EventPart[], firsts: readonly number[], j: number): boolean {
  const [first, end] = [firsts[j], firsts[j + 1]];
  const from = first < end ? order[first] : 0;
  if (from < 0) return false;
  const q = partOfRow(was, from);
  if (was[q] !== from || was[q + 1] - from !== end - first || before[q].name !== cut[j].name || (q === before.length - 1) !== (j === cut.length - 1)) return false;
  for (let i = first + 1; i < end; i++) if (order[i] !== from + i - first) return false;
  return true;
}

/**
 * data/search.bin of the list: where rows changed in place, the previous file spliced at the
 * level of its lists (search-splice.ts: the terms a changed row leaves are its previous row's),
 * else (or where a previous row cannot be read) made of the previous index's rows that stay and
 * the new rows' terms.
 */
function searchFile(before: PreviousData | null, order: Int32Array | null, rows: EventRows, known: FieldValues, lines: PlacedLines | null): Uint8Array {
  if (!before || !order) return searchIndex(null, order, rows, known);
  if (!lines) {
    // rows added, removed or moved: every list renumbered, the new rows' terms put in
    const joins: RowJoin[] = [];
    order.forEach((from, place) => {
      if (from >= 0) return;
      const j = -from - 1;
      joins.push({ place, terms: (sink) => rowTerms({ bytes: rows.bytes(j), starts: rows.starts, base: j * STRIDE }, sink, known, j) });
    });
    return searchIndexShifted(before.file(DATA_FILES.search), order, joins);
  }
  const changes: RowChange[] = [];
  for (let i = 0; i < order.length; i++) {
    if (order[i] >= 0) continue;
    const j = -order[i] - 1;
    const line = lines(i);
    // the previous parts gone or changed: the previous index's lists decoded whole instead
    if (line === null) return searchIndex(before.file(DATA_FILES.search), order, rows, known);
    changes.push({
      place: i,
      before: (sink) => rowTerms({ bytes: line, starts: before.starts, base: i * STRIDE }, sink),
      after: (sink) => rowTerms({ bytes: rows.bytes(j), starts: rows.starts, base: j * STRIDE }, sink, known, j),
    });
  }
  return searchIndexInPlace(before.file(DATA_FILES.search), changes);
}

/** The previous row at a place, its line read once; null where it cannot be read (its parts gone or changed). */
type PlacedLines = (row: number) => Buffer | null;

function placedLines(previous: PreviousData, lineStart: Float64Array): PlacedLines {
  const lines = new Map<number, Buffer | null>();
  return (row) => {
    let line = lines.get(row);
    if (line === undefined) {
      try {
        const bytes = previous.bytes(lineStart[row], lineStart[row + 1] - 1);
        line = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
      } catch {
        line = null;
      }
      lines.set(row, line);
    }
    return line;
  };
}

/** Where each previous row's line starts in its parts end to end, then their length and one (a newline after the last). */
function lineStarts(previous: PreviousData): Float64Array {
  const n = previous.starts.length / STRIDE;
  const lineStart = new Float64Array(n + 1);
  for (let row = 0; row < n; row++) lineStart[row + 1] = lineStart[row] + previous.starts[row * STRIDE + FIELD_COUNT] + 1;
  return lineStart;
}

/** The part of rows [first, end), all new: one view of their bytes, with the newline that ends it. */
function freshParts(rows: EventRows, first: number, end: number): Segment[] {
  const last = end - 1;
  if (last < first) return [{ bytes: Buffer.alloc(0) }];
  const bytes = rows.lineBytes;
  const to = rows.lineStart(last) + rows.byteLength(last) + (last + 1 < rows.length ? 1 : 0);
  return [{ bytes: bytes.subarray(rows.lineStart(first), to) }];
}

/** The segments with each newline joined to the range before it where the previous bytes (`total` of them) have it next. */
function joined(segments: Segment[] | null, total: number): Segment[] | null {
  if (!segments) return null;
  const out: Segment[] = [];
  for (const s of segments) {
    const last = out[out.length - 1];
    if ('bytes' in s && s.bytes === NEWLINE && last && 'begin' in last && last.end < total) {
      out[out.length - 1] = { begin: last.begin, end: last.end + 1 };
      continue;
    }
    out.push(s);
  }
  return out;
}

/**
 * A part's bytes in memory: `previous` gives bytes of the previous parts' concatenation, read
 * straight into the part where it can (PartsBytes). A part of one piece of new rows is a view of
 * them, not a copy.
 */
export function partBytes(segments: readonly Segment[], previous: PartsBytes): Uint8Array {
  if (segments.length === 1 && 'bytes' in segments[0]) return segments[0].bytes;
  const out = Buffer.allocUnsafe(segments.reduce((n, s) => n + ('bytes' in s ? s.bytes.byteLength : s.end - s.begin), 0));
  let at = 0;
  for (const s of segments) {
    const piece = 'bytes' in s ? s.bytes : previous(s.begin, s.end, out, at);
    if (piece.buffer !== out.buffer || piece.byteOffset !== out.byteOffset + at) out.set(piece, at);
    at += piece.byteLength;
  }
  return out;
}

/** Bytes [begin, end) of `parts` end to end (`bounds`: where each starts, then their length): a view where one part holds them. */
export function bytesOfParts(parts: readonly Uint8Array[], bounds: readonly number[], begin: number, end: number): Uint8Array {
  let p = 0;
  while (p + 1 < parts.length && bounds[p + 1] <= begin) p++;
  if (end <= bounds[p + 1]) return parts[p].subarray(begin - bounds[p], end - bounds[p]);
  const pieces: Uint8Array[] = [];
  for (let at = begin; at < end; p++) {
    const to = Math.min(end, bounds[p + 1]);
    pieces.push(parts[p].subarray(at - bounds[p], to - bounds[p]));
    at = to;
  }
  return Buffer.concat(pieces);
}
