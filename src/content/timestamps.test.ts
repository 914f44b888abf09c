import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseByPattern, parseTimestamp } from '../time/parse.ts';
import { readTimestamp } from './timestamps.ts';

// Zones with DST gaps and repeats, a half-hour DST (Lord Howe), a skipped calendar day
// (Apia, 2011-12-30), a zone without DST and negative offsets.
const ZONES = ['Europe/Vienna', 'America/New_York', 'Australia/Lord_Howe', 'Pacific/Apia', 'Asia/Kolkata', 'America/Sao_Paulo', 'UTC'];
// Days around transitions in those zones, and ordinary days.
const DAYS = [
  '2025-03-30', '2025-10-26', '2025-03-09', '2025-11-02', '2025-04-06', '2025-10-05', '2011-12-29', '2011-12-30',
  '2011-12-31', '2018-11-04', '2019-02-16', '2025-05-12', '1916-04-30', '1893-04-01',
];

describe('readTimestamp', () => {
  it('agrees with parseTimestamp on naive times around DST changes', () => {
    const time = fc.tuple(fc.integer({ min: 0, max: 23 }), fc.integer({ min: 0, max: 59 }), fc.integer({ min: 0, max: 59 }));
    const form = fc.constantFrom('T', ' ');
    fc.assert(
      fc.property(fc.constantFrom(...ZONES), fc.constantFrom(...DAYS), time, form, (zone, day, [h, m, s], sep) => {
        const p = (n: number) => String(n).padStart(2, '0');
        for (const text of [`${day}${sep}${p(h)}:${p(m)}:${p(s)}`, `${day}${sep}${p(h)}:${p(m)}`, `${day}T${p(h)}:${p(m)}:${p(s)}.250`]) {
          expect(readTimestamp(text, zone), `${text} in ${zone}`).toEqual(parseTimestamp(text, zone));
        }
      }),
      { numRuns: 3000 },
    );
  });

  it('agrees on every quarter hour of transition days', () => {
    for (const zone of ZONES) {
      for (const day of DAYS) {
        for (let q = 0; q < 96; q++) {
          const text = `${day}T${String(Math.floor(q / 4)).padStart(2, '0')}:${String((q % 4) * 15).padStart(2, '0')}`;
          expect(readTimestamp(text, zone), `${text} in ${zone}`).toEqual(parseTimestamp(text, zone));
        }
      }
    }
  });

  it('agrees with the pattern itself on the fixed form, years near the ends of the range included', () => {
    for (const zone of ZONES) {
      for (const day of [...DAYS, '0100-01-01', '0001-01-01', '9999-12-31', '2024-02-29', '1900-02-29']) {
        for (const time of ['00:00:00', '12:34:56', '23:59:59', '23:59', '07:08:09.010']) {
          const text = `${day} ${time}`;
          expect(readTimestamp(text, zone), `${text} in ${zone}`).toEqual(parseByPattern(text, zone));
        }
      }
    }
  });

  it('agrees on other forms: offsets, dates alone, malformed text', () => {
    for (const text of ['2025-05-12T10:00:00+02:00', '2025-05-12T10:00Z', '2025-05-12', '2025-5-12T10:00', '2025-05-12T10:00 ', '2025-05-12T25:00', '2025-02-30T10:00', 'nope', '']) {
      expect(readTimestamp(text, 'Europe/Vienna'), text).toEqual(parseTimestamp(text, 'Europe/Vienna'));
    }
  });
});
