// Where the event rows are cut into parts (dist-paths.ts): every `partRows` rows, each part but
// the last ending with the `\n` after its last row, so the parts' concatenation is the rows'
// bytes and the offsets stay absolute over it.
import { EVENT_FIELDS } from '../../model/event-fields.ts';

const STRIDE = EVENT_FIELDS.length + 1;

/**
 * The byte offset where each part starts, then the total: part i is bytes [bounds[i],
 * bounds[i + 1]). `starts`: the rows' field offsets (serializeEvent), whose last per row is its
 * length. No rows: one empty part.
 */
export function partBounds(starts: ArrayLike<number>, partRows: number): number[] {
  const rows = starts.length / STRIDE;
  const bounds: number[] = [];
  let at = 0;
  for (let row = 0; row < rows; row++) {
    if (row % partRows === 0) bounds.push(at);
    at += starts[row * STRIDE + STRIDE - 1] + 1;
  }
  if (rows === 0) bounds.push(0);
  bounds.push(Math.max(0, at - 1));
  return bounds;
}

/** The parts of `lines` (the rows' bytes), as views of it. */
export function splitParts(lines: Uint8Array, starts: ArrayLike<number>, partRows: number): Uint8Array[] {
  const bounds = partBounds(starts, partRows);
  if (bounds[bounds.length - 1] !== lines.byteLength) throw new Error('the rows and their offsets differ in length');
  return bounds.slice(1).map((end, i) => lines.subarray(bounds[i], end));
}
