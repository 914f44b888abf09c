import { describe, expect, it } from 'vitest';
import { parseTimestamp } from './parse.ts';
import { formatInstant, isValidZone, localToInstant, offsetAt } from './zone.ts';

const VIE = 'Europe/Vienna';

describe('formatInstant', () => {
  it('writes the zone offset in force at the instant', () => {
    expect(formatInstant(Date.UTC(2025, 4, 9, 14, 0, 0), VIE)).toBe('2025-05-09T16:00:00+02:00');
    expect(formatInstant(Date.UTC(2025, 0, 9, 14, 0, 0), VIE)).toBe('2025-01-09T15:00:00+01:00');
  });
  it('writes UTC as Z and fractions as microseconds, like DRF', () => {
    expect(formatInstant(Date.UTC(2025, 0, 1, 0, 0, 0, 5), 'UTC')).toBe('2025-01-01T00:00:00.005000Z');
  });
  it('handles negative and half-hour offsets', () => {
    expect(formatInstant(Date.UTC(2025, 6, 1, 12), 'America/New_York')).toBe('2025-07-01T08:00:00-04:00');
    expect(formatInstant(Date.UTC(2025, 6, 1, 12), 'Asia/Kolkata')).toBe('2025-07-01T17:30:00+05:30');
  });
});

describe('localToInstant', () => {
  const t = (month: number, day: number, hour: number, minute = 30) =>
    ({ year: 2025, month, day, hour, minute, second: 0, millisecond: 0 });
  it('resolves ordinary local times', () => {
    expect(localToInstant(t(5, 9, 16, 0), VIE)).toEqual({ ok: true, epochMs: Date.UTC(2025, 4, 9, 14) });
  });
  it('refuses a time skipped by the spring change', () => {
    expect(localToInstant(t(3, 30, 2), VIE)).toEqual({ ok: false, reason: 'nonexistent' });
  });
  it('refuses a time repeated by the autumn change', () => {
    expect(localToInstant(t(10, 26, 2), VIE)).toEqual({ ok: false, reason: 'ambiguous' });
  });
  it('accepts the minutes around the changes', () => {
    expect(localToInstant(t(3, 30, 3, 0), VIE)).toEqual({ ok: true, epochMs: Date.UTC(2025, 2, 30, 1) });
    expect(localToInstant(t(10, 26, 3, 0), VIE)).toEqual({ ok: true, epochMs: Date.UTC(2025, 9, 26, 2) });
  });
});

describe('zones', () => {
  it('knows valid IANA names and rejects others', () => {
    expect(isValidZone(VIE)).toBe(true);
    expect(isValidZone('Europe/Viena')).toBe(false);
    expect(isValidZone('')).toBe(false);
  });
  it('takes what a formatter takes: every canonical name, and aliases and other spellings too', () => {
    const formatterTakes = (zone: string) => {
      try {
        new Intl.DateTimeFormat('en-US', { timeZone: zone, timeZoneName: 'longOffset' });
        return true;
      } catch {
        return false;
      }
    };
    for (const zone of [...Intl.supportedValuesOf('timeZone'), 'UTC', 'Etc/GMT+5', 'Asia/Calcutta', 'europe/vienna', 'Mars/Olympus']) {
      expect(isValidZone(zone), zone).toBe(formatterTakes(zone));
    }
    expect(isValidZone('UTC')).toBe(true);
  });
  it('reports offsets in milliseconds', () => {
    expect(offsetAt(Date.UTC(2025, 0, 1), VIE)).toBe(3_600_000);
  });
});

describe('offsets around transitions', () => {
  it('agree with Intl minute by minute across both DST changes of a year', () => {
    const fmt = new Intl.DateTimeFormat('en-US', { timeZone: VIE, timeZoneName: 'longOffset' });
    const intlOffset = (ms: number) => {
      const name = fmt.formatToParts(new Date(ms)).find((p) => p.type === 'timeZoneName')!.value;
      const m = /GMT([+-])(\d\d):(\d\d)/.exec(name);
      return m ? (m[1] === '-' ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3])) * 60_000 : 0;
    };
    for (const change of [Date.UTC(2025, 2, 30, 1), Date.UTC(2025, 9, 26, 1)]) {
      for (let ms = change - 2 * 3_600_000; ms <= change + 2 * 3_600_000; ms += 60_000) {
        expect(offsetAt(ms, VIE), new Date(ms).toISOString()).toBe(intlOffset(ms));
        expect(offsetAt(ms + 59_999, VIE)).toBe(intlOffset(ms + 59_999));
      }
    }
  });
  it('formats the instants just before and after a change with the right offset', () => {
    expect(formatInstant(Date.UTC(2025, 2, 30, 0, 59, 59), VIE)).toBe('2025-03-30T01:59:59+01:00');
    expect(formatInstant(Date.UTC(2025, 2, 30, 1, 0, 0), VIE)).toBe('2025-03-30T03:00:00+02:00');
    expect(formatInstant(Date.UTC(2025, 9, 26, 0, 59, 59), VIE)).toBe('2025-10-26T02:59:59+02:00');
    expect(formatInstant(Date.UTC(2025, 9, 26, 1, 0, 0), VIE)).toBe('2025-10-26T02:00:00+01:00');
  });
});

describe('formatInstant at the ends of the years it can write', () => {
  it('writes the seconds of a local mean time offset, as Python does, and reads back the instant', () => {
    const text = formatInstant(new Date('0001-01-01T09:06:32Z').getTime(), 'Europe/Berlin');
    expect(text).toBe('0001-01-01T10:00:00+00:53:28');
    expect(parseTimestamp(text, 'UTC')).toMatchObject({ ok: true, epochMs: new Date('0001-01-01T09:06:32Z').getTime() });
  });
  it('writes year 9999 in Berlin', () => {
    expect(formatInstant(new Date('9999-12-31T22:00:00Z').getTime(), 'Europe/Berlin')).toBe('9999-12-31T23:00:00+01:00');
  });
});
