import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseByPattern, parseTimestamp, readFixed } from './parse.ts';

const VIE = 'Europe/Vienna';
const at = (text: string) => parseTimestamp(text, VIE);
const instant = Date.UTC(2025, 4, 9, 14, 0, 0);

describe('parseTimestamp', () => {
  it.each([
    '2025-05-09T16:00:00+02:00',
    '2025-05-09T14:00:00Z',
    '2025-05-09T16:00:00+0200',
    '2025-05-09T16:00+02',
    '2025-05-09 16:00:00',
    '2025-05-09T16:00',
    '2025-05-09T15:00:00.000+01:00',
  ])('reads %s as the same instant', (text) => {
    expect(at(text)).toMatchObject({ ok: true, epochMs: instant, dateOnly: false });
  });
  it('reads a date alone as local midnight', () => {
    expect(at('2025-05-09')).toEqual({ ok: true, epochMs: Date.UTC(2025, 4, 8, 22), dateOnly: true });
  });
  it('keeps milliseconds of a fraction', () => {
    expect(at('2025-05-09T14:00:00.123456Z')).toMatchObject({ epochMs: instant + 123 });
  });
  it.each(['2025-13-01T00:00', '2025-02-29T10:00', '2025-05-09t16:00', 'garbage', '2025-05-09T24:00', '', '2025-05-09T16:00:00 02:00'])(
    'refuses %j',
    (text) => {
      expect(at(text)).toEqual({ ok: false, reason: 'invalid' });
    },
  );
  it('refuses naive times that DST makes ambiguous or skips, naming the local time', () => {
    expect(at('2025-10-26T02:30:00')).toEqual({ ok: false, reason: 'ambiguous', local: '2025-10-26 02:30:00' });
    expect(at('2025-03-30T02:30:00')).toEqual({ ok: false, reason: 'nonexistent', local: '2025-03-30 02:30:00' });
  });
  it('accepts the same wall times with an explicit offset', () => {
    expect(at('2025-10-26T02:30:00+01:00')).toMatchObject({ ok: true, epochMs: Date.UTC(2025, 9, 26, 1, 30) });
  });
});

describe('parseTimestamp: what the API can write', () => {
  it.each([
    ['9999-12-31T23:59:59-14:00', 'Europe/Berlin'], // 10000-01-01 in UTC
    ['9999-12-31T23:30:00Z', 'Europe/Berlin'], // 10000-01-01 in Berlin
    ['0000-06-01T12:00:00Z', 'UTC'],
    ['0000-01-01', 'UTC'],
    ['0001-01-01T00:00', 'Europe/Berlin'], // 0000-12-31T23:06:32Z
    ['0001-01-01T02:00:00Z', 'America/New_York'], // 0000-12-31 in New York
    ['9999-12-31T19:00', 'America/New_York'], // 10000-01-01 in UTC
  ])('refuses %s in %s as out of range', (text, zone) => {
    expect(parseTimestamp(text, zone)).toEqual({ ok: false, reason: 'range' });
  });
  it.each([
    ['9999-12-31T23:00', 'Europe/Berlin', '9999-12-31T22:00:00.000Z'],
    ['9999-12-31T18:59:59', 'America/New_York', '9999-12-31T23:59:59.000Z'],
    ['0001-01-01T10:00', 'Europe/Berlin', '0001-01-01T09:06:32.000Z'],
    ['0001-01-01T10:00:00+00:53:28', 'UTC', '0001-01-01T09:06:32.000Z'],
  ])('reads %s in %s up to the edges', (text, zone, utc) => {
    const r = parseTimestamp(text, zone);
    expect(r.ok && new Date(r.epochMs).toISOString()).toBe(utc);
  });
  it('reads offsets in seconds as Python writes them for local mean time', () => {
    expect(at('1890-05-09T16:00:00+01:05:21')).toMatchObject({ ok: true, epochMs: Date.UTC(1890, 4, 9, 14, 54, 39) });
    expect(at('1890-05-09T16:00:00+01:05:60')).toEqual({ ok: false, reason: 'invalid' });
    expect(at('1890-05-09T16:00:00+0105:21')).toEqual({ ok: false, reason: 'invalid' });
  });
});

describe('readFixed', () => {
  const ZONES = ['Europe/Vienna', 'America/New_York', 'Pacific/Kiritimati', 'UTC'];
  const p = (n: number, width = 2) => String(n).padStart(width, '0');

  it('agrees with the pattern on the forms it reads, whatever their numbers', () => {
    // every field out of range too (month 13, day 32, hour 24...), years near the ends of the range
    const year = fc.oneof(fc.integer({ min: 0, max: 9999 }), fc.constantFrom(0, 1, 99, 100, 1900, 2000, 2024, 9999));
    const offset = fc.oneof(
      fc.constant(''),
      fc.constant('Z'),
      fc.tuple(fc.constantFrom('+', '-'), fc.integer({ min: 0, max: 30 }), fc.integer({ min: 0, max: 70 })).map(([s, h, m]) => `${s}${p(h)}:${p(m)}`),
    );
    fc.assert(
      fc.property(
        fc.constantFrom(...ZONES), year, fc.integer({ min: 0, max: 13 }), fc.integer({ min: 0, max: 32 }), fc.integer({ min: 0, max: 24 }),
        fc.integer({ min: 0, max: 60 }), fc.integer({ min: 0, max: 60 }), fc.constantFrom('T', ' '), offset,
        // no seconds, seconds, or seconds with a fraction of 1 to 7 digits
        fc.oneof(fc.constant(null), fc.constant(''), fc.integer({ min: 0, max: 9_999_999 }).chain((f) => fc.integer({ min: 1, max: 7 }).map((n) => `.${String(f).padStart(7, '0').slice(0, n)}`))),
        (zone, y, mo, d, h, mi, s, sep, tz, fraction) => {
          const text = `${p(y, 4)}-${p(mo)}-${p(d)}${sep}${p(h)}:${p(mi)}${fraction === null ? '' : `:${p(s)}${fraction}`}${tz}`;
          expect(parseTimestamp(text, zone), `${text} in ${zone}`).toEqual(parseByPattern(text, zone));
        },
      ),
      { numRuns: 20_000 },
    );
  });

  it('agrees with the pattern when any one character of the form is another', () => {
    const base = '2024-02-29T23:59:59+01:00';
    const chars = ['0', '9', '-', ':', '.', 'T', ' ', 'Z', '+', 'x', '٣', '\u0000'];
    for (const text of [base, base.slice(0, 20).replace('+', 'Z'), base.slice(0, 19), '2024-02-29T23:59:59.999-03:30', '2024-02-29 23:59']) {
      for (let i = 0; i < text.length; i++) {
        for (const c of chars) {
          const odd = text.slice(0, i) + c + text.slice(i + 1);
          for (const zone of ZONES) expect(parseTimestamp(odd, zone), `${odd} in ${zone}`).toEqual(parseByPattern(odd, zone));
        }
      }
    }
  });

  it('reads only the fixed forms, leaving the rest (and years before 100) to the pattern', () => {
    expect(readFixed('2025-05-09T16:00:00+02:00')).toEqual({ wallMs: Date.UTC(2025, 4, 9, 16), offsetMs: 7_200_000 });
    expect(readFixed('2025-05-09 16:00:00Z')).toEqual({ wallMs: Date.UTC(2025, 4, 9, 16), offsetMs: 0 });
    expect(readFixed('2025-05-09 16:00:00')).toEqual({ wallMs: Date.UTC(2025, 4, 9, 16), offsetMs: null });
    expect(readFixed('2025-05-09T16:00')).toEqual({ wallMs: Date.UTC(2025, 4, 9, 16), offsetMs: null });
    expect(readFixed('2025-05-09T16:00:01.250-01:30')).toEqual({ wallMs: Date.UTC(2025, 4, 9, 16, 0, 1, 250), offsetMs: -5_400_000 });
    for (const text of ['2025-05-09T16:00:00.5Z', '2025-05-09T16:00:00.1234Z', '2025-05-09T16:00:00,250Z', '2025-05-09T16:00:00+0200', '2025-05-09T16:00:00+02', '2025-5-09T16:00:00', '0099-05-09T16:00:00Z', '2025-05-09']) {
      expect(readFixed(text), text).toBeUndefined();
    }
  });
});
