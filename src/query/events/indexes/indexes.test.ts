import { describe, expect, it } from 'vitest';
import { prng } from '../test-random.ts';
import { OrderedColumn } from './ordered-column.ts';
import { intersect, iota, restrict, RowBits, sortRows, unionAll } from './rowset.ts';
import { TrigramIndex } from './trigram.ts';
import { UNCOUNTED } from '../../work-tally.ts';
import { buildOrderedColumn } from '../../../store/write/ordered-column.ts';
import { buildTrigrams } from '../../../store/write/trigram-builder.ts';

const ordered = (values: Float64Array) => new OrderedColumn(buildOrderedColumn(values));
const trigrams = (values: string[], budget: number) => new TrigramIndex(buildTrigrams(values, budget));

const sortedSample = (r: ReturnType<typeof prng>, size: number, max: number) =>
  Uint32Array.from(new Set(Array.from({ length: size }, () => r.int(max)))).sort();

describe('row sets', () => {
  it('intersect agrees with a set intersection, merging or galloping', () => {
    const r = prng(3);
    for (let i = 0; i < 300; i++) {
      const a = sortedSample(r, r.int(50), 2000);
      const b = sortedSample(r, r.chance(0.5) ? r.int(50) : 500 + r.int(1500), 2000);
      const inB = new Set(b);
      expect([...intersect(a, b)]).toEqual([...a].filter((x) => inB.has(x)));
      expect([...intersect(b, a)]).toEqual([...a].filter((x) => inB.has(x)));
    }
  });

  it('restrict gives the members in [lo, hi) as a view', () => {
    const s = Uint32Array.of(1, 3, 5, 7, 9);
    const v = restrict(s, 3, 8);
    expect([...v]).toEqual([3, 5, 7]);
    expect(v.buffer).toBe(s.buffer);
    expect([...restrict(s, 10, 20)]).toEqual([]);
  });

  it('sortRows sorts and de-duplicates, leaving the bit set empty for the next use', () => {
    const bits = new RowBits(100);
    expect([...sortRows(Uint32Array.of(5, 1, 5, 99, 0), bits)]).toEqual([0, 1, 5, 99]);
    expect([...sortRows(Uint32Array.of(2, 4), bits)]).toEqual([2, 4]);
    expect([...bits.drain(0)]).toEqual([]);
    expect([...unionAll([Uint32Array.of(1, 2), Uint32Array.of(2, 3), Uint32Array.of()], bits)]).toEqual([1, 2, 3]);
    expect([...bits.drain(0)]).toEqual([]);
  });
});

describe('OrderedColumn', () => {
  it('answers ranges on a descending column with row slices', () => {
    const col = ordered(Float64Array.of(9, 7, 7, 5, 3));
    expect(col.shape).toBe('monotone');
    expect(col.span('exact', 7)).toEqual({ from: 1, to: 3 });
    expect(col.span('gt', 7)).toEqual({ from: 0, to: 1 });
    expect(col.span('gte', 7)).toEqual({ from: 0, to: 3 });
    expect(col.span('lt', 7)).toEqual({ from: 3, to: 5 });
    expect(col.span('lte', 7)).toEqual({ from: 1, to: 5 });
    expect(col.span('lt', Infinity)).toEqual({ from: 0, to: 5 });
    expect(col.span('gt', Infinity)).toEqual({ from: 0, to: 0 });
  });

  it('answers ranges on an unordered column with nulls through a permutation', () => {
    const values = Float64Array.of(4, NaN, 2, 4, 8, NaN, 1);
    const col = ordered(values);
    expect(col.shape).toBe('permutation');
    const all = iota(values.length);
    const bits = new RowBits(values.length);
    const scratch = new Uint32Array(values.length);
    const rows = (op: 'exact' | 'gt' | 'gte' | 'lt' | 'lte', x: number) => [...col.rows(col.span(op, x), all, bits, scratch)];
    expect(rows('exact', 4)).toEqual([0, 3]);
    expect(rows('gte', 2)).toEqual([0, 2, 3, 4]);
    expect(rows('lt', 4)).toEqual([2, 6]);
    expect(rows('lte', -Infinity)).toEqual([]);
    expect(rows('gt', -Infinity)).toEqual([0, 2, 3, 4, 6]); // never the nulls
    expect(col.bounds(col.span('gte', 2))).toEqual([2, 8]);
  });

  it('keeps a bounded number of computed results', () => {
    const r = prng(5);
    const n = 5000;
    const values = Float64Array.from({ length: n }, () => r.int(1_000_000));
    const col = ordered(values);
    const all = iota(n);
    const bits = new RowBits(n);
    const scratch = new Uint32Array(n);
    const first = col.rows(col.span('gte', 500_000), all, bits, scratch);
    expect(col.rows(col.span('gte', 500_000), all, bits, scratch)).toBe(first); // served from the cache
    for (let i = 0; i < 500; i++) {
      const x = r.int(1_000_000);
      const got = col.rows(col.span('lt', x), all, bits, scratch);
      expect(got.length).toBe(values.filter((v) => v < x).length);
    }
    // 4 rows' worth per table row at most, besides the permutation and its values
    expect(col.byteSize()).toBeLessThanOrEqual(n * 4 + n * 8 + 4 * n * 4);
  });
});

describe('TrigramIndex', () => {
  const values = ['workshop', 'work', 'shop', 'kardiologie', 'neurologie', ''];
  const ix = trigrams(values, 1 << 20);
  const run = (text: string, atStart = false, atEnd = false) => ({ kind: 'run' as const, text, atStart, atEnd });

  it('gives a superset of the values containing the pattern', () => {
    expect([...ix.candidates(run('shop'), UNCOUNTED)!]).toEqual([0, 2]);
    expect([...ix.candidates(run('work', true), UNCOUNTED)!]).toEqual([0, 1]);
    expect([...ix.candidates(run('logie', false, true), UNCOUNTED)!]).toEqual([3, 4]);
    expect([...ix.candidates({ kind: 'or', parts: [run('kard'), run('neur')] }, UNCOUNTED)!]).toEqual([3, 4]);
    expect([...ix.candidates({ kind: 'and', parts: [run('work'), run('shop')] }, UNCOUNTED)!]).toEqual([0]);
  });

  it('answers at once when a needed trigram occurs nowhere, and gives up on short patterns', () => {
    expect([...ix.candidates(run('xyz'), UNCOUNTED)!]).toEqual([]);
    expect(ix.estimate(run('xyz'), UNCOUNTED)).toBe(0);
    expect(ix.candidates(run('wo'), UNCOUNTED)).toBe(null);
    expect(ix.candidates({ kind: 'all' }, UNCOUNTED)).toBe(null);
    expect(ix.estimate(run('wo'), UNCOUNTED)).toBe(values.length);
  });

  it('spends the budget on the rarest trigrams and still knows the others exist', () => {
    const many = Array.from({ length: 200 }, (_, i) => `common text ${i % 7} rare${String.fromCharCode(0x4e00 + i)}`);
    const small = trigrams(many, 600);
    expect(small.coverage).toBeLessThan(0.2);
    expect(small.stats.unindexed).toBeGreaterThan(0);
    // a frequent trigram only: not narrowed down
    expect(small.candidates(run('common'), UNCOUNTED)).toBe(null);
    // absent: still nothing
    expect([...small.candidates(run('zzz'), UNCOUNTED)!]).toEqual([]);
    // a rare one is indexed
    expect([...small.candidates(run(`rare${String.fromCharCode(0x4e00 + 5)}`), UNCOUNTED)!]).toEqual([5]);
  });
});
