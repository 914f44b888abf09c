// Each column splice against the column made whole from the same values in the new order: rows
// added and removed at the first row, the last and in between, with values new to the column,
// values that vanish with their last row, values whose first row moves, and nulls.
import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../../util/mulberry32.ts';
import { readBoolColumn } from '../read/bool-column.ts';
import { readOrderedColumn } from '../read/ordered-column.ts';
import { readRelationColumn } from '../read/relation-column.ts';
import { readTextColumn } from '../read/text-column.ts';
import { boolColumnFile, buildBoolColumn } from './bool-column.ts';
import { newPlaces, splicedFlags, splicedOrderedColumn, splicedRelationColumn, splicedTextColumn } from './column-splice.ts';
import { buildOrderedColumn, orderedColumnFile } from './ordered-column.ts';
import { buildRelationColumn, relationColumnFile } from './relation-column.ts';
import { buildTextColumn, textColumnFile } from './text-column.ts';

type Random = () => number;
const pick = <T>(random: Random, list: readonly T[]): T => list[Math.floor(random() * list.length)];

/** A previous list of `n` rows and a new order of it: rows removed and added at `where`, the rest kept in order. */
function edit(random: Random, n: number, where: 'first' | 'last' | 'between' | 'anywhere', removals: number, insertions: number): { order: Int32Array; fresh: number } {
  const at = () => (where === 'first' ? 0 : where === 'last' ? n : where === 'between' ? 1 + Math.floor(random() * Math.max(1, n - 1)) : Math.floor(random() * (n + 1)));
  const kept = new Uint8Array(n).fill(1);
  for (let k = 0; k < removals && n > 0; k++) kept[Math.min(n - 1, where === 'last' ? n - 1 - k : at())] = 0;
  // each previous row, then the new rows placed before it (or at the end)
  const before = Array.from({ length: n + 1 }, () => 0);
  for (let k = 0; k < insertions; k++) before[at()]++;
  const order: number[] = [];
  let fresh = 0;
  for (let r = 0; r <= n; r++) {
    for (let k = 0; k < before[r]; k++) order.push(-++fresh);
    if (r < n && kept[r]) order.push(r);
  }
  return { order: Int32Array.from(order), fresh };
}

const WHERE = ['first', 'last', 'between', 'anywhere'] as const;

/** Cases: every place, removals only, insertions only, both; seeded. */
function* cases(): Generator<{ seed: number; where: (typeof WHERE)[number]; removals: number; insertions: number }> {
  let seed = 1;
  for (const where of WHERE) {
    for (const [removals, insertions] of [[1, 0], [0, 1], [1, 1], [3, 2], [0, 4], [5, 0]]) yield { seed: seed++, where, removals, insertions };
  }
}

/** Strings drawn from a small pool (values repeat), some unique (values vanish and appear), some null; letters that fold. */
function texts(random: Random, count: number, tag: string): (string | null)[] {
  const pool = ['Wien', 'wien', 'Graz', 'Linz', 'Ärztekammer', 'ärztekammer', 'Saal 1', 'Saal 10', 'Saal 2', '', 'Zürich', 'a\u00ad b', '\ud83d\ude00 Feier'];
  return Array.from({ length: count }, (_, i) => {
    const x = random();
    if (x < 0.1) return null;
    if (x < 0.5) return pick(random, pool);
    return `${pick(random, pool)} ${tag}${i} ${Math.floor(random() * 5)}`;
  });
}

const spliced = <T>(order: Int32Array, old: readonly T[], fresh: readonly T[]): T[] => Array.from(order, (from) => (from >= 0 ? old[from] : fresh[-from - 1]));
const same = (a: Uint8Array, b: Uint8Array) => Buffer.from(a).equals(Buffer.from(b));

describe('column splices give the column made whole', () => {
  for (const c of cases()) {
    const label = `${c.where}: ${c.removals} removed, ${c.insertions} added (seed ${c.seed})`;

    it(`text columns, folded with trigrams and plain: ${label}`, () => {
      const random = mulberry32(c.seed);
      const n = 40 + Math.floor(random() * 60);
      const old = texts(random, n, 'old');
      const { order, fresh: count } = edit(random, n, c.where, c.removals, c.insertions);
      const fresh = texts(random, count, 'new');
      const after = spliced(order, old, fresh);
      for (const folded of [true, false]) {
        // every column gets trigrams here (a budget for any count), as a large one does
        const options = { folded, trigramBudget: (values: number) => (folded ? 64 + values * 8 : null) };
        const before = readTextColumn(textColumnFile(buildTextColumn(old, options)), n);
        const made = textColumnFile(splicedTextColumn(before, fresh, order, options));
        expect(same(made, textColumnFile(buildTextColumn(after, options))), `folded ${folded}`).toBe(true);
        // with word lists (any length has them here), the string tables and lists spliced from the
        // previous file's bytes, and the alphabet counted from them; the previous column read per need
        const file = textColumnFile(buildTextColumn(old, options), 1);
        const fromBytes = textColumnFile(splicedTextColumn(readTextColumn(file, n, (problem) => new Error(problem)), fresh, order, options, file), 1, file);
        expect(same(fromBytes, textColumnFile(buildTextColumn(after, options), 1)), `folded ${folded}, from the previous bytes`).toBe(true);
      }
    });

    it(`numeric, boolean and relation columns: ${label}`, () => {
      const random = mulberry32(1000 + c.seed);
      const n = 1100 + Math.floor(random() * 200); // past the envelope's least rows
      const value = (i: number) => (random() < 0.05 ? NaN : random() < 0.3 ? Math.floor(random() * 4) : 1e12 - i * 1000 + Math.floor(random() * 3000));
      const old = Array.from({ length: n }, (_, i) => value(i));
      const { order, fresh: count } = edit(random, n, c.where, c.removals, c.insertions);
      const fresh = Array.from({ length: count }, () => value(Math.floor(random() * n)));
      const { now } = newPlaces(order, n);
      const before = readOrderedColumn(orderedColumnFile(buildOrderedColumn(old)), n);
      expect(same(orderedColumnFile(splicedOrderedColumn(before, fresh, order, now)), orderedColumnFile(buildOrderedColumn(spliced(order, old, fresh))))).toBe(true);
      // a descending column (the list's start): the monotone shape, kept or lost
      const falling = Array.from({ length: n }, (_, i) => 1e12 - i);
      const freshFalling = Array.from({ length: count }, () => 1e12 - Math.floor(random() * n));
      const monotone = readOrderedColumn(orderedColumnFile(buildOrderedColumn(falling)), n);
      expect(same(orderedColumnFile(splicedOrderedColumn(monotone, freshFalling, order, now)), orderedColumnFile(buildOrderedColumn(spliced(order, falling, freshFalling))))).toBe(true);

      const flags = Array.from({ length: n }, () => (random() < 0.3 ? 1 : 0));
      const freshFlags = Array.from({ length: count }, () => (random() < 0.5 ? 1 : 0));
      const bools = readBoolColumn(boolColumnFile(buildBoolColumn(flags)), n);
      expect(same(boolColumnFile(buildBoolColumn(splicedFlags(bools, freshFlags, order))), boolColumnFile(buildBoolColumn(spliced(order, flags, freshFlags))))).toBe(true);

      // ids that vanish and appear (some rows' own), an id listed twice on a row
      const list = () => Array.from({ length: Math.floor(random() * 4) }, () => (random() < 0.05 ? 1000 + Math.floor(random() * 5000) : 1 + Math.floor(random() * 30)));
      const lists = Array.from({ length: n }, list);
      const freshLists = Array.from({ length: count }, list);
      const relation = readRelationColumn(relationColumnFile(buildRelationColumn(lists)), n);
      expect(same(relationColumnFile(splicedRelationColumn(relation, freshLists, order, now)), relationColumnFile(buildRelationColumn(spliced(order, lists, freshLists))))).toBe(true);
    });
  }

  it('orders values that fold alike by their new numbers where a first row moves ahead or behind', () => {
    const options = { folded: true, trigramBudget: () => null };
    const old = ['Wien', 'Graz', 'wien', 'WIEN', 'Linz', 'graz', 'Wien'];
    const check = (order: number[], fresh: (string | null)[]) => {
      const before = readTextColumn(textColumnFile(buildTextColumn(old, options)), old.length);
      const o = Int32Array.from(order);
      expect(same(textColumnFile(splicedTextColumn(before, fresh, o, options)), textColumnFile(buildTextColumn(spliced(o, old, fresh), options))), order.join()).toBe(true);
    };
    check([-1, 0, 1, 2, 3, 4, 5, 6], ['WIEN']); // 'WIEN' first now: ahead of 'Wien' and 'wien'
    check([-1, 0, 1, 2, 3, 4, 5, 6], ['graz']);
    check([1, 2, 3, 4, 5, 6], []); // 'Wien' first at its second row: behind 'wien'
    check([0, 1, 3, 4, 5, 6, -1], ['wien']);
  });

  it('finds where the previous rows went', () => {
    expect(newPlaces(Int32Array.from([0, 1, -1, 2, 4]), 5)).toEqual({ now: Int32Array.from([0, 1, 3, -1, 4]), firstMoved: 2 });
  });
});
