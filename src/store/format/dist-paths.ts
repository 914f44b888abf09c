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
 * as parts: files whose concatenation is the rows' bytes, cut at row boundaries, every part but
 * the last ending with its `\n`. Where a part ends follows from its rows' ids alone (event-parts.ts
 * cutParts), about this many rows a part, and a part is named by its first row's id: a row added,
 * removed or changed changes the part it falls in, and the parts around it keep their names and
 * bytes, to be linked instead of written again.
 * Each part has its rows' field offsets beside it (eventOffsetsFile): a loader that fetches a
 * part when an answer first reads it (the edge worker) fetches only that part's offsets with it,
 * not every row's, and the part is small enough to fetch and hash fast.
 */
export const EVENT_PART_ROWS = 1024;

/** One part of the event rows as the manifest lists it: its name (its first row's id) and how many rows it holds. */
export interface EventPart {
  name: string;
  rows: number;
}

/** The event part named `name`, relative to dist/. */
export function eventPartFile(name: string): string {
  return `data/events/${name}.jsonl`;
}

/**
 * The field offsets of part `name`'s rows, relative to dist/: rows × (FIELD_COUNT + 1) u32 LE
 * (serializeEvent's), relative to each row's own start.
 */
export function eventOffsetsFile(name: string): string {
  return `data/events/${name}.offsets.bin`;
}

/** The calendar entries of event part `name`'s rows (calendar-file.ts), relative to dist/. */
export function calendarPartFile(name: string): string {
  return `data/calendar/${name}.bin`;
}

type PartsOf = { event_parts: readonly EventPart[] };

/** The event parts a dist holds, in order, from what its manifest says. */
export function eventPartFiles(manifest: PartsOf): string[] {
  return manifest.event_parts.map((p) => eventPartFile(p.name));
}

/** The offsets files of the event parts, in the parts' order. */
export function eventOffsetsFiles(manifest: PartsOf): string[] {
  return manifest.event_parts.map((p) => eventOffsetsFile(p.name));
}

/** The calendar's parts, in order: one per event part. */
export function calendarPartFiles(manifest: PartsOf): string[] {
  return manifest.event_parts.map((p) => calendarPartFile(p.name));
}

/** Where each part's rows start in the list, then the rows' count: part i holds rows [firsts[i], firsts[i + 1]). */
export function partFirsts(parts: readonly { rows: number }[]): number[] {
  const firsts = [0];
  for (const p of parts) firsts.push(firsts[firsts.length - 1] + p.rows);
  return firsts;
}

/**
 * The part holding row `row` (`firsts`: partFirsts's), found by binary search; the last part for a
 * row past the end. A search of its own, not util/first-index.ts's firstIndex: the calendar asks it
 * once per row, where a predicate closure costs several times the search.
 */
export function partOfRow(firsts: ArrayLike<number>, row: number): number {
  let lo = 0;
  let hi = firsts.length - 2;
  while (lo < hi) {
    const mid = (lo + hi + 1) >>> 1;
    if (firsts[mid] <= row) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** The files under dist/ the API loads besides manifest.json; the rest of dist/ is for static hosts and CDNs. */
export function loadedFiles(manifest: PartsOf): string[] {
  return [...eventPartFiles(manifest), ...eventOffsetsFiles(manifest), ...calendarPartFiles(manifest), ...Object.values(DATA_FILES), ...COLUMN_FILES, AUTOCOMPLETE_DATA_FILE];
}
