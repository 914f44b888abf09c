import { describe, expect, it } from 'vitest';
import { readBoolColumn } from '../read/bool-column.ts';
import { FormatError } from '../format/sections.ts';
import { boolColumnFile, buildBoolColumn } from './bool-column.ts';

describe('boolean column file', () => {
  const flags = (n: number, seed: number) => Array.from({ length: n }, (_, i) => ((i * 2654435761 + seed) >>> 7) & 1);

  it('holds each value\'s rows as a list and as a bit set, read back as written', () => {
    for (const n of [0, 1, 31, 32, 33, 100, 1000]) {
      const values = flags(n, n);
      const read = readBoolColumn(boolColumnFile(buildBoolColumn(values)), n);
      expect([...read.values]).toEqual(values);
      for (const v of [0, 1] as const) {
        const listed = values.flatMap((x, r) => (x === v ? [r] : []));
        expect([...read.rows[v]]).toEqual(listed);
        const inBits = values.flatMap((_, r) => ((read.bits[v][r >>> 5] >>> (r & 31)) & 1 ? [r] : []));
        expect(inBits).toEqual(listed);
        expect(read.bits[v].length).toBe(Math.ceil(n / 32));
      }
    }
  });

  it('refuses a file whose bit sets are not its rows', () => {
    const made = buildBoolColumn(flags(70, 3));
    const moved = made.bits.map((b) => b.slice()) as [Int32Array, Int32Array];
    // a true row's bit moved to a false row: same count, other rows
    const t = made.rows[1][0];
    const f = made.rows[0][0];
    moved[1][t >>> 5] &= ~(1 << (t & 31));
    moved[1][f >>> 5] |= 1 << (f & 31);
    expect(() => readBoolColumn(boolColumnFile({ ...made, bits: moved }), 70)).toThrow(/bit sets are not its rows/);
    const extra = made.bits.map((b) => b.slice()) as [Int32Array, Int32Array];
    extra[0][2] |= 1 << 31; // past the 70 rows
    expect(() => readBoolColumn(boolColumnFile({ ...made, bits: extra }), 70)).toThrow(/bit sets are not its rows/);
  });

  it('refuses a file of another row count', () => {
    expect(() => readBoolColumn(boolColumnFile(buildBoolColumn(flags(40, 1))), 41)).toThrow(FormatError);
  });
});
