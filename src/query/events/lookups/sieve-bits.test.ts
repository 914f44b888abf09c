// The conditions' sieves of a bit set (a search's matches narrowed by filters, planner.ts) keep
// exactly the rows their list sieves keep, on every column shape: an envelope close to the row
// order (whole words cleared or kept), a permutation (a span's kept bit set, or a test per row),
// nulls, empty spans, flags.
import { describe, expect, it } from 'vitest';
import { bitCount, bitmapWords } from '../../../store/format/bitmap.ts';
import { TableIndexes } from '../indexes/table-indexes.ts';
import type { Comparison } from '../indexes/ordered-column.ts';
import { buildTable, type FixtureEvent } from '../table-fixture.ts';
import { prng } from '../test-random.ts';
import { rowsIn } from '../search/bits.ts';
import { BoolCondition } from './bool.ts';
import type { Condition } from './condition.ts';
import { SpanCondition } from './ordered.ts';

const HOUR = 3_600_000;
const random = prng(5).next;
const N = 3_000;
const base = Date.UTC(2025, 0, 1);
const events: FixtureEvent[] = Array.from({ length: N }, (_, i) => {
  const start = base + Math.floor(random() * 2_000) * HOUR;
  return {
    id: i + 1,
    start,
    // close to start (an envelope), now and then far from it
    end: start + (random() < 0.01 ? Math.floor(random() * 40) : Math.floor(random() * 4)) * HOUR,
    registration_end: random() < 0.3 ? null : start - Math.floor(random() * 100) * HOUR,
    last_modified: base + Math.floor(random() * 50) * HOUR,
    dfp_points: random() < 0.3 ? null : Math.floor(random() * 6),
    register: random() < 0.5,
  };
});
const table = buildTable(events);
const ix = new TableIndexes(table);
const words = bitmapWords(N);

/** A random bit set over the rows: dense, sparse, or runs of whole words. */
function randomBits(): Int32Array {
  const bits = new Int32Array(words);
  const density = [0.9, 0.3, 0.02][Math.floor(random() * 3)];
  for (let w = 0; w < words; w++) {
    if (random() < 0.2) bits[w] = random() < 0.5 ? -1 : 0;
    else for (let b = 0; b < 32; b++) if (random() < density) bits[w] |= 1 << b;
  }
  if (N & 31) bits[words - 1] &= (1 << (N & 31)) - 1;
  return bits;
}

function sameAsListSieve(c: Condition): void {
  for (let round = 0; round < 20; round++) {
    const bits = randomBits();
    const count = bitCount(bits);
    const listed = c.filter(rowsIn(bits, 0, N));
    const left = c.sieveBits!(bits, count);
    expect([...rowsIn(bits, 0, N)]).toEqual([...listed]);
    expect(left).toBe(listed.length);
  }
}

const OPS: Comparison[] = ['exact', 'gt', 'gte', 'lt', 'lte'];

describe('sieving a bit set', () => {
  it('keeps the rows a span keeps, on every column shape', () => {
    expect(ix.numeric('end').shape).toBe('envelope');
    expect(ix.numeric('last_modified').shape).toBe('permutation');
    expect(ix.numeric('start').shape).toBe('monotone');
    for (const column of ['start', 'end', 'registration_end', 'last_modified', 'dfp_points'] as const) {
      const col = ix.numeric(column);
      const present = [...col.values].filter((v) => v === v);
      for (let k = 0; k < 12; k++) {
        const op = OPS[k % OPS.length];
        // a stored value, one beyond every value, or one between two
        const x = k === 10 ? Math.max(...present) + 1 : k === 11 ? -1 : present[Math.floor(random() * present.length)] + (k % 3 === 0 ? 0.5 : 0);
        sameAsListSieve(new SpanCondition(`${column}__${op}`, col, col.span(op, x), ix));
      }
    }
  });

  it('keeps the rows a flag keeps', () => {
    sameAsListSieve(new BoolCondition('register', 'register', true, ix));
    sameAsListSieve(new BoolCondition('register', 'register', false, ix));
  });
});
