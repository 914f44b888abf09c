import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CALENDAR_FORMAT, entryOf } from '../format/calendar-file.ts';
import { readCalendarFile } from '../read/calendar-file.ts';
import { calendarFile, calendarFileReusing } from './calendar-file.ts';
import { meta, packSections } from './sections.ts';

const text = fc.string({ unit: fc.constantFrom('a', 'ä', '€', '\u{1F389}', '\ud800', '\r\n'), maxLength: 30 });
const bytesOf = (file: Uint8Array, rows: number) => {
  const c = readCalendarFile(file, rows);
  return Array.from({ length: rows }, (_, r) => Buffer.from(entryOf(c, r)).toString('utf8'));
};

describe('data/calendar.bin as written', () => {
  it('holds each row\'s entry, made here (text or bytes) or taken from a previous file, whatever the order and however many rows', () => {
    fc.assert(
      fc.property(fc.array(text, { maxLength: 50 }), fc.array(fc.tuple(fc.integer({ min: -1, max: 60 }), text), { maxLength: 60 }), (was, next) => {
        const old = readCalendarFile(calendarFile(was.length, (r) => (r % 2 ? was[r] : new TextEncoder().encode(was[r]))), was.length);
        const order = next.map(([from]) => (from < was.length ? from : -1));
        const want = next.map(([, t], i) => (order[i] >= 0 ? was[order[i]] : t)).map((t) => Buffer.from(t).toString('utf8'));
        expect(bytesOf(calendarFileReusing(order.length, old, order, (i) => next[i][1]), order.length)).toEqual(want);
      }),
      { numRuns: 300 },
    );
  });

  it('writes more rows than a block in several pieces, the same bytes', () => {
    const rows = 10_000;
    const entry = (r: number) => `entry ${r}${'ä'.repeat(r % 7)}\r\n`;
    const file = calendarFile(rows, entry);
    expect(bytesOf(file, rows)).toEqual(Array.from({ length: rows }, (_, r) => entry(r)));
    const old = readCalendarFile(file, rows);
    const order = Int32Array.from({ length: rows }, (_, i) => (i === 5000 ? -1 : i));
    expect(Buffer.from(calendarFileReusing(rows, old, order, () => entry(5000))).equals(Buffer.from(file))).toBe(true);
  });

  it('is the header, the starts and the entries packed as sections, entries larger than the first guess among them', () => {
    const entries = Array.from({ length: 300 }, (_, r) => `BEGIN ${r} ${'x€'.repeat(r % 5 === 0 ? 3000 : r)}\r\n`);
    const starts = new Uint32Array(entries.length + 1);
    entries.forEach((e, r) => (starts[r + 1] = starts[r] + Buffer.byteLength(e)));
    const want = packSections(CALENDAR_FORMAT, [meta(entries.length), starts, Buffer.from(entries.join(''))]);
    expect(Buffer.from(calendarFile(entries.length, (r) => entries[r])).equals(Buffer.from(want))).toBe(true);
  });
});
