import { describe, expect, it } from 'vitest';
import { buildTextColumn, textColumnFile, type TextColumnOptions } from './text-column.ts';

/** A seeded column: repeated values, nulls, shared prefixes, case pairs (the folded order's ties), surrogates. */
function column(seed: number, rows: number): (string | null)[] {
  let s = seed;
  const next = () => (s = (s * 1103515245 + 12345) % 2 ** 31);
  const words = ['Kurs', 'kurs', 'Seminar', 'seminar', 'Tagung', 'Ärzte', 'arzte', 'Zürich', '😀 Fest', 'a', '', 'Kursus'];
  return Array.from({ length: rows }, () => {
    const r = next() % 20;
    if (r === 0) return null;
    return `${words[next() % words.length]}${r < 10 ? ` ${next() % 50}` : ''}`;
  });
}

describe('buildTextColumn with a previous sorted order', () => {
  it('makes the very file it makes without one, however far the hint is from the values', () => {
    const options: TextColumnOptions = { folded: true, trigramBudget: () => 1 << 20 };
    for (let seed = 1; seed <= 20; seed++) {
      const values = column(seed, 400);
      const plain = textColumnFile(buildTextColumn(values, options));
      const distinct = [...new Set(values.filter((v): v is string => v !== null))];
      const sorted = [...distinct].sort((a, b) => (a < b ? -1 : 1));
      const hints: string[][] = [
        sorted, // the values' own order
        [...sorted].reverse(), // the worst order
        sorted.filter((_, k) => k % 3 !== 0), // values the previous column had not
        ['zzz gone', ...sorted, 'Kurs 999', sorted[0] ?? 'x', 'aaa gone'], // values it had that are gone, repeated ones
        [], // nothing
        [...column(seed + 100, 400).filter((v): v is string => v !== null)], // another column's values, unsorted
      ];
      for (const hint of hints) {
        const file = textColumnFile(buildTextColumn(values, { ...options, sortedBefore: () => hint }));
        expect(Buffer.from(file).equals(Buffer.from(plain))).toBe(true);
      }
    }
  });

  it('takes the hint before the presort, to the same file', () => {
    const values = column(7, 300);
    const key = values.map((_, r) => (r * 7919) % 300);
    const options: TextColumnOptions = { folded: false, trigramBudget: () => null, presort: key };
    const plain = textColumnFile(buildTextColumn(values, options));
    const hinted = textColumnFile(buildTextColumn(values, { ...options, sortedBefore: () => ['Seminar 3', 'Kurs 1', 'a'] }));
    expect(Buffer.from(hinted).equals(Buffer.from(plain))).toBe(true);
  });
});
