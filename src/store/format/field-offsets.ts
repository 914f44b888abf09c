// The byte offsets of an event row's fields (event-rows.ts), found in the row's UTF-8 rather than
// computed while it is written: a row is then one JSON.stringify of the whole rendered event,
// where serializing it field by field (31 stringify calls, 31 byte lengths and a join) cost
// ~18 µs an event, ~1.8 s of the parse threads at 100k events.
//
// The scan needs no JSON parser: the row is JSON.stringify's output, so a string value ends at the
// first quote not escaped by a backslash, a list or object at its matching bracket (strings
// inside skipped the same way), and any other value at the next comma or closing brace.
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_LIST = 0x5b;
const CLOSE_LIST = 0x5d;

/** Where the string whose opening quote is at `at` ends (after its closing quote); -1 if it does not. */
function stringEnd(bytes: Buffer, at: number, end: number): number {
  let quote = at + 1;
  for (;;) {
    // (memchr: a body's kilobytes are not stepped through here one byte at a time)
    quote = bytes.indexOf(QUOTE, quote);
    if (quote < 0 || quote >= end) return -1;
    let before = quote - 1;
    while (bytes[before] === BACKSLASH) before--;
    // an even run of backslashes escapes itself, not the quote
    if ((quote - 1 - before) % 2 === 0) return quote + 1;
    quote++;
  }
}

/** Where the JSON value starting at `at` ends; -1 if it does not before `end`. */
function valueEnd(bytes: Buffer, at: number, end: number): number {
  const first = bytes[at];
  if (first === QUOTE) return stringEnd(bytes, at, end);
  let p = at;
  if (first === OPEN_OBJECT || first === OPEN_LIST) {
    let depth = 0;
    while (p < end) {
      const c = bytes[p];
      if (c === QUOTE) {
        p = stringEnd(bytes, p, end);
        if (p < 0) return -1;
        continue;
      }
      if (c === OPEN_OBJECT || c === OPEN_LIST) depth++;
      else if ((c === CLOSE_OBJECT || c === CLOSE_LIST) && --depth === 0) return p + 1;
      p++;
    }
    return -1;
  }
  while (p < end && bytes[p] !== COMMA && bytes[p] !== CLOSE_OBJECT) p++;
  return p;
}

/**
 * Pushes onto `starts` the offset (from `from`) of each field's `"key":` in the row
 * bytes[from, to), then the row's length: serializeEvent's offsets. `keys[i]`: field i's `"key":`
 * as bytes. False (with `starts` partly filled) when the row is not an object of exactly those
 * fields in that order.
 */
export function fieldOffsets(bytes: Buffer, from: number, to: number, keys: readonly Uint8Array[], starts: number[]): boolean {
  if (bytes[from] !== OPEN_OBJECT) return false;
  const last = keys.length - 1;
  let p = from + 1;
  for (let f = 0; f <= last; f++) {
    starts.push(p - from);
    const key = keys[f];
    for (let i = 0; i < key.length; i++) if (bytes[p + i] !== key[i]) return false;
    p = valueEnd(bytes, p + key.length, to);
    if (p < 0 || bytes[p] !== (f === last ? CLOSE_OBJECT : COMMA)) return false;
    p++;
  }
  starts.push(p - from);
  return p === to;
}
