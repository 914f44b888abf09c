// The byte offsets of an event row's fields (event-rows.ts), found in the row's UTF-8 rather than
// computed while it is written: a row is then one JSON.stringify of the whole rendered event,
// where serializing it field by field (31 stringify calls, 31 byte lengths and a join) cost
// ~18 µs an event, ~1.8 s of the parse threads at 100k events.
//
// The scan needs no JSON parser: the row is JSON.stringify's output (json-scan.ts).
import { CLOSE_OBJECT, COMMA, OPEN_OBJECT, valueEnd } from './json-scan.ts';

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
