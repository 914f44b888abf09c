// Splicing the column files (events.columns.json, events.text.json) without parsing them: both are
// JSON.stringify of an object whose values are arrays, or objects of arrays, one element per row
// in list order. JSON.stringify writes an array as its elements' own JSON joined by commas, so the
// file of a new row order is the old file's skeleton with each array's elements re-sequenced: old
// rows as their old bytes, new rows as the bytes of the same file made for the new events alone.
//
// Scanning finds where each element starts (no whitespace: JSON.stringify writes none); strings
// are skipped with indexOf, so the cost is a pass over the bytes, not a parse into objects.

import { CLOSE_ARRAY, CLOSE_OBJECT, COLON, COMMA, OPEN_ARRAY, OPEN_OBJECT, QUOTE, stringEnd, valueEnd } from '../../store/format/json-scan.ts';

/** One array of a columns file: where it opens ('[') and where each element starts, then its ']' + 1. */
export interface ColumnArray {
  open: number;
  /** n + 1 entries: element i is bytes[bounds[i], bounds[i + 1] - 1) */
  bounds: Uint32Array;
}

export class ShapeError extends Error {}

/** The end (exclusive) of the string whose opening quote is at `at`. */
function skipString(b: Buffer, at: number): number {
  const end = stringEnd(b, at);
  if (end < 0) throw new ShapeError('unterminated string');
  return end;
}

/** The end (exclusive) of the JSON value at `at`. */
function skipValue(b: Buffer, at: number): number {
  const end = valueEnd(b, at);
  if (end < 0) throw new ShapeError(`no whole value at ${at}`);
  return end;
}

function scanArray(b: Buffer, at: number, rows: number): { array: ColumnArray; end: number } {
  if (b[at] !== OPEN_ARRAY) throw new ShapeError(`expected an array at ${at}`);
  const bounds = new Uint32Array(rows + 1);
  let p = at + 1;
  let n = 0;
  if (b[p] === CLOSE_ARRAY) {
    if (rows !== 0) throw new ShapeError('an array is empty');
  } else {
    for (;;) {
      if (n >= rows) throw new ShapeError('an array holds more rows than expected');
      bounds[n++] = p;
      p = skipValue(b, p);
      if (b[p] === COMMA) p++;
      else if (b[p] === CLOSE_ARRAY) break;
      else throw new ShapeError(`expected , or ] at ${p}`);
    }
  }
  if (n !== rows) throw new ShapeError('an array holds fewer rows than expected');
  bounds[rows] = p + 1;
  return { array: { open: at, bounds }, end: p + 1 };
}

/** Every array of a columns file (`rows` elements each) in file order; throws ShapeError on any other shape. */
export function columnArrays(b: Buffer, rows: number): ColumnArray[] {
  const arrays: ColumnArray[] = [];
  const object = (at: number, nested: boolean): number => {
    if (b[at] !== OPEN_OBJECT) throw new ShapeError(`expected an object at ${at}`);
    let p = at + 1;
    if (b[p] === CLOSE_OBJECT) return p + 1;
    for (;;) {
      if (b[p] !== QUOTE) throw new ShapeError(`expected a key at ${p}`);
      p = skipString(b, p);
      if (b[p++] !== COLON) throw new ShapeError(`expected : at ${p - 1}`);
      if (b[p] === OPEN_OBJECT && !nested) p = object(p, true);
      else {
        const scanned = scanArray(b, p, rows);
        arrays.push(scanned.array);
        p = scanned.end;
      }
      if (b[p] === COMMA) p++;
      else if (b[p] === CLOSE_OBJECT) return p + 1;
      else throw new ShapeError(`expected , or } at ${p}`);
    }
  };
  if (object(0, false) !== b.length) throw new ShapeError('bytes after the object');
  return arrays;
}

/**
 * The columns file of a new row order. `old`: the previous file (`oldRows` rows); `fresh`: the
 * file made for the new rows alone; `order[i]`: the row i comes from, an old row (≥ 0) or new
 * row j as -(j + 1). Throws ShapeError when the two files are not of one skeleton.
 */
export function spliceColumns(old: Buffer, oldRows: number, fresh: Buffer, freshRows: number, order: Int32Array): Buffer {
  const a = columnArrays(old, oldRows);
  const f = columnArrays(fresh, freshRows);
  if (a.length !== f.length) throw new ShapeError('the files hold different columns');
  const parts: Buffer[] = [];
  let oldAt = 0;
  let freshAt = 0;
  for (let c = 0; c < a.length; c++) {
    // the skeleton before this array (keys, braces) must be the same in both
    const skeleton = old.subarray(oldAt, a[c].open + 1);
    if (!skeleton.equals(fresh.subarray(freshAt, f[c].open + 1))) throw new ShapeError('the files differ outside their arrays');
    parts.push(skeleton);
    const ob = a[c].bounds;
    const fb = f[c].bounds;
    for (let i = 0; i < order.length; ) {
      if (i > 0) parts.push(COMMA_BYTES);
      const from = order[i];
      if (from < 0) {
        const j = -from - 1;
        parts.push(fresh.subarray(fb[j], fb[j + 1] - 1));
        i++;
        continue;
      }
      // a run of consecutive old rows is one slice (their commas included)
      let k = i + 1;
      while (k < order.length && order[k] === order[k - 1] + 1) k++;
      parts.push(old.subarray(ob[from], ob[order[k - 1] + 1] - 1));
      i = k;
    }
    parts.push(CLOSE_BYTES);
    oldAt = ob[oldRows];
    freshAt = fb[freshRows];
  }
  const tail = old.subarray(oldAt);
  if (!tail.equals(fresh.subarray(freshAt))) throw new ShapeError('the files differ outside their arrays');
  parts.push(tail);
  return Buffer.concat(parts);
}

const COMMA_BYTES = Buffer.from(',');
const CLOSE_BYTES = Buffer.from(']');
