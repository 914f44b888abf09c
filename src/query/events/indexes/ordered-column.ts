// Range lookups on a numeric column (epoch ms of a timestamp field, dfp_points), over its file as
// loaded (src/store/format/ordered-column-file.ts), whose shape the build decided:
// - monotone: the column is non-increasing in row order (always `start`): every range is a
//   contiguous slice of rows, found by binary search, handed out as a view.
// - envelope: the column roughly follows the row order (`end` does: an event ends a few hours
//   after it starts; registration deadlines usually too). Over its non-null rows, running
//   minima/maxima bound the zone where matches can be and the runs sure to match, which are
//   handed out as views of the non-null row list; only a narrow band of rows is tested.
// - otherwise a permutation of the non-null rows sorted by (value, row): a range is a slice of it.
//   One value's rows stay ascending in it, so an exact match is a ready view; a wider slice is
//   re-sorted into row order through a bit set, or, when it covers much of the table, replaced by
//   a branch-free scan of the column.
import type { RowBits, RowSet } from './rowset.ts';
import { ENVELOPE, MONOTONE, type Envelope, type OrderedColumnData, type OrderedSearch } from '../../../store/format/ordered-column-file.ts';
import { firstIndex } from '../../../util/first-index.ts';
import { bitmapWords } from '../../../store/format/bitmap.ts';

export type Comparison = 'exact' | 'gt' | 'gte' | 'lt' | 'lte';

const CACHE_ENTRIES = 64;
/** span bit sets kept per column (a bit per row each) */
const SPAN_SETS = 16;

/** Half-open interval of positions in the column's order (rows, or permutation). */
export interface Span {
  from: number;
  to: number;
}

export class OrderedColumn {
  readonly monotone: boolean;
  /** number of positions: rows, or non-null rows in permutation mode */
  readonly length: number;
  /**
   * A column read in parts (an edge isolate's) finds its spans and their bounds by block: a
   * range that needs no more (`start`'s, a row range) reads neither the values nor the envelope.
   */
  private readonly search: OrderedSearch | null;

  constructor(private readonly data: OrderedColumnData) {
    this.monotone = data.shape === MONOTONE;
    this.search = data.search ?? null;
    this.length = this.search?.nonNull ?? (this.monotone ? data.values : data.ordered).length;
  }

  /** the column, NaN where null (read from the data when first used) */
  get values(): Float64Array {
    return this.data.values;
  }

  /** values in span order: the column itself (monotone) or the values of `perm` */
  private get ordered(): Float64Array {
    return this.monotone ? this.data.values : this.data.ordered;
  }

  private get envelope(): Envelope | null {
    return this.data.shape === ENVELOPE ? this.data.envelope : null;
  }

  /** ordered[p] */
  private orderedAt(p: number): number {
    return this.search === null ? this.ordered[p] : this.search.at(p);
  }

  /**
   * permutation mode: non-null rows sorted by (value, row); read from the data when first used (an
   * edge isolate checks it then: a range answered by a scan of the values never reads it)
   */
  private get perm(): Uint32Array | null {
    return this.monotone ? null : this.data.order;
  }

  /** Which of the shapes above answers wide spans. */
  get shape(): 'monotone' | 'envelope' | 'permutation' {
    if (this.monotone) return 'monotone';
    return this.data.shape === ENVELOPE ? 'envelope' : 'permutation';
  }

  /** Bytes held besides the column itself (permutation, envelope, cached results). */
  byteSize(): number {
    let bytes = this.perm ? this.perm.byteLength + this.ordered.byteLength : 0;
    const e = this.envelope;
    if (e) bytes += e.prefixMin.byteLength + e.suffixMax.byteLength + (e.rows ? e.rows.byteLength + e.values.byteLength : 0);
    for (const r of this.cache.values()) bytes += r.byteLength;
    for (const b of this.spanSets.values()) bytes += b.byteLength;
    return bytes;
  }

  /** Positions whose value satisfies `value <op> x`; x is finite or ±Infinity. */
  span(op: Comparison, x: number): Span {
    const n = this.length;
    if (this.monotone) {
      // descending
      const le = this.edge(x, true, false);
      const lt = this.edge(x, true, true);
      switch (op) {
        case 'exact': return { from: le, to: lt };
        case 'gt': return { from: 0, to: le };
        case 'gte': return { from: 0, to: lt };
        case 'lt': return { from: lt, to: n };
        case 'lte': return { from: le, to: n };
      }
    }
    const ge = this.edge(x, false, false);
    const gt = this.edge(x, false, true);
    switch (op) {
      case 'exact': return { from: ge, to: gt };
      case 'gt': return { from: gt, to: n };
      case 'gte': return { from: ge, to: n };
      case 'lt': return { from: 0, to: ge };
      case 'lte': return { from: 0, to: gt };
    }
  }

  /**
   * First position whose value is ≤ x (< x when `strict`) along a descending order, or ≥ x (> x)
   * along an ascending one: firstIndex's search, without a closure per call (a span is asked for
   * every comparison of every request).
   */
  private edge(x: number, descending: boolean, strict: boolean): number {
    if (this.search !== null) return this.search.edge(x, strict);
    const a = this.ordered;
    let lo = 0;
    let hi = this.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const v = a[mid];
      if (descending ? (strict ? v < x : v <= x) : strict ? v > x : v >= x) hi = mid;
      else lo = mid + 1;
    }
    return lo;
  }

  /** Inclusive value bounds of a non-empty span: a row matches iff min <= value <= max. */
  bounds(s: Span): [number, number] {
    const a = this.orderedAt(s.from);
    const b = this.orderedAt(s.to - 1);
    return a <= b ? [a, b] : [b, a];
  }

  /** The rows of a span in ascending row order; `all` is 0..n-1 (views of it are handed out). */
  rows(s: Span, all: RowSet, bits: RowBits, scratch: Uint32Array): RowSet {
    if (s.to <= s.from) return all.subarray(0, 0);
    if (this.monotone) return all.subarray(s.from, s.to);
    if (this.orderedAt(s.from) === this.orderedAt(s.to - 1)) return this.perm!.subarray(s.from, s.to);
    const key = s.from * (this.length + 1) + s.to;
    const hit = touched(this.cache, key);
    if (hit) return hit;
    const rows = this.computeRows(s, all, bits, scratch);
    this.remember(key, rows);
    return rows;
  }

  private computeRows(s: Span, all: RowSet, bits: RowBits, scratch: Uint32Array): RowSet {
    const [min, max] = this.bounds(s);
    const env = this.envelope;
    if (env) return this.rowsByEnvelope(env, min, max, all, scratch);
    const n = this.values.length;
    if ((s.to - s.from) * 4 > n) return scan(this.values, null, scratch, 0, n, min, max);
    bits.mark(this.perm!, s.from, s.to);
    return bits.drain(s.to - s.from);
  }

  // Many query values map to one span (`dfp_points__gte=2.5` and `=2`, any two instants between
  // the same two stored values), and a wide span costs a scan of the column, so the last results
  // are kept: at most CACHE_ENTRIES spans and 4 rows' worth per table row.
  private readonly cache = new Map<number, RowSet>();
  private cachedRows = 0;

  private remember(key: number, rows: RowSet): void {
    if (rows.length < 256) return; // cheap to recompute
    this.cache.set(key, rows);
    this.cachedRows += rows.length;
    for (const [k, r] of this.cache) {
      if (this.cache.size <= CACHE_ENTRIES && this.cachedRows <= 4 * this.values.length) break;
      this.cache.delete(k);
      this.cachedRows -= r.length;
    }
  }

  /**
   * For a column in or close to the row order (monotone, or an envelope over every row): rows
   * outside [from, to) do not match the span and rows in [sureFrom, sureTo) all do, so only the
   * rows between need their values tested. Null for a permutation.
   */
  rowBands(s: Span): { from: number; to: number; sureFrom: number; sureTo: number } | null {
    // a monotone column's span is its rows, in row order: every row of it matches
    if (this.monotone) {
      const to = Math.max(s.from, s.to);
      return { from: s.from, to, sureFrom: s.from, sureTo: to };
    }
    const env = this.envelope;
    if (!env || env.rows || s.to <= s.from) return null;
    const [min, max] = this.bounds(s);
    const m = envelopeLength(env);
    // as rowsByEnvelope finds them
    const from = envelopeEdge(env, 'prefixMin', max, false);
    const to = envelopeEdge(env, 'suffixMax', min, true);
    if (from >= to) return { from, to: from, sureFrom: from, sureTo: from };
    if (max >= envelopeAt(env, 'suffixMax', 0)) return { from, to, sureFrom: from, sureTo: Math.min(to, Math.max(from, envelopeEdge(env, 'prefixMin', min, true))) };
    if (min <= envelopeAt(env, 'prefixMin', m - 1)) return { from, to, sureFrom: Math.min(to, Math.max(from, envelopeEdge(env, 'suffixMax', max, false))), sureTo: to };
    return { from, to, sureFrom: from, sureTo: from };
  }

  // The rows of the last spans as bit sets over the rows: a span ANDed into a search's matches
  // (lookups/ordered.ts) repeats as its rows' lists do, and a bit set is a few words a row.
  private readonly spanSets = new Map<number, Int32Array>();

  /**
   * The rows of a span as a bit set over the rows (kept, never write to it); null for a monotone
   * column, and unless `make`, when it is not kept already.
   */
  spanBits(s: Span, make: boolean): Int32Array | null {
    const perm = this.perm;
    if (perm === null) return null;
    const key = s.from * (this.length + 1) + s.to;
    const kept = touched(this.spanSets, key);
    if (kept || !make) return kept ?? null;
    const bits = new Int32Array(bitmapWords(this.values.length));
    for (let i = s.from; i < s.to; i++) {
      const r = perm[i];
      bits[r >>> 5] |= 1 << (r & 31);
    }
    this.spanSets.set(key, bits);
    for (const k of this.spanSets.keys()) {
      if (this.spanSets.size <= SPAN_SETS) break;
      this.spanSets.delete(k);
    }
    return bits;
  }

  /**
   * Works on the non-null rows only (compacted), so that runs of rows sure to match are views of
   * the compacted row list even in a column with nulls.
   */
  private rowsByEnvelope(env: Envelope, min: number, max: number, all: RowSet, scratch: Uint32Array): RowSet {
    const m = envelopeLength(env);
    // positions before `from` are all > max; positions from `to` on are all < min
    const from = envelopeEdge(env, 'prefixMin', max, false);
    const to = envelopeEdge(env, 'suffixMax', min, true);
    if (from >= to) return all.subarray(0, 0);
    const { values } = env;
    const rows = env.rows ?? all;
    if (max >= envelopeAt(env, 'suffixMax', 0)) {
      // no effective upper bound: positions before `sureTo` are all >= min, so all match
      const sureTo = envelopeEdge(env, 'prefixMin', min, true);
      if (sureTo >= to) return rows.subarray(from, to);
      return concat(rows.subarray(from, Math.max(from, sureTo)), scan(values, env.rows, scratch, Math.max(from, sureTo), to, min, max));
    }
    if (min <= envelopeAt(env, 'prefixMin', m - 1)) {
      // no effective lower bound: positions from `sureFrom` on are all <= max, so all match
      const sureFrom = envelopeEdge(env, 'suffixMax', max, false);
      if (sureFrom <= from) return rows.subarray(from, to);
      return concat(scan(values, env.rows, scratch, from, Math.min(sureFrom, to), min, max), rows.subarray(Math.min(sureFrom, to), to));
    }
    return scan(values, env.rows, scratch, from, to, min, max);
  }
}

/** The envelope's positions (its non-null rows), told without reading its values where it is read in parts. */
const envelopeLength = (env: Envelope): number => env.search?.length ?? env.values.length;

/** The first position of the envelope's minima or maxima (both non-increasing) whose value is ≤ x (< x when `strict`). */
function envelopeEdge(env: Envelope, of: 'prefixMin' | 'suffixMax', x: number, strict: boolean): number {
  if (env.search !== undefined) return env.search.edge(of, x, strict);
  const a = env[of];
  return strict ? firstIndex(a.length, (i) => a[i] < x) : firstIndex(a.length, (i) => a[i] <= x);
}

/** The envelope's minimum or maximum at position p (0 ≤ p < its length). */
const envelopeAt = (env: Envelope, of: 'prefixMin' | 'suffixMax', p: number): number => (env.search !== undefined ? env.search.at(of, p) : env[of][p]);

/** The entry of `key`, moved to the end of the map's order (the most recently used). */
function touched<V>(map: Map<number, V>, key: number): V | undefined {
  const hit = map.get(key);
  if (hit !== undefined) {
    map.delete(key);
    map.set(key, hit);
  }
  return hit;
}

/**
 * Rows (`rows[i]`, or i itself when `rows` is the identity) at positions [from, to) whose value
 * is in [min, max]; branch-free (NaN, a null, fails both tests).
 */
function scan(values: Float64Array, rows: RowSet | null, scratch: Uint32Array, from: number, to: number, min: number, max: number): RowSet {
  let k = 0;
  if (rows === null) {
    for (let i = from; i < to; i++) {
      const v = values[i];
      scratch[k] = i;
      k += +(v >= min) & +(v <= max);
    }
  } else {
    for (let i = from; i < to; i++) {
      const v = values[i];
      scratch[k] = rows[i];
      k += +(v >= min) & +(v <= max);
    }
  }
  return scratch.slice(0, k);
}

function concat(a: RowSet, b: RowSet): RowSet {
  if (a.length === 0) return b;
  if (b.length === 0) return a;
  const out = new Uint32Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}
