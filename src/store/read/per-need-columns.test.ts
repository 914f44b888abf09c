// Columns read per need (an edge isolate's): what a lookup does not read is not checked, what it
// reads is checked when first read (damage named by the fault, as damage found at load is), and
// the server, reading whole, still checks everything at load.
import { describe, expect, it } from 'vitest';
import { boolColumnFile, buildBoolColumn } from '../write/bool-column.ts';
import { buildOrderedColumn, orderedColumnFile } from '../write/ordered-column.ts';
import { HEADER_BYTES, SECTION_ENTRY_BYTES } from '../format/sections.ts';
import { ENVELOPE, PERMUTATION } from '../format/ordered-column-file.ts';
import { readBoolColumn } from './bool-column.ts';
import { readOrderedColumn } from './ordered-column.ts';
import { readRelationColumn } from './relation-column.ts';
import { buildRelationColumn, relationColumnFile } from '../write/relation-column.ts';
import { buildTextColumn, textColumnFile } from '../write/text-column.ts';
import { TEXT_SECTION } from '../format/text-column-file.ts';
import { readTextColumn } from './text-column.ts';
import { fold } from '../format/fold.ts';

const ROWS = 1000;
const fault = (problem: string) => new Error(`fault: ${problem}`);

/** A copy of `file` with the u32 at `index` of section `section` set to `value`. */
function withU32(file: Uint8Array, section: number, index: number, value: number): Uint8Array {
  const copy = file.slice();
  const view = new DataView(copy.buffer);
  const offset = view.getUint32(HEADER_BYTES + section * SECTION_ENTRY_BYTES, true);
  view.setUint32(offset + index * 4, value, true);
  return copy;
}

describe('a boolean column read per need', () => {
  const flags = Array.from({ length: ROWS }, (_, r) => ((r * 7) % 3 === 0 ? 1 : 0));
  const file = boolColumnFile(buildBoolColumn(flags));

  it('gives the rows and bits read whole', () => {
    const whole = readBoolColumn(file, ROWS);
    const lazy = readBoolColumn(file, ROWS, fault);
    for (const v of [0, 1] as const) {
      expect([...lazy.rows[v]]).toEqual([...whole.rows[v]]);
      expect([...lazy.bits[v]]).toEqual([...whole.bits[v]]);
    }
    expect(lazy.rows[1]).toHaveLength(flags.filter((f) => f === 1).length);
  });

  it('checks a value\'s bits when first read, not its rows: the server refuses them at load', () => {
    // the true bits lose a row the true rows list (section 5: bits of true)
    const first = flags.indexOf(1);
    const bits = buildBoolColumn(flags).bits[1];
    const damaged = withU32(file, 5, first >>> 5, bits[first >>> 5] & ~(1 << (first & 31)));
    expect(() => readBoolColumn(damaged, ROWS)).toThrow('a boolean column file whose bit sets are not its rows');
    const lazy = readBoolColumn(damaged, ROWS, fault);
    expect(lazy.rows[1][0]).toBe(first);
    expect(lazy.bits[0].length).toBeGreaterThan(0);
    expect(() => lazy.bits[1]).toThrow('fault: a boolean column file whose bit sets are not its rows');
  });

  it('checks a value\'s rows when first read', () => {
    // a false row past the rows (section 2: rows of false)
    const damaged = withU32(file, 2, 0, ROWS + 5);
    expect(() => readBoolColumn(damaged, ROWS)).toThrow('a boolean column file whose rows of false point outside it');
    const lazy = readBoolColumn(damaged, ROWS, fault);
    expect(lazy.rows[1].length).toBeGreaterThan(0);
    expect(() => lazy.rows[0]).toThrow('fault: a boolean column file whose rows of false point outside it');
  });
});

describe('an ordered column read per need', () => {
  it('checks its order when first read: a range that scans the values reads it not', () => {
    const values = Array.from({ length: ROWS }, (_, r) => (r * 7919) % 1013);
    const file = orderedColumnFile(buildOrderedColumn(values));
    const whole = readOrderedColumn(file, ROWS);
    expect(whole.shape).toBe(PERMUTATION);
    expect([...readOrderedColumn(file, ROWS, fault).order]).toEqual([...whole.order]);
    // a row past the rows in the order (section 2)
    const damaged = withU32(file, 2, 3, ROWS + 1);
    expect(() => readOrderedColumn(damaged, ROWS)).toThrow('an ordered column file whose order point outside it');
    const lazy = readOrderedColumn(damaged, ROWS, fault);
    expect([...lazy.values]).toEqual([...whole.values]);
    expect(() => lazy.order).toThrow('fault: an ordered column file whose order point outside it');
  });

  it("checks an envelope's rows when first read", () => {
    // close to the row order, with nulls: an envelope over the non-null rows (a column long enough to be given one)
    const N = 2000;
    const values = Array.from({ length: N }, (_, r) => (r % 10 === 3 ? NaN : 5000 - r + (r % 4)));
    const file = orderedColumnFile(buildOrderedColumn(values));
    const whole = readOrderedColumn(file, N);
    expect(whole.shape).toBe(ENVELOPE);
    expect(whole.envelope!.rows).not.toBeNull();
    expect([...readOrderedColumn(file, N, fault).envelope!.rows!]).toEqual([...whole.envelope!.rows!]);
    const damaged = withU32(file, 4, 0, N);
    expect(() => readOrderedColumn(damaged, N)).toThrow('an ordered column file whose envelope rows point outside it');
    const lazy = readOrderedColumn(damaged, N, fault);
    expect(lazy.envelope!.prefixMin.length).toBe(whole.envelope!.prefixMin.length);
    expect(() => lazy.envelope!.rows).toThrow('fault: an ordered column file whose envelope rows point outside it');
  });
});

describe('a relation column read per need', () => {
  it("checks the rows' lists of ids when first read: the rows of an id read without them", () => {
    const lists = Array.from({ length: ROWS }, (_, r) => (r % 5 === 0 ? [] : [1 + (r % 3), 10 + (r % 7)]));
    const file = relationColumnFile(buildRelationColumn(lists));
    const whole = readRelationColumn(file, ROWS);
    const lazy = readRelationColumn(file, ROWS, fault);
    expect(lazy.at(7)).toEqual(whole.at(7));
    expect([...lazy.rowStart]).toEqual([...whole.rowStart]);
    // a row list that ends before it starts (section 1: row lists)
    const damaged = withU32(file, 1, 3, 0);
    expect(() => readRelationColumn(damaged, ROWS)).toThrow('a relation column file whose row lists do not fit its lists');
    const bad = readRelationColumn(damaged, ROWS, fault);
    expect([...bad.idRows.subarray(bad.idRowStart[0], bad.idRowStart[1])]).toEqual([...whole.idRows.subarray(whole.idRowStart[0], whole.idRowStart[1])]);
    expect(() => bad.rowStart).toThrow('fault: a relation column file whose row lists do not fit its lists');
    expect(() => bad.at(7)).toThrow('fault: a relation column file whose row lists do not fit its lists');
  });
});

describe('a text column read per need', () => {
  const texts = Array.from({ length: ROWS }, (_, r) => (r % 9 === 0 ? null : `Kurs ${r % 40} – Straße`));
  const file = textColumnFile(buildTextColumn(texts, { folded: true, trigramBudget: () => 1 << 20 }));

  it("checks a string table's offsets when a string of it is first asked for, not when the column is read", () => {
    // the values' byte offsets out of order (section values + 1: UTF-16 starts, then byte starts)
    const valueCount = readTextColumn(file, ROWS).values.length;
    const damaged = withU32(file, TEXT_SECTION.values + 1, valueCount + 2, 0xfffffff);
    const lazy = readTextColumn(damaged, ROWS, fault);
    // the rows of a value, and the folded table, read without the values' offsets
    expect(lazy.valueRows.length).toBe(texts.filter((t) => t !== null).length);
    expect(lazy.folded!.at(0)).toBe(fold(texts[1]!));
    expect(lazy.values.length).toBe(valueCount);
    expect(() => lazy.values.at(0)).toThrow('fault: a text column file whose values byte offsets do not fit its lists');
    expect(() => lazy.at(1)).toThrow('fault: a text column file whose values byte offsets do not fit its lists');
  });
});
