// Writes the calendar's parts (src/store/format/calendar-file.ts) from each row's entry, made by
// the caller with the feed's own formatter (api/ical/feed.ts entryBody), or taken from a previous
// part where the row's event did not change. The entries' bytes are written into the part once,
// where they stay: each text as it is made, or runs of a previous part's bytes.
import { CALENDAR_FORMAT, type CalendarPart } from '../format/calendar-file.ts';
import { partOfRow } from '../format/dist-paths.ts';
import { meta, TailPacker } from './sections.ts';

/** A first guess of an entry's bytes: the part's buffer grows by half when the entries are larger. */
const GUESS = 1 << 10;

/** Where the entries of a part come from: row i of the list is the previous list's row order[i], or, where that is negative, `fresh(i)`. */
export interface CalendarSource {
  /** null: every row is fresh */
  order: ArrayLike<number> | null;
  /** the previous list's part p, as the previous parts were cut (read when first needed) */
  previous: ((part: number) => CalendarPart) | null;
  /** the previous parts' first rows, then the previous rows' count (dist-paths.ts partFirsts) */
  firsts: readonly number[];
  /** row i's entry: a text, written as UTF-8, or bytes; called in row order */
  fresh: (row: number) => string | Uint8Array;
}

/** The part holding rows [first, end) of the list. */
export function calendarPart(first: number, end: number, { order, previous, firsts, fresh }: CalendarSource): Uint8Array {
  const rows = end - first;
  const starts = new Uint32Array(rows + 1);
  const head = meta(rows);
  // each entry goes into its place in the part as it is made (a text never outlives its row)
  const file = new TailPacker(CALENDAR_FORMAT, [head.byteLength, starts.byteLength], 1024 + starts.byteLength + rows * GUESS);
  for (let i = first; i < end; ) {
    const from = previous && order ? order[i] : -1;
    if (from < 0) {
      const t = fresh(i);
      if (typeof t === 'string') file.text(t);
      else file.bytes(t);
      starts[++i - first] = file.tailLength;
      continue;
    }
    // a run of rows that stay in order within one previous part: their bytes as they are in it
    const part = partOfRow(firsts, from);
    const partEnd = firsts[part + 1];
    let k = i + 1;
    while (k < end && order![k] === order![k - 1] + 1 && order![k] < partEnd) k++;
    const old = previous!(part);
    const base = firsts[part];
    const at = old.starts[from - base];
    for (let j = i; j < k; j++) starts[j - first + 1] = starts[i - first] + old.starts[order![j] - base + 1] - at;
    file.bytes(old.entries.subarray(at, old.starts[order![k - 1] - base + 1]));
    i = k;
  }
  return file.finish([head, starts]);
}

/** One part of `rows` entries, row r's `entry(r)`: its text, written as UTF-8, or its bytes. */
export function calendarFile(rows: number, entry: (row: number) => string | Uint8Array): Uint8Array {
  return calendarPart(0, rows, { order: null, previous: null, firsts: [0, rows], fresh: entry });
}
