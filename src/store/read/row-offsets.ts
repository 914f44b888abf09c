// A cheap check of the per-field offsets in events.offsets.bin against events.jsonl. Checksums
// prove the files are the ones the build wrote; this proves the offsets describe the rows, so a
// hand-made dist with matching checksums but wrong offsets cannot make the server slice invalid
// JSON. Per field it reads four bytes: `{"` or `,"` where the key starts and `":` where it ends.
import { EVENT_FIELDS } from '../../model/event-fields.ts';

const FIELD_COUNT = EVENT_FIELDS.length;
const STRIDE = FIELD_COUNT + 1;
/** length of `"key"` per field */
const QUOTED_KEY = EVENT_FIELDS.map((f) => Buffer.byteLength(f) + 2);
const OPEN = 0x7b;
const CLOSE = 0x7d;
const COMMA = 0x2c;
const QUOTE = 0x22;
const COLON = 0x3a;
const NEWLINE = 0x0a;

/** What is wrong with the offsets of `lines`, or null when every field starts and ends where its row says. */
export function rowOffsetsProblem(lines: Uint8Array, starts: Uint32Array | Uint16Array): string | null {
  if (starts.length % STRIDE !== 0) return 'the offsets are not whole rows';
  const rows = starts.length / STRIDE;
  let at = 0;
  for (let row = 0; row < rows; row++) {
    const base = row * STRIDE;
    const length = starts[base + FIELD_COUNT];
    const end = at + length;
    if (length < 2 || end > lines.length || lines[at] !== OPEN || lines[end - 1] !== CLOSE || (end < lines.length && lines[end] !== NEWLINE)) {
      return `event ${row} does not fit its offsets`;
    }
    let previous = 0;
    for (let field = 0; field < FIELD_COUNT; field++) {
      const start = starts[base + field];
      const keyEnd = start + QUOTED_KEY[field];
      if (
        start <= previous || keyEnd >= length ||
        lines[at + start - 1] !== (field === 0 ? OPEN : COMMA) || lines[at + start] !== QUOTE ||
        lines[at + keyEnd - 1] !== QUOTE || lines[at + keyEnd] !== COLON
      ) {
        return `field ${EVENT_FIELDS[field]} of event ${row} is not where its offset says`;
      }
      previous = start;
    }
    // the last value ends where the row's closing brace is
    if (starts[base + FIELD_COUNT - 1] >= length - 1) return `event ${row} does not fit its offsets`;
    at = end + 1;
  }
  return null;
}

/**
 * The offsets in 16 bits when every one fits (offsets are within a row, so they do whenever
 * every row is shorter than 64 KiB): half the memory, 6.4 MB less at 100k events. Else the
 * offsets as they are. The values are the same either way, and checked against the rows after.
 */
export function compactOffsets(starts: Uint32Array): Uint32Array | Uint16Array {
  for (let i = 0; i < starts.length; i++) if (starts[i] > 0xffff) return starts;
  return Uint16Array.from(starts);
}
