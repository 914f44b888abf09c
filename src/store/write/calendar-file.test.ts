import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CALENDAR_FORMAT, entryOf } from '../format/calendar-file.ts';
import { calendarOfParts, readCalendarFile } from '../read/calendar-file.ts';
import { calendarFile, calendarPart, type CalendarSource } from './calendar-file.ts';
import { meta, packSections } from './sections.ts';

const text = fc.string({ unit: fc.constantFrom('a', 'ä', '€', '\u{1F389}', '\ud800', '\r\n'), maxLength: 30 });

/** Parts of `rows` rows, `partRows` a part (the last the rest), as a manifest lists them. */
const cutOf = (rows: number, partRows: number) => Array.from({ length: Math.max(1, Math.ceil(rows / partRows)) }, (_, j) => ({ name: String(j), rows: Math.max(0, Math.min(partRows, rows - j * partRows)) }));

/** The parts of `rows` rows, `partRows` a part, from `source` (`firsts`: the previous parts'). */
const partsOf = (rows: number, partRows: number, source: CalendarSource) =>
  cutOf(rows, partRows).map((_, j) => calendarPart(j * partRows, Math.min((j + 1) * partRows, rows), source));

const textsOf = (parts: Uint8Array[], rows: number, partRows: number) => {
  const c = calendarOfParts(cutOf(rows, partRows), (i) => parts[i]);
  return Array.from({ length: rows }, (_, r) => Buffer.from(entryOf(c, r)).toString('utf8'));
};

describe('the calendar parts as written', () => {
  it('hold each row\'s entry, made here (text or bytes) or taken from a previous part, whatever the order, the rows and the parts\' size', () => {
    fc.assert(
      fc.property(fc.array(text, { maxLength: 50 }), fc.array(fc.tuple(fc.integer({ min: -1, max: 60 }), text), { maxLength: 60 }), fc.integer({ min: 1, max: 9 }), fc.integer({ min: 1, max: 9 }), (was, next, oldRows, partRows) => {
        const oldParts = partsOf(was.length, oldRows, { order: null, previous: null, firsts: [0], fresh: (r) => (r % 2 ? was[r] : new TextEncoder().encode(was[r])) });
        const oldCut = cutOf(was.length, oldRows);
        const previous = (p: number) => readCalendarFile(oldParts[p], oldCut[p].rows);
        const order = next.map(([from]) => (from < was.length ? from : -1));
        const want = next.map(([, t], i) => (order[i] >= 0 ? was[order[i]] : t)).map((t) => Buffer.from(t).toString('utf8'));
        const firsts = [...oldCut.map((_, j) => j * oldRows), was.length];
        expect(textsOf(partsOf(order.length, partRows, { order, previous, firsts, fresh: (i) => next[i][1] }), order.length, partRows)).toEqual(want);
      }),
      { numRuns: 300 },
    );
  });

  it('writes more rows than a block in several pieces, the same bytes, a row made again among the previous part\'s', () => {
    const rows = 10_000;
    const entry = (r: number) => `entry ${r}${'ä'.repeat(r % 7)}\r\n`;
    const file = calendarFile(rows, entry);
    expect(textsOf([file], rows, rows)).toEqual(Array.from({ length: rows }, (_, r) => entry(r)));
    const old = readCalendarFile(file, rows);
    const order = Int32Array.from({ length: rows }, (_, i) => (i === 5000 ? -1 : i));
    expect(Buffer.from(calendarPart(0, rows, { order, previous: () => old, firsts: [0, rows], fresh: () => entry(5000) })).equals(Buffer.from(file))).toBe(true);
  });

  it('is the header, the starts and the entries packed as sections, entries larger than the first guess among them', () => {
    const entries = Array.from({ length: 300 }, (_, r) => `BEGIN ${r} ${'x€'.repeat(r % 5 === 0 ? 3000 : r)}\r\n`);
    const starts = new Uint32Array(entries.length + 1);
    entries.forEach((e, r) => (starts[r + 1] = starts[r] + Buffer.byteLength(e)));
    const want = packSections(CALENDAR_FORMAT, [meta(entries.length), starts, Buffer.from(entries.join(''))]);
    expect(Buffer.from(calendarFile(entries.length, (r) => entries[r])).equals(Buffer.from(want))).toBe(true);
  });

  it('a part of another row count than its event part\'s is refused', () => {
    expect(() => calendarOfParts([{ name: '1', rows: 2 }, { name: '3', rows: 1 }], () => calendarFile(2, () => 'x'))).toThrow(/of 2 rows, not the 1 of its event part/);
  });
});
