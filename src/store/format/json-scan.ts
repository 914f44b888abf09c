// Finding where values end in JSON.stringify's output without parsing it: compact (no white space),
// a string ends at the first quote no backslash escapes (found with Buffer.indexOf, so a long text
// is not stepped through a byte at a time), a list or object at its matching bracket (strings inside
// skipped the same way), anything else at the next comma or closing bracket. Used by the rows'
// field offsets (field-offsets.ts).
export const QUOTE = 0x22;
export const BACKSLASH = 0x5c;
export const COMMA = 0x2c;
export const COLON = 0x3a;
export const OPEN_ARRAY = 0x5b;
export const CLOSE_ARRAY = 0x5d;
export const OPEN_OBJECT = 0x7b;
export const CLOSE_OBJECT = 0x7d;

/** The end (exclusive) of the string whose opening quote is at `at`; -1 when it does not end before `end`. */
export function stringEnd(b: Buffer, at: number, end = b.length): number {
  let p = at + 1;
  for (;;) {
    const q = b.indexOf(QUOTE, p);
    if (q < 0 || q >= end) return -1;
    let slashes = 0;
    while (b[q - 1 - slashes] === BACKSLASH) slashes++;
    // an even run of backslashes escapes itself, not the quote
    if (slashes % 2 === 0) return q + 1;
    p = q + 1;
  }
}

/** The end (exclusive) of the JSON value at `at`; -1 when there is none, or it does not end before `end`. */
export function valueEnd(b: Buffer, at: number, end = b.length): number {
  const c = b[at];
  if (c === QUOTE) return stringEnd(b, at, end);
  let p = at;
  if (c === OPEN_ARRAY || c === OPEN_OBJECT) {
    let depth = 0;
    while (p < end) {
      const d = b[p];
      if (d === QUOTE) {
        p = stringEnd(b, p, end);
        if (p < 0) return -1;
        continue;
      }
      if (d === OPEN_ARRAY || d === OPEN_OBJECT) depth++;
      else if ((d === CLOSE_ARRAY || d === CLOSE_OBJECT) && --depth === 0) return p + 1;
      p++;
    }
    return -1;
  }
  while (p < end) {
    const d = b[p];
    if (d === COMMA || d === CLOSE_ARRAY || d === CLOSE_OBJECT) break;
    p++;
  }
  return p === at ? -1 : p;
}
