// Builds a numeric column's file (src/store/format/ordered-column-file.ts): its sorted order, and
// which shape answers its ranges.
import { ENVELOPE, MONOTONE, ORDERED_COLUMN_FORMAT, PERMUTATION, type Envelope, type OrderedColumnData } from '../format/ordered-column-file.ts';
import { canonicalFloats, meta, packSections } from './sections.ts';
import { firstIndex } from '../../util/first-index.ts';

/** Below this many rows a column is never given an envelope (its permutation is cheap enough). */
const ENVELOPE_MIN_ROWS = 1024;

export function buildOrderedColumn(column: ArrayLike<number>): OrderedColumnData {
  const values = canonicalFloats(column);
  const n = values.length;
  const rows: number[] = [];
  for (let i = 0; i < n; i++) if (values[i] === values[i]) rows.push(i);
  rows.sort((a, b) => values[a] - values[b] || a - b);
  return orderedColumnOf(values, Uint32Array.from(rows));
}

/** The column of `values` (canonicalFloats) given its non-null rows sorted by (value, row). */
export function orderedColumnOf(values: Float64Array, order: Uint32Array): OrderedColumnData {
  const n = values.length;
  let monotone = true;
  for (let i = 0; i < n; i++) {
    const v = values[i];
    if (v !== v || (i > 0 && v > values[i - 1])) {
      monotone = false;
      break;
    }
  }
  if (monotone) return { shape: MONOTONE, values, order, ordered: values, envelope: null };
  const ordered = new Float64Array(order.length);
  for (let i = 0; i < order.length; i++) ordered[i] = values[order[i]];
  const envelope = envelopeOf(values, ordered);
  return { shape: envelope ? ENVELOPE : PERMUTATION, values, order, ordered, envelope };
}

/**
 * Envelopes pay off only if the column follows the row order closely: decided by how wide the
 * uncertain zone is for a few sample values (at most a 32nd of the rows, on average).
 */
function envelopeOf(v: Float64Array, ordered: Float64Array): Envelope | null {
  const n = v.length;
  const length = ordered.length;
  if (n < ENVELOPE_MIN_ROWS || length === 0) return null;
  let rows: Uint32Array | null = null;
  let compact = v;
  if (length !== n) {
    rows = new Uint32Array(length);
    compact = new Float64Array(length);
    for (let i = 0, k = 0; i < n; i++) {
      if (v[i] !== v[i]) continue;
      rows[k] = i;
      compact[k++] = v[i];
    }
  }
  const m = compact.length;
  const prefixMin = new Float64Array(m);
  const suffixMax = new Float64Array(m);
  let acc = Infinity;
  for (let i = 0; i < m; i++) prefixMin[i] = acc = Math.min(acc, compact[i]);
  acc = -Infinity;
  for (let i = m - 1; i >= 0; i--) suffixMax[i] = acc = Math.max(acc, compact[i]);
  let zone = 0;
  const samples = 16;
  for (let k = 1; k < samples; k++) {
    const x = ordered[Math.floor((k * length) / samples)];
    const from = firstIndex(m, (i) => prefixMin[i] < x);
    const to = firstIndex(m, (i) => suffixMax[i] < x);
    zone += Math.max(0, to - from);
  }
  return zone / (samples - 1) <= m / 32 ? { rows, values: compact, prefixMin, suffixMax } : null;
}

export function orderedColumnFile(c: OrderedColumnData): Uint8Array {
  const empty = new Uint8Array(0);
  const e = c.envelope;
  return packSections(ORDERED_COLUMN_FORMAT, [
    meta(c.values.length, c.shape, c.order.length),
    c.values,
    c.order,
    c.shape === MONOTONE ? empty : c.ordered,
    e?.rows ?? empty,
    e?.rows ? e.values : empty,
    e?.prefixMin ?? empty,
    e?.suffixMax ?? empty,
  ]);
}
