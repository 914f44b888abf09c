// Writes data/calendar.bin (src/store/format/calendar-file.ts) from each row's entry, made by the
// caller with the feed's own formatter (api/ical/feed.ts entryBody), or taken from a previous file
// where the row's event did not change. The entries' bytes are written into the file once, where
// they stay: each text as it is made, or runs of the previous file's bytes.
import { CALENDAR_FORMAT, type CalendarEntries } from '../format/calendar-file.ts';
import { meta, TailPacker } from './sections.ts';

/** A first guess of an entry's bytes: the file's buffer grows by half when the entries are larger. */
const GUESS = 1 << 10;

/**
 * The file of a new row order: row i is `old`'s row `order[i]` (none: `old` is null), or, where
 * that is negative, `fresh(i)`: a text, written as UTF-8, or bytes. `fresh` is called in row order.
 */
export function calendarFileReusing(rows: number, old: CalendarEntries | null, order: ArrayLike<number> | null, fresh: (row: number) => string | Uint8Array): Uint8Array {
  const starts = new Uint32Array(rows + 1);
  const head = meta(rows);
  // each entry goes into its place in the file as it is made (a text never outlives its row)
  const file = new TailPacker(CALENDAR_FORMAT, [head.byteLength, starts.byteLength], 1024 + starts.byteLength + rows * GUESS);
  for (let i = 0; i < rows; ) {
    const from = old && order ? order[i] : -1;
    if (from < 0) {
      const t = fresh(i);
      if (typeof t === 'string') file.text(t);
      else file.bytes(t);
      starts[++i] = file.tailLength;
      continue;
    }
    // a run of rows that stay in order: their bytes as they are in the previous file
    let k = i + 1;
    while (k < rows && order![k] === order![k - 1] + 1) k++;
    const first = old!.starts[from];
    const last = old!.starts[order![k - 1] + 1];
    for (let j = i; j < k; j++) starts[j + 1] = starts[i] + old!.starts[from + j - i + 1] - first;
    file.bytes(old!.entries.subarray(first, last));
    i = k;
  }
  return file.finish([head, starts]);
}

/** The file of `rows` entries, row r's `entry(r)`: its text, written as UTF-8, or its bytes. */
export function calendarFile(rows: number, entry: (row: number) => string | Uint8Array): Uint8Array {
  return calendarFileReusing(rows, null, null, entry);
}
