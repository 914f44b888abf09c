// Where the event rows are cut into parts (dist-paths.ts), each part but the last ending with the
// `\n` after its last row, so the parts' concatenation is the rows' bytes and the offsets stay
// absolute over it. A part ends after a row whose id hashes to a multiple of the cut's divisor: the
// cuts move with the rows, not with their places, so a row added or removed changes the part it
// falls in and no other. A shortest and a longest run keep parts bounded; a cut the longest run
// forces is followed by the next natural one, where the parts of two lists agree again.
import { EVENT_FIELDS } from '../../model/event-fields.ts';
import type { EventPart } from './dist-paths.ts';

const STRIDE = EVENT_FIELDS.length + 1;

/** An id's 32 bits of hash: its two halves mixed (murmur3's finalizer), so ids in order cut at random. */
export function idHash(id: number): number {
  let h = (id | 0) ^ Math.imul(Math.floor(id / 0x1_0000_0000) | 0, 0x9e3779b1);
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

/**
 * The parts of rows whose ids are `ids`, in list order, about `partRows` rows a part: none shorter
 * than half of it (but the last), none longer than twice it. Each named by its first row's id; no
 * rows: one empty part, named 0. The bounds keep the part an edited row falls in near `partRows`
 * rows (a row falls in a long part more often than in a short one), and leave a natural cut in
 * most parts, where two lists' cuts agree again.
 */
export function cutParts(ids: ArrayLike<number>, partRows: number): EventPart[] {
  const least = Math.max(1, Math.floor(partRows / 2));
  const most = partRows * 2;
  // the natural cuts' odds make the mean part about `partRows` rows, the shortest run included
  const divisor = Math.max(1, partRows - least + 1);
  const parts: EventPart[] = [];
  let first = 0;
  for (let row = 0; row < ids.length; row++) {
    const run = row + 1 - first;
    if ((run >= least && idHash(ids[row]) % divisor === 0) || run >= most || row === ids.length - 1) {
      parts.push({ name: String(ids[first]), rows: run });
      first = row + 1;
    }
  }
  if (parts.length === 0) parts.push({ name: '0', rows: 0 });
  return parts;
}

/**
 * The byte offset where each part starts, then the total: part i is bytes [bounds[i],
 * bounds[i + 1]). `starts`: the rows' field offsets (serializeEvent), whose last per row is its
 * length; `firsts`: each part's first row, then the rows' count (partFirsts).
 */
export function partBounds(starts: ArrayLike<number>, firsts: readonly number[]): number[] {
  const bounds: number[] = [0];
  let at = 0;
  for (let i = 1; i < firsts.length; i++) {
    for (let row = firsts[i - 1]; row < firsts[i]; row++) at += starts[row * STRIDE + STRIDE - 1] + 1;
    bounds.push(i === firsts.length - 1 ? Math.max(0, at - 1) : at);
  }
  return bounds;
}

/** The parts of `lines` (the rows' bytes), as views of it. */
export function splitParts(lines: Uint8Array, starts: ArrayLike<number>, firsts: readonly number[]): Uint8Array[] {
  const bounds = partBounds(starts, firsts);
  if (bounds[bounds.length - 1] !== lines.byteLength) throw new Error('the rows and their offsets differ in length');
  return bounds.slice(1).map((end, i) => lines.subarray(bounds[i], end));
}
