import { describe, expect, it } from 'vitest';
import { changesBetween, computedChunks, intlOffset, offsetAt, startOfYear, useZoneTable, zoneTableText } from './offsets.ts';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const ZONES = Intl.supportedValuesOf('timeZone');
const iso = (t: number) => new Date(t).toISOString();

/** A deterministic spread of instants in [from, to). */
function spread(from: number, to: number, n: number): number[] {
  return Array.from({ length: n }, (_, i) => from + Math.floor(((i * 7919) % n) * ((to - from) / n)) + ((i * 104_729) % DAY));
}

describe('startOfYear', () => {
  it('reads small years as themselves, not as 19xx', () => {
    expect(new Date(startOfYear(1)).toISOString()).toBe('0001-01-01T00:00:00.000Z');
    expect(new Date(startOfYear(99)).getUTCFullYear()).toBe(99);
    expect(startOfYear(2025)).toBe(Date.UTC(2025, 0, 1));
  });
});

describe('offsetAt', () => {
  it('agrees with Intl second by second around both changes of a year', () => {
    for (const change of [Date.UTC(2025, 2, 30, 1), Date.UTC(2025, 9, 26, 1)]) {
      for (let t = change - 5000; t <= change + 5000; t += 250) expect(offsetAt(t, 'Europe/Berlin'), iso(t)).toBe(intlOffset(t, 'Europe/Berlin'));
    }
  });

  // The shortest periods of the tz database (4 and 7 days), a 30-minute DST, Ramadan breaks, a
  // skipped day, a jump back of nearly a day, local mean times with seconds.
  const TRICKY = ['Africa/Freetown', 'Asia/Gaza', 'Africa/Casablanca', 'Australia/Lord_Howe', 'Pacific/Apia', 'America/Sitka', 'Asia/Manila', 'Europe/Dublin', 'Pacific/Fiji'];
  it.each(TRICKY)('agrees with Intl in %s from 1800 to 2100, at every change and between', (zone) => {
    const changes = changesBetween(startOfYear(1800), startOfYear(2100), zone);
    for (const c of changes) {
      expect(offsetAt(c.at - 1000, zone), iso(c.at)).toBe(c.from);
      expect(offsetAt(c.at, zone), iso(c.at)).toBe(c.to);
      expect([intlOffset(c.at - 1000, zone), intlOffset(c.at, zone)]).toEqual([c.from, c.to]);
    }
    for (const t of spread(startOfYear(1800), startOfYear(2100), 400)) expect(offsetAt(t, zone), iso(t)).toBe(intlOffset(t, zone));
  });

  it('finds the shortest periods Intl knows, 7 days: Noronha 2000, Gaza 2040', () => {
    const noronha = changesBetween(Date.UTC(2000, 9, 1), Date.UTC(2000, 9, 31), 'America/Noronha');
    expect(noronha.map((c) => iso(c.at))).toEqual(['2000-10-08T02:00:00.000Z', '2000-10-15T01:00:00.000Z']);
    const gaza = changesBetween(Date.UTC(2040, 9, 1), Date.UTC(2040, 10, 30), 'Asia/Gaza');
    expect(gaza.length).toBeGreaterThanOrEqual(2);
  });

  it('holds the offset of 1800 for every earlier instant, in every zone (no zone changed before)', () => {
    for (const zone of ZONES) {
      for (const t of [startOfYear(1), startOfYear(1000), startOfYear(1799) + 200 * DAY]) {
        expect(offsetAt(t, zone), `${zone} ${iso(t)}`).toBe(intlOffset(t, zone));
      }
    }
  });

  it('repeats every 400 years from 2100 on, in every zone', () => {
    for (const zone of ZONES) {
      const late = changesBetween(startOfYear(9998), startOfYear(10_000), zone);
      for (const c of late) {
        expect(intlOffset(c.at - 1000, zone), `${zone} ${iso(c.at)}`).toBe(c.from);
        expect(intlOffset(c.at, zone), `${zone} ${iso(c.at)}`).toBe(c.to);
      }
      for (const t of spread(startOfYear(2500), startOfYear(9999), 6)) expect(offsetAt(t, zone), `${zone} ${iso(t)}`).toBe(intlOffset(t, zone));
    }
  });

  it('does work for the times asked, not for the years between them', () => {
    const zone = 'America/Santiago';
    offsetAt(startOfYear(1) + HOUR, zone);
    offsetAt(startOfYear(9999) + 200 * DAY, zone);
    changesBetween(startOfYear(9998), startOfYear(10_000), zone);
    // ten thousand years would be 58,000 chunks; one per time and those of the two years are computed
    expect(computedChunks(zone)).toBeLessThanOrEqual(20);
  });
});

describe('changesBetween', () => {
  it('lists the changes in (from, to], oldest first, each with the offsets on either side', () => {
    const changes = changesBetween(Date.UTC(2025, 0, 1), Date.UTC(2026, 0, 1), 'Europe/Vienna');
    expect(changes).toEqual([
      { at: Date.UTC(2025, 2, 30, 1), from: HOUR, to: 2 * HOUR },
      { at: Date.UTC(2025, 9, 26, 1), from: 2 * HOUR, to: HOUR },
    ]);
    expect(changesBetween(Date.UTC(2025, 2, 30, 1), Date.UTC(2025, 9, 26, 1), 'Europe/Vienna')).toEqual([changes[1]]);
  });
  it('shifts the changes of folded years to their own time', () => {
    const [spring, autumn] = changesBetween(startOfYear(9999), startOfYear(10_000), 'Europe/Berlin');
    expect(iso(spring.at)).toBe('9999-03-28T01:00:00.000Z');
    expect(iso(autumn.at)).toBe('9999-10-31T01:00:00.000Z');
  });
});

describe('a zone table (the build finds the changes, an edge isolate reads them)', () => {
  it('gives the offsets and changes Intl gives, asking Intl nothing within its years; outside them Intl is asked', () => {
    // (each zone spelled as no other test here spells it: its chunks are its own)
    for (const [zone, spelled] of [['America/New_York', 'america/new_york'], ['Australia/Lord_Howe', 'australia/lord_howe'], ['America/Santiago', 'AMERICA/SANTIAGO']]) {
      const text = zoneTableText(zone);
      useZoneTable(spelled, text);
      const times = [...spread(startOfYear(1900) + 1, startOfYear(2100) - 1, 400)];
      for (const c of changesBetween(startOfYear(1990), startOfYear(2040), zone)) times.push(c.at - 1000, c.at, c.at + 1000);
      for (const t of times) expect(offsetAt(t, spelled), `${zone} ${iso(t)}`).toBe(offsetAt(t, zone));
      expect(changesBetween(startOfYear(1900), startOfYear(2099), spelled)).toEqual(changesBetween(startOfYear(1900), startOfYear(2099), zone));
      expect(computedChunks(spelled)).toBe(0);
      // before and after the table's years: asked of Intl, as without a table
      for (const t of [startOfYear(1850) + 5 * DAY, startOfYear(2300) + 100 * DAY]) expect(offsetAt(t, spelled)).toBe(intlOffset(t, zone));
      expect(computedChunks(spelled)).toBe(2);
    }
  });

  it('is set aside unless its changes are whole seconds in order within its span: Intl is asked, as without one', () => {
    const text = zoneTableText('Europe/Vienna');
    const [first, end, initial, ...changes] = text.split(' ');
    const refused = [
      '',
      `${first} ${end}`,
      `${first} ${first} ${initial}`,
      `${first} ${end} 1.5`,
      `${first} ${end} ${initial} ${[...changes].reverse().join(' ')}`,
      `${first} ${end} ${initial} ${changes[0]}x`,
      `${first} ${end} ${initial} ${changes[0].replace(':', ';')}`,
      `${first} ${Number(end) + 5000} ${initial}`,
    ];
    refused.forEach((t, i) => {
      // (a spelling of its own per text: its chunks are its own)
      const zone = ['europe/vienna', 'EUROPE/VIENNA', 'Europe/vienna', 'europe/VIENNA', 'EUROPE/vienna', 'eUrope/vienna', 'euRope/vienna', 'eurOpe/vienna'][i];
      useZoneTable(zone, t);
      const at = Date.UTC(2025, 6, 1);
      expect(offsetAt(at, zone)).toBe(intlOffset(at, 'Europe/Vienna'));
      expect(computedChunks(zone)).toBe(1);
    });
  });

  it("is replaced by another dist's table, or by none, with the chunks made before it", () => {
    // (a spelling of its own: its chunks are its own)
    const zone = 'asia/KOLKATA';
    const at = Date.UTC(2025, 6, 1);
    const own = zoneTableText('Asia/Kolkata');
    const [first, end] = own.split(' ');
    useZoneTable(zone, own);
    expect(offsetAt(at, zone)).toBe(intlOffset(at, 'Asia/Kolkata'));
    // a table of another offset (as another build's tz data might have it) answers by its own
    useZoneTable(zone, `${first} ${end} 3600`);
    expect(offsetAt(at, zone)).toBe(3600 * 1000);
    // the same table again keeps its chunks; none answers from Intl again
    useZoneTable(zone, `${first} ${end} 3600`);
    expect(offsetAt(at, zone)).toBe(3600 * 1000);
    useZoneTable(zone, undefined);
    expect(offsetAt(at, zone)).toBe(intlOffset(at, 'Asia/Kolkata'));
  });
});
