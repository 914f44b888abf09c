// A value's row in an ordered column read in parts (an edge isolate's): its sorted values searched
// a block at a time, so that finding one row (`id=`) fetches and checks a few blocks, not the
// column's every value and its whole order. The code runs again after each round of fetches
// (per-need.ts) and takes the same steps over the blocks already in, so each round adds the one
// block the search reaches next.
import { BLOCK_BYTES } from '../format/manifest.ts';
import { FormatError } from '../format/sections.ts';
import { gatherNeeds } from './per-need.ts';
import type { Sections } from './sections.ts';

/** Positions of a section of `width`-byte values, read through the file's parts. */
class InParts {
  private readonly bytes: ReturnType<Sections['u8InParts']>;
  private readonly start: number;

  constructor(
    sections: Sections,
    section: number,
    private readonly width: number,
    what: string,
  ) {
    this.bytes = sections.u8InParts(section, what);
    this.start = sections.offset(section);
  }

  /** throws FileNeeded naming the blocks of `ranges` of positions not at hand */
  need(ranges: readonly (readonly [from: number, to: number])[]): void {
    this.bytes.need(ranges.map(([from, to]) => [from * this.width, to * this.width] as const));
  }

  /** positions [from, to), at hand (need) */
  view(from: number, to: number): DataView {
    const b = this.bytes.at(from * this.width, to * this.width);
    return new DataView(b.buffer, b.byteOffset, b.byteLength);
  }

  /** The positions [from, to) of those of `n` whose bytes lie in the file block position p's lie in. */
  blockOf(p: number, n: number): [number, number] {
    const block = Math.floor((this.start + p * this.width) / BLOCK_BYTES);
    const from = Math.max(0, Math.ceil((block * BLOCK_BYTES - this.start) / this.width));
    const to = Math.min(n, Math.floor(((block + 1) * BLOCK_BYTES - this.start) / this.width));
    return [from, to];
  }
}

/**
 * The first of `n` sorted values (section `section` of `s`, f64) that is ≥ x (> x when `strict`;
 * ≤ x, < x when `descending`), as a binary search over them all finds it, NaN included (none is),
 * read a block of the file at a time: the two ends first, then the block an interpolation between
 * the bounds points at, every other step the middle one instead (a guess that misses still halves
 * the range in two steps). `withGuess(p)`: what to fetch with the block of a guess at p.
 */
export function lowerBoundInParts(s: Sections, section: number, n: number, x: number, descending: boolean, strict: boolean, withGuess: (p: number) => void = () => {}): number {
  const v = new InParts(s, section, 8, 'values in order');
  const before = (value: number) => !(descending ? (strict ? value < x : value <= x) : strict ? value > x : value >= x);
  if (n === 0) return 0;
  v.need([
    [0, 1],
    [n - 1, n],
  ]);
  const at = (p: number) => v.view(p, p + 1).getFloat64(0, true);
  let lo = 0;
  let hi = n - 1;
  if (!before(at(lo))) return 0;
  if (before(at(hi))) return n;
  // the first not before x is in (lo, hi]
  for (let step = 0; hi - lo > 1; step++) {
    const vlo = at(lo);
    const guess = lo + Math.floor(((x - vlo) / (at(hi) - vlo)) * (hi - lo));
    const g = step % 2 === 0 && Number.isFinite(guess) ? Math.min(hi - 1, Math.max(lo + 1, guess)) : (lo + hi) >>> 1;
    const [from, to] = v.blockOf(g, n);
    const bs = Math.max(from, lo + 1);
    const be = Math.min(to, hi);
    gatherNeeds([() => v.need([[bs, be]]), () => withGuess(g)]);
    const block = v.view(bs, be);
    if (!before(block.getFloat64(0, true))) hi = bs;
    else if (before(block.getFloat64((be - bs - 1) * 8, true))) lo = be - 1;
    else {
      // within the block: its first value is before x, its last is not
      let a = 0;
      let b = be - bs - 1;
      while (b - a > 1) {
        const mid = (a + b) >>> 1;
        if (before(block.getFloat64(mid * 8, true))) a = mid;
        else b = mid;
      }
      return bs + b;
    }
  }
  return hi;
}

/**
 * The row of value `x` in an ordered column read in parts, or undefined: its sorted values
 * (`valuesSection`, `n` of them; `descending`: a column's own values, each position its row)
 * searched by block, the row read from the order (`orderSection`: the rows in the values' order,
 * each below `rows`), whose block at a guess is fetched with the guess's values. The smallest row
 * of those equal to x, as the order lists equal values by row.
 */
export function rowOfInParts(s: Sections, valuesSection: number, orderSection: number, n: number, rows: number, x: number, descending: boolean): number | undefined {
  if (Number.isNaN(x)) return undefined;
  if (descending) {
    // a column's own values: the first position of the equal values is the smallest row
    const p = lowerBoundInParts(s, valuesSection, n, x, true, false);
    return p < n && valueAt(s, valuesSection, p) === x ? p : undefined;
  }
  const order = new InParts(s, orderSection, 4, 'order');
  const p = lowerBoundInParts(s, valuesSection, n, x, false, false, (g) => order.need([[g, g + 1]]));
  if (p >= n || valueAt(s, valuesSection, p) !== x) return undefined;
  order.need([[p, p + 1]]);
  const row = order.view(p, p + 1).getUint32(0, true);
  if (row >= rows) throw new FormatError('an ordered column file whose order point outside it');
  return row;
}

/** Value p of a section of f64 values, read through its block. */
export const valueAt = (s: Sections, section: number, p: number): number => new InParts(s, section, 8, 'values in order').view(p, p + 1).getFloat64(0, true);
