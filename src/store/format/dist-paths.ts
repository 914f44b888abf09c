// Where each data file lives in dist/, relative to it: the one list the writer and the reader share.
import { COLUMN_FILES } from './column-files.ts';

export const DATA_FILES = {
  categories: 'data/categories.json',
  /** what `search` answers from (search/search-index-file.ts) */
  search: 'data/search.bin',
} as const;

/** The autocomplete's index as the server searches it (autocomplete-file.ts); autocomplete/ holds the browser's. */
export const AUTOCOMPLETE_DATA_FILE = 'data/autocomplete.bin';

export const AUTOCOMPLETE_DIR = 'autocomplete';

/** File names under dist/autocomplete/. */
export const AUTOCOMPLETE_INDEX_FILE = 'index.json';
export const AUTOCOMPLETE_MODULE_FILE = 'autocomplete.js';

/**
 * The event rows (one serialized event a line, `\n` between rows, none after the last) are stored
 * as parts of this many rows each: files whose concatenation is the rows' bytes, cut at row
 * boundaries, every part but the last ending with its `\n`. A patch that changes one title then
 * writes one part and links the others, instead of rewriting every row.
 * Each part has its rows' field offsets beside it (eventOffsetsFile): a loader that fetches a
 * part when an answer first reads it (the edge worker) fetches only that part's offsets with it,
 * not every row's, and the part is small enough to fetch and hash fast.
 */
export const EVENT_PART_ROWS = 1024;

/** How many parts `rows` rows make, `partRows` a part: at least one (an empty one when there are no rows). */
export function eventPartCount(rows: number, partRows: number): number {
  return Math.max(1, Math.ceil(rows / partRows));
}

/** Part `i` of the event rows, relative to dist/. */
export function eventPartFile(i: number): string {
  return `data/events/${String(i).padStart(5, '0')}.jsonl`;
}

/**
 * The field offsets of part `i`'s rows, relative to dist/: rows × (FIELD_COUNT + 1) u32 LE
 * (serializeEvent's), relative to each row's own start.
 */
export function eventOffsetsFile(i: number): string {
  return `data/events/${String(i).padStart(5, '0')}.offsets.bin`;
}

type PartsOf = { counts: { events: number }; event_part_rows: number };

/** The event parts a dist holds, in order, from what its manifest says. */
export function eventPartFiles(manifest: PartsOf): string[] {
  return Array.from({ length: eventPartCount(manifest.counts.events, manifest.event_part_rows) }, (_, i) => eventPartFile(i));
}

/** The offsets files of the event parts, in the parts' order. */
export function eventOffsetsFiles(manifest: PartsOf): string[] {
  return Array.from({ length: eventPartCount(manifest.counts.events, manifest.event_part_rows) }, (_, i) => eventOffsetsFile(i));
}

/** Part `i` of the calendar entries (calendar-file.ts): the entries of event part `i`'s rows, relative to dist/. */
export function calendarPartFile(i: number): string {
  return `data/calendar/${String(i).padStart(5, '0')}.bin`;
}

/** The calendar's parts, in order: one per event part. */
export function calendarPartFiles(manifest: PartsOf): string[] {
  return Array.from({ length: eventPartCount(manifest.counts.events, manifest.event_part_rows) }, (_, i) => calendarPartFile(i));
}

/** The files under dist/ the API loads besides manifest.json; the rest of dist/ is for static hosts and CDNs. */
export function loadedFiles(manifest: PartsOf): string[] {
  return [...eventPartFiles(manifest), ...eventOffsetsFiles(manifest), ...calendarPartFiles(manifest), ...Object.values(DATA_FILES), ...COLUMN_FILES, AUTOCOMPLETE_DATA_FILE];
}
