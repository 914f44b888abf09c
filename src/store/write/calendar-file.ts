// Writes data/calendar.bin (src/store/format/calendar-file.ts) from each row's entry, made by the
// caller with the feed's own formatter (api/ical/feed.ts entryBody), or taken from a previous file
// where the row's event did not change. The entries' bytes are copied into the file once: made in
// blocks (their texts let go block by block), or taken as runs of the previous file's bytes.
import { CALENDAR_FORMAT, type CalendarEntries } from '../format/calendar-file.ts';
import { meta, packSections } from './sections.ts';

/** Rows whose texts are made, measured and written at a time. */
const BLOCK_ROWS = 4096;

/**
 * The file of a new row order: row i is `old`'s row `order[i]` (none: `old` is null), or, where
 * that is negative, `fresh(i)`: a text, written as UTF-8, or bytes. `fresh` is called in row order.
 */
export function calendarFileReusing(rows: number, old: CalendarEntries | null, order: ArrayLike<number> | null, fresh: (row: number) => string | Uint8Array): Uint8Array {
  const starts = new Uint32Array(rows + 1);
  const pieces: Uint8Array[] = [];
  const texts: (string | Uint8Array)[] = [];
  let blockStart = 0;
  /** the texts made since `blockStart`, written into a piece of their own */
  const flush = (end: number) => {
    if (texts.length === 0) return;
    const block = Buffer.allocUnsafe(starts[end] - starts[blockStart]);
    let at = 0;
    for (const t of texts) {
      if (typeof t === 'string') at += block.write(t, at);
      else {
        block.set(t, at);
        at += t.byteLength;
      }
    }
    pieces.push(block);
    texts.length = 0;
  };
  for (let i = 0; i < rows; ) {
    const from = old && order ? order[i] : -1;
    if (from < 0) {
      if (texts.length === 0) blockStart = i;
      const t = fresh(i);
      texts.push(t);
      starts[i + 1] = starts[i] + (typeof t === 'string' ? Buffer.byteLength(t) : t.byteLength);
      i++;
      if (texts.length === BLOCK_ROWS) flush(i);
      continue;
    }
    // a run of rows that stay in order: their bytes as they are in the previous file
    flush(i);
    let k = i + 1;
    while (k < rows && order![k] === order![k - 1] + 1) k++;
    const first = old!.starts[from];
    const last = old!.starts[order![k - 1] + 1];
    for (let j = i; j < k; j++) starts[j + 1] = starts[i] + old!.starts[from + j - i + 1] - first;
    pieces.push(old!.entries.subarray(first, last));
    i = k;
  }
  flush(rows);
  return packSections(CALENDAR_FORMAT, [meta(rows), starts, pieces]);
}

/** The file of `rows` entries, row r's `entry(r)`: its text, written as UTF-8, or its bytes. */
export function calendarFile(rows: number, entry: (row: number) => string | Uint8Array): Uint8Array {
  return calendarFileReusing(rows, null, null, entry);
}
