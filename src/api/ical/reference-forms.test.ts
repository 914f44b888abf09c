// The value and date functions give the bytes their straightforward forms give, kept here as the
// reference: a value a fast path returns as it is, or a date made from a table of digits, is made
// the long way too. (lines.test.ts holds the tests of fold and escapeText against RFC 5545.)
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cleanValue, paramValue } from './lines.ts';
import { dateTimeValue, dateValue, utcValue } from './vtimezone.ts';

const reference = (() => {
  const CONTROLS = /[\x00-\x08\x0b-\x1f\x7f]/g;
  const NEWLINES = /\r\n?|\n/g;
  const cleanValue = (text: string) => text.replace(NEWLINES, ' ').replace(CONTROLS, '');
  const paramValue = (text: string) => {
    const escaped = text.replace(/\^/g, '^^').replace(NEWLINES, '^n').replace(/"/g, "^'").replace(CONTROLS, '');
    return /[;:,]/.test(escaped) ? `"${escaped}"` : escaped;
  };
  const pad = (n: number, width = 2) => String(n).padStart(width, '0');
  const dateValue = (d: Date) => `${pad(d.getUTCFullYear(), 4)}${pad(d.getUTCMonth() + 1)}${pad(d.getUTCDate())}`;
  const dateTimeValue = (d: Date) => `${dateValue(d)}T${pad(d.getUTCHours())}${pad(d.getUTCMinutes())}${pad(d.getUTCSeconds())}`;
  return { cleanValue, paramValue, dateValue, dateTimeValue };
})();

// what the values of a calendar hold: letters of 1, 2, 3 and 4 octets, combining marks, lone
// surrogates, line breaks, controls, tabs and every character a value or parameter changes
const units = fc.constantFrom(
  'a', 'Z', ' ', '0', ',', ';', ':', '\\', '"', '^', '\r', '\n', '\r\n', '\t', '\x00', '\x1f', '\x7f',
  'ä', 'ß', 'é', 'e\u0301', '\u0308', '\u20ac', '\u4e2d', '\u{1F389}', '\u{1F469}\u200d\u{1F4BB}', '\ud800', '\udc00', '\u2028', '\ufeff',
);
const text = fc.oneof(
  fc.string({ unit: units, maxLength: 400 }),
  fc.tuple(fc.string({ unit: fc.constantFrom('a', 'ä', '\u20ac', '\u{1F389}'), maxLength: 300 }), fc.string({ unit: units, maxLength: 20 })).map(([a, b]) => a + b),
  fc.string({ unit: 'binary', maxLength: 300 }),
  fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)), maxLength: 400 }),
);
const runs = { numRuns: 3000 };

describe('values against the reference forms', () => {
  it('cleanValue and paramValue', () => {
    fc.assert(
      fc.property(text, (t) => {
        expect(cleanValue(t)).toBe(reference.cleanValue(t));
        expect(paramValue(t)).toBe(reference.paramValue(t));
      }),
      runs,
    );
  });
});

describe('date values against the reference forms', () => {
  it('DATE, DATE-TIME and UTC DATE-TIME of any instant a Date holds, years before 1000 and after 9999 too', () => {
    const instants = fc.oneof(
      fc.integer({ min: -8.64e15, max: 8.64e15 }),
      // years 0…9999, where calendars' dates are
      fc.integer({ min: -62_167_219_200_000, max: 253_402_300_799_999 }),
      fc.constant(Number.NaN),
    );
    fc.assert(
      fc.property(instants, (t) => {
        const d = new Date(t);
        expect(dateValue(d)).toBe(reference.dateValue(d));
        expect(dateTimeValue(d)).toBe(reference.dateTimeValue(d));
        expect(utcValue(t)).toBe(`${reference.dateTimeValue(d)}Z`);
      }),
      runs,
    );
  });
});
