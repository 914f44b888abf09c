import { describe, expect, it } from 'vitest';
import { BLOCK_BYTES } from '../format/manifest.ts';
import { buildOrderedColumn, orderedColumnFile } from '../write/ordered-column.ts';
import { readOrderedColumn } from './ordered-column.ts';
import { FileNeeded } from './per-need.ts';
import { readInParts, type FileInParts } from './sections.ts';
import { DistError } from '../format/manifest.ts';

/** A file read in parts as an isolate reads it: a block is at hand once a round fetched it. */
function inParts(file: Uint8Array) {
  const fetched = new Set<number>();
  const parts: FileInParts = {
    need(ranges) {
      const missing: string[] = [];
      for (const [start, end] of ranges) {
        for (let b = Math.floor(start / BLOCK_BYTES); b * BLOCK_BYTES < end; b++) if (!fetched.has(b)) missing.push(String(b));
      }
      if (missing.length > 0) throw new FileNeeded(missing);
    },
    at(start, end) {
      this.need([[start, end]]);
      return file.slice(start, end);
    },
  };
  const standIn = readInParts(new Uint8Array(file.byteLength), parts);
  /** `answer()`, run again after each round of fetches, as the edge runs it */
  const run = <T>(answer: () => T): { value: T; rounds: number } => {
    for (let rounds = 0; ; rounds++) {
      try {
        return { value: answer(), rounds };
      } catch (e) {
        if (!(e instanceof FileNeeded)) throw e;
        for (const b of e.rels) fetched.add(Number(b));
      }
    }
  };
  return { standIn, run, fetched };
}

const fault = (problem: string) => new DistError(`damaged: ${problem}`);

/** The row of `id` as the whole file's lookup finds it: the smallest row of those equal to it. */
function expected(values: readonly number[], id: number): number | undefined {
  let best: number | undefined;
  values.forEach((v, row) => {
    if (v === id && best === undefined) best = row;
  });
  return best;
}

describe('a value\'s row in an ordered column read in parts', () => {
  const rows = 60_000;
  // ids in no order along the rows, with gaps and a few repeated
  const ids = Array.from({ length: rows }, (_, i) => 1000 + ((i * 7919) % rows) * 3 - (i % 97 === 0 ? 3 : 0));
  const file = orderedColumnFile(buildOrderedColumn(ids));

  it('is the row the whole column finds, for values present, absent, below, above and not numbers', () => {
    const probes = [ids[0], ids[1], ids[rows - 1], ids[12_345], 999, 1000, 1001, 1003, 1000 + rows * 3, 1000 + rows * 3 + 5, -Infinity, Infinity, NaN, 1000 + 3 * 29_999, 1000 + 3 * 30_000 + 1];
    for (const id of probes) {
      const parted = inParts(file);
      const column = parted.run(() => readOrderedColumn(parted.standIn, rows, fault)).value;
      const { value } = parted.run(() => column.search!.rowOf(id));
      expect(value, String(id)).toBe(expected(ids, id));
    }
  });

  it('fetches a few blocks of the column, not its values and order whole', () => {
    const parted = inParts(file);
    const column = parted.run(() => readOrderedColumn(parted.standIn, rows, fault)).value;
    const { value, rounds } = parted.run(() => column.search!.rowOf(ids[40_000]));
    expect(value).toBe(40_000);
    expect(rounds).toBeLessThanOrEqual(4);
    // the header's block, the ends of the values in order, a guess or two and its row's block of the order
    expect(parted.fetched.size).toBeLessThanOrEqual(8);
    expect(file.byteLength / BLOCK_BYTES).toBeGreaterThan(40);
  });

  it('reads a monotone column\'s own values, its position the row', () => {
    const descending = Array.from({ length: rows }, (_, i) => 5 * (rows - i) - (i % 5 === 0 ? 0 : 1) * (i % 2));
    const mono = orderedColumnFile(buildOrderedColumn(descending));
    for (const x of [descending[0], descending[rows - 1], descending[31_000], descending[31_001], 3, 5 * rows + 1, 0]) {
      const parted = inParts(mono);
      const column = parted.run(() => readOrderedColumn(parted.standIn, rows, fault)).value;
      expect(column.shape).toBe(0);
      expect(parted.run(() => column.search!.rowOf(x)).value, String(x)).toBe(expected(descending, x));
    }
  });

  it('finds a span\'s edges and values where a binary search over the whole column does', () => {
    const descending = Array.from({ length: rows }, (_, i) => 5 * (rows - i) - (i % 5 === 0 ? 0 : 1) * (i % 2));
    for (const [values, name] of [[ids, 'permutation'], [descending, 'monotone']] as const) {
      const whole = readOrderedColumn(orderedColumnFile(buildOrderedColumn(values)), rows);
      const sorted = whole.shape === 0 ? whole.values : whole.ordered;
      const down = whole.shape === 0;
      // the first place past the edge, by a scan: an oracle that shares nothing with a binary search
      const edge = (x: number, strict: boolean) => {
        const at = Array.prototype.findIndex.call(sorted, (v: number) => (down ? (strict ? v < x : v <= x) : strict ? v > x : v >= x));
        return at < 0 ? sorted.length : at;
      };
      for (const x of [values[0], values[777], values[rows - 1], 0, 999, 1000, 1001, 2.5, 1e12, -Infinity, Infinity, NaN, ...values.slice(40_000, 40_005)]) {
        for (const strict of [false, true]) {
          const parted = inParts(orderedColumnFile(buildOrderedColumn(values)));
          const column = parted.run(() => readOrderedColumn(parted.standIn, rows, fault)).value;
          const p = parted.run(() => column.search!.edge(x, strict)).value;
          expect(p, `${name} ${x} ${strict}`).toBe(edge(x, strict));
          if (p < sorted.length) expect(parted.run(() => column.search!.at(p)).value).toBe(sorted[p]);
        }
      }
    }
  });

  it('searches an envelope\'s minima and maxima as the whole arrays are searched, with nulls and without', () => {
    const near = Array.from({ length: rows }, (_, i) => (rows - i) * 10 + ((i * 7919) % 97));
    const withNulls = near.map((v, i) => (i % 11 === 3 ? NaN : v));
    for (const values of [near, withNulls]) {
      const whole = readOrderedColumn(orderedColumnFile(buildOrderedColumn(values)), rows);
      expect(whole.shape).toBe(1);
      const env = whole.envelope!;
      const first = (a: Float64Array, x: number, strict: boolean) => {
        let i = 0;
        while (i < a.length && !(strict ? a[i] < x : a[i] <= x)) i++;
        return i;
      };
      const parted = inParts(orderedColumnFile(buildOrderedColumn(values)));
      const column = parted.run(() => readOrderedColumn(parted.standIn, rows, fault)).value;
      const search = parted.run(() => column.envelope!.search!).value;
      expect(search.length).toBe(env.values.length);
      for (const of of ['prefixMin', 'suffixMax'] as const) {
        for (const x of [near[0] + 100, near[5], near[30_000], near[rows - 1], 0, -Infinity, Infinity]) {
          for (const strict of [false, true]) {
            const p = parted.run(() => search.edge(of, x, strict)).value;
            expect(p, `${of} ${x} ${strict}`).toBe(first(env[of], x, strict));
            if (p < env[of].length) expect(parted.run(() => search.at(of, p)).value).toBe(env[of][p]);
          }
        }
      }
      // the searches read a few blocks of the minima and maxima, not the arrays
      expect(parted.fetched.size).toBeLessThan(file.byteLength / BLOCK_BYTES / 4);
    }
  });

  it('names the file damaged for a row of the order past the rows', () => {
    const damaged = file.slice();
    const view = new DataView(damaged.buffer);
    // section 2 (the order): its entry in the section table, then every row of it past the end
    const orderAt = view.getUint32(16 + 2 * 8, true);
    for (let i = 0; i < rows; i++) view.setUint32(orderAt + 4 * i, rows + 1, true);
    const parted = inParts(damaged);
    const column = parted.run(() => readOrderedColumn(parted.standIn, rows, fault)).value;
    expect(() => parted.run(() => column.search!.rowOf(ids[7]))).toThrow(/damaged: .*order point outside it/);
  });
});
