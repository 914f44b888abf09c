import ICAL from 'ical.js';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadContent } from '../../content/load.ts';
import { compareListOrder, renderEvent } from '../../render/event.ts';
import { formatInstant } from '../../time/zone.ts';
import { renderCalendar, type CalendarOptions, type RenderedEvent } from './feed.ts';

const VIENNA = 'Europe/Vienna';
const options: CalendarOptions = {
  timezone: VIENNA,
  name: 'Veranstaltungen',
  baseUrl: 'https://events.example.at/api',
  now: new Date('2025-06-01T12:34:56.789Z'),
};

let nextId = 1;
/** An event as the API renders it: timestamps written in `zone` with their offsets. */
function event(start: string, end: string, more: Partial<RenderedEvent> = {}, zone = VIENNA): RenderedEvent {
  return {
    id: nextId++,
    start: formatInstant(Date.parse(start), zone),
    end: formatInstant(Date.parse(end), zone),
    last_modified: '2025-01-02T03:04:05+01:00',
    allday: false,
    title: 'Vortrag',
    ...more,
  };
}

function parse(text: string) {
  return new ICAL.Component(ICAL.parse(text));
}

function vevents(text: string): ICAL.Component[] {
  return parse(text).getAllSubcomponents('vevent');
}

function time(vevent: ICAL.Component, name: string): ICAL.Time {
  return vevent.getFirstPropertyValue(name) as ICAL.Time;
}

/** The instant a parsed DATE-TIME names, through the calendar's own VTIMEZONE. */
function instantOf(vevent: ICAL.Component, name: string, zone = VIENNA): number {
  const t = time(vevent, name);
  expect(t.isDate).toBe(false);
  // ical.js resolves a TZID from the VTIMEZONE in the same file; anything else would be floating
  expect([zone, 'UTC']).toContain(t.zone.tzid);
  return t.toUnixTime() * 1000;
}

const dateOf = (vevent: ICAL.Component, name: string) => {
  const t = time(vevent, name);
  expect(t.isDate).toBe(true);
  return t.toString();
};

const physicalLines = (text: string) => text.split('\r\n').slice(0, -1);
const unfold = (text: string) => text.replace(/\r\n /g, '');

describe('the calendar', () => {
  const events = [
    event('2025-05-12T18:00:00+02:00', '2025-05-12T20:00:00+02:00', {
      title: 'Vortrag über Herzgesundheit',
      teaser: 'Ein Abend für alle.',
      location: 'Hörsaal 1',
      url: 'https://www.example.at/e/1',
      link: 'https://other.example.at/',
      organizer: 'Univ.-Prof. Dr. Eva Müller',
      email: 'eva.mueller@example.at',
      contact: 'Sekretariat',
      categories: [3, 7],
    }),
    event('2025-12-01T09:00:00+01:00', '2025-12-01T09:00:00+01:00', { link: 'https://other.example.at/', teaser: '' }),
  ];
  const text = renderCalendar(events, options);

  it('is one VCALENDAR with the required properties, CRLF after every line', () => {
    expect(text.startsWith('BEGIN:VCALENDAR\r\n')).toBe(true);
    expect(text.endsWith('END:VCALENDAR\r\n')).toBe(true);
    expect(text.replace(/\r\n/g, '')).not.toMatch(/[\r\n]/);
    const cal = parse(text);
    expect(cal.name).toBe('vcalendar');
    expect(cal.getFirstPropertyValue('version')).toBe('2.0');
    expect(cal.getFirstPropertyValue('prodid')).toMatch(/aula/);
    expect(cal.getFirstPropertyValue('calscale')).toBe('GREGORIAN');
    expect(cal.getFirstPropertyValue('x-wr-calname')).toBe('Veranstaltungen');
    expect(cal.getFirstPropertyValue('x-wr-timezone')).toBe(VIENNA);
    expect(cal.getFirstSubcomponent('vtimezone')?.getFirstPropertyValue('tzid')).toBe(VIENNA);
  });

  it('has one VEVENT per event with its keys', () => {
    const [first, second] = vevents(text);
    expect(first.getFirstPropertyValue('uid')).toBe(`event-${events[0].id}@events.example.at`);
    expect(time(first, 'dtstamp').toString()).toBe('2025-06-01T12:34:56Z');
    expect(instantOf(first, 'dtstart')).toBe(Date.parse('2025-05-12T16:00:00Z'));
    expect(instantOf(first, 'dtend')).toBe(Date.parse('2025-05-12T18:00:00Z'));
    expect(time(first, 'last-modified').toString()).toBe('2025-01-02T02:04:05Z');
    expect(first.getFirstPropertyValue('summary')).toBe('Vortrag über Herzgesundheit');
    expect(first.getFirstPropertyValue('description')).toBe('Ein Abend für alle.');
    expect(first.getFirstPropertyValue('location')).toBe('Hörsaal 1');
    expect(first.getFirstPropertyValue('url')).toBe('https://www.example.at/e/1');
    const organizer = first.getFirstProperty('organizer')!;
    expect(organizer.getFirstValue()).toBe('mailto:eva.mueller@example.at');
    expect(organizer.getParameter('cn')).toBe('Univ.-Prof. Dr. Eva Müller');
    expect(first.getFirstProperty('categories')!.getValues()).toEqual(['3', '7']);
    // no email: no ORGANIZER; no url: the link; an instant: no DTEND; empty teaser: no DESCRIPTION
    expect(second.getFirstProperty('organizer')).toBeNull();
    expect(second.getFirstPropertyValue('url')).toBe('https://other.example.at/');
    expect(instantOf(second, 'dtstart')).toBe(Date.parse('2025-12-01T08:00:00Z'));
    expect(second.getFirstProperty('dtend')).toBeNull();
    expect(second.getFirstProperty('description')).toBeNull();
  });

  it('writes the titles of expanded categories', () => {
    const [e] = vevents(renderCalendar([event('2025-05-12T18:00:00Z', '2025-05-12T19:00:00Z', { categories: [{ id: 3, title: 'Kurs, Teil 1' }] })], options));
    expect(e.getFirstProperty('categories')!.getValues()).toEqual(['Kurs, Teil 1']);
  });

  it('is an empty VCALENDAR for no events', () => {
    const empty = renderCalendar([], options);
    expect(vevents(empty)).toEqual([]);
    expect(empty).not.toContain('VTIMEZONE');
  });
});

describe('timed events across DST changes', () => {
  const cases: [string, string, string][] = [
    ['winter', '2025-01-15T10:00:00+01:00', '2025-01-15T12:00:00+01:00'],
    ['summer', '2025-07-15T10:00:00+02:00', '2025-07-15T12:00:00+02:00'],
    ['across the spring change', '2025-03-29T22:00:00+01:00', '2025-03-30T10:00:00+02:00'],
    ['at the spring change', '2025-03-30T03:00:00+02:00', '2025-03-30T03:30:00+02:00'],
    ['across the autumn change', '2025-10-25T22:00:00+02:00', '2025-10-26T10:00:00+01:00'],
    ['in the first of the repeated hours', '2025-10-26T02:15:00+02:00', '2025-10-26T02:45:00+02:00'],
    ['in the second of the repeated hours', '2025-10-26T02:15:00+01:00', '2025-10-26T02:45:00+01:00'],
    ['from one repeated hour to the other', '2025-10-26T02:30:00+02:00', '2025-10-26T02:30:00+01:00'],
    ['years apart', '2019-02-01T09:00:00+01:00', '2031-08-01T09:00:00+02:00'],
  ];

  it.each(cases)('%s', (_, start, end) => {
    const [e] = vevents(renderCalendar([event(start, end)], options));
    expect(instantOf(e, 'dtstart')).toBe(Date.parse(start));
    expect(instantOf(e, 'dtend')).toBe(Date.parse(end));
  });

  it('writes wall times with TZID, and a repeated wall time in UTC', () => {
    const text = unfold(renderCalendar([event(...cases[1].slice(1) as [string, string]), event(...cases[6].slice(1) as [string, string])], options));
    expect(text).toContain('DTSTART;TZID=Europe/Vienna:20250715T100000\r\n');
    expect(text).toContain('DTSTART:20251026T011500Z\r\n');
  });

  const zones: [string, string[]][] = [
    ['Australia/Sydney', ['2025-01-10T10:00:00Z', '2025-04-05T15:30:00Z', '2025-04-05T16:30:00Z', '2025-07-10T10:00:00Z', '2025-10-05T01:00:00Z']],
    ['Australia/Lord_Howe', ['2025-01-10T10:00:00Z', '2025-04-05T15:00:00Z', '2025-07-10T10:00:00Z']],
    ['America/New_York', ['2025-03-09T06:59:59Z', '2025-03-09T07:00:00Z', '2025-11-02T05:30:00Z', '2025-11-02T06:30:00Z']],
    ['Asia/Kolkata', ['2025-01-10T10:00:00Z', '2025-07-10T10:00:00Z']],
    ['UTC', ['2025-03-30T01:00:00Z']],
  ];
  it.each(zones)('in %s', (zone, instants) => {
    const list = instants.map((t) => event(t, new Date(Date.parse(t) + 3_600_000).toISOString(), {}, zone));
    const found = vevents(renderCalendar(list, { ...options, timezone: zone }));
    found.forEach((e, i) => {
      expect(instantOf(e, 'dtstart', zone)).toBe(Date.parse(instants[i]));
      expect(instantOf(e, 'dtend', zone)).toBe(Date.parse(instants[i]) + 3_600_000);
    });
  });
});

describe('all-day events', () => {
  const cases: [string, string, string, string, string][] = [
    ['one day, ending 23:59:59', '2025-05-12T00:00:00+02:00', '2025-05-12T23:59:59+02:00', '2025-05-12', '2025-05-13'],
    ['one day, start = end', '2026-09-20T00:00:00+02:00', '2026-09-20T00:00:00+02:00', '2026-09-20', '2026-09-21'],
    ['one day, ending at the next local midnight', '2025-05-12T00:00:00+02:00', '2025-05-13T00:00:00+02:00', '2025-05-12', '2025-05-13'],
    ['three days, ending at local midnight', '2025-05-12T00:00:00+02:00', '2025-05-15T00:00:00+02:00', '2025-05-12', '2025-05-15'],
    ['across the spring change', '2025-03-29T00:00:00+01:00', '2025-03-31T23:59:59+02:00', '2025-03-29', '2025-04-01'],
    ['across the autumn change, ending at local midnight', '2025-10-25T00:00:00+02:00', '2025-10-27T00:00:00+01:00', '2025-10-25', '2025-10-27'],
    ['on the spring change day', '2025-03-30T00:00:00+01:00', '2025-03-30T23:59:59+02:00', '2025-03-30', '2025-03-31'],
    ['whose UTC date is the day before', '2025-12-31T23:00:00Z', '2026-01-04T23:59:59+01:00', '2026-01-01', '2026-01-05'],
    ['starting late in the day', '2025-05-12T22:30:00+02:00', '2025-05-12T23:00:00+02:00', '2025-05-12', '2025-05-13'],
  ];

  it.each(cases)('%s', (_, start, end, first, next) => {
    const text = renderCalendar([event(start, end, { allday: true })], options);
    const [e] = vevents(text);
    expect(dateOf(e, 'dtstart')).toBe(first);
    expect(dateOf(e, 'dtend')).toBe(next);
    expect(unfold(text)).toContain(`DTSTART;VALUE=DATE:${first.replaceAll('-', '')}\r\n`);
    // all-day dates refer to no zone, so none is written for them
    expect(text).not.toContain('VTIMEZONE');
  });

  it('are dated in the site zone, not in UTC', () => {
    const [e] = vevents(renderCalendar([event('2025-05-11T14:00:00Z', '2025-05-11T14:00:00Z', { allday: true }, 'Pacific/Kiritimati')], { ...options, timezone: 'Pacific/Kiritimati' }));
    expect(dateOf(e, 'dtstart')).toBe('2025-05-12');
  });
});

describe('text values', () => {
  it('escape backslash, semicolon, comma and line breaks, and round-trip', () => {
    const title = 'Kurs; Teil 1, Gruppe A \\ B\nZweite Zeile\r\nDritte\rVierte';
    const text = renderCalendar([event('2025-05-12T18:00:00Z', '2025-05-12T19:00:00Z', { title, location: 'a,b;c', teaser: 'x\\ny' })], options);
    expect(unfold(text)).toContain('SUMMARY:Kurs\\; Teil 1\\, Gruppe A \\\\ B\\nZweite Zeile\\nDritte\\nVierte\r\n');
    const [e] = vevents(text);
    expect(e.getFirstPropertyValue('summary')).toBe('Kurs; Teil 1, Gruppe A \\ B\nZweite Zeile\nDritte\nVierte');
    expect(e.getFirstPropertyValue('location')).toBe('a,b;c');
    expect(e.getFirstPropertyValue('description')).toBe('x\\ny');
  });

  it('drop control characters', () => {
    const [e] = vevents(renderCalendar([event('2025-05-12T18:00:00Z', '2025-05-12T19:00:00Z', { title: 'A\u0000B\u0007C\tD' })], options));
    expect(e.getFirstPropertyValue('summary')).toBe('ABC\tD');
  });

  it('quote a CN with separators and caret-escape its quotes', () => {
    const organizer = 'Klinik für Chirurgie, Abt. "Herz"; Wien: Süd ^ Nord';
    const text = renderCalendar([event('2025-05-12T18:00:00Z', '2025-05-12T19:00:00Z', { organizer, email: 'a@example.at' })], options);
    expect(unfold(text)).toContain(`ORGANIZER;CN="Klinik für Chirurgie, Abt. ^'Herz^'; Wien: Süd ^^ Nord":mailto:a@example.at\r\n`);
    const [e] = vevents(text);
    expect(e.getFirstProperty('organizer')!.getParameter('cn')).toBe(organizer);
  });
});

describe('folding', () => {
  const umlauts = 'Größenübergänge für Ärztinnen und Ärzte: Überblick über Öffnungszeiten, Füße & Maßnahmen – ';
  const long: RenderedEvent[] = [
    event('2025-05-12T18:00:00Z', '2025-05-12T19:00:00Z', {
      title: umlauts.repeat(6),
      teaser: 'äöüß'.repeat(80),
      location: '€'.repeat(101),
      organizer: 'Ö'.repeat(90),
      email: 'x@example.at',
      contact: `Emoji 🎉🩺 ${'🎉'.repeat(40)}`,
    }),
  ];
  const text = renderCalendar(long, options);

  it('keeps every physical line within 75 octets, splitting no character', () => {
    for (const line of physicalLines(text)) {
      expect(Buffer.byteLength(line), line).toBeLessThanOrEqual(75);
      expect(line).not.toContain('\uFFFD');
      expect(Buffer.from(line, 'utf8').toString('utf8')).toBe(line);
      expect(line).not.toMatch(/[\uD800-\uDBFF]$|^ ?[\uDC00-\uDFFF]/);
    }
    expect(physicalLines(text).filter((l) => l.startsWith(' ')).length).toBeGreaterThan(20);
  });

  it('unfolds to the original values', () => {
    const [e] = vevents(text);
    expect(e.getFirstPropertyValue('summary')).toBe(long[0].title);
    expect(e.getFirstPropertyValue('description')).toBe(long[0].teaser);
    expect(e.getFirstPropertyValue('location')).toBe(long[0].location);
    expect(e.getFirstProperty('organizer')!.getParameter('cn')).toBe(long[0].organizer);
    expect(e.getFirstPropertyValue('contact')).toBe(`${long[0].contact} <x@example.at>`);
    expect(unfold(text)).toContain(`SUMMARY:${long[0].title.replaceAll(',', '\\,')}\r\n`);
  });
});

describe('the sample content', () => {
  it('renders every event so that a parser reads back its times', async () => {
    const { model } = await loadContent(join(import.meta.dirname, '..', '..', 'content'));
    if (!model) throw new Error('the sample content does not load');
    const ctx = { site: model.site, baseUrl: model.site.base_url, pages: model.pages, media: model.media };
    const api = [...model.events].sort(compareListOrder).map((e) => JSON.parse(JSON.stringify(renderEvent(e, ctx))) as RenderedEvent);
    const text = renderCalendar(api, { ...options, timezone: model.site.timezone, baseUrl: model.site.base_url });
    const found = vevents(text);
    expect(found).toHaveLength(api.length);
    const localDate = new Intl.DateTimeFormat('en-CA', { timeZone: model.site.timezone, year: 'numeric', month: '2-digit', day: '2-digit' });
    found.forEach((e, i) => {
      const source = api[i];
      expect(e.getFirstPropertyValue('uid')).toBe(`event-${source.id}@127.0.0.1:8000`);
      expect(e.getFirstPropertyValue('summary')).toBe(source.title);
      if (source.allday) {
        expect(dateOf(e, 'dtstart')).toBe(localDate.format(Date.parse(source.start)));
        expect(dateOf(e, 'dtend') > dateOf(e, 'dtstart')).toBe(true);
      } else {
        expect(instantOf(e, 'dtstart', model.site.timezone)).toBe(Math.floor(Date.parse(source.start) / 1000) * 1000);
        if (source.end !== source.start) expect(instantOf(e, 'dtend', model.site.timezone)).toBe(Math.floor(Date.parse(source.end) / 1000) * 1000);
      }
    });
    for (const line of physicalLines(text)) expect(Buffer.byteLength(line)).toBeLessThanOrEqual(75);
  });
});

describe('years far apart and at the ends of the calendar', () => {
  const observances = (text: string) => unfold(text).match(/BEGIN:(?:STANDARD|DAYLIGHT)\r\nDTSTART:\d+/g)!.map((o) => o.slice(-8, -4));

  it('describe the zone for the years events use (each ±1), not the years between', () => {
    const text = renderCalendar([event('2000-07-01T10:00:00Z', '2000-07-01T11:00:00Z'), event('2025-07-01T10:00:00Z', '2025-07-01T11:00:00Z')], options);
    expect([...new Set(observances(text))]).toEqual(['1999', '2000', '2001', '2024', '2025', '2026']);
    const [a, b] = vevents(text);
    expect(instantOf(a, 'dtstart')).toBe(Date.parse('2000-07-01T10:00:00Z'));
    expect(instantOf(b, 'dtstart')).toBe(Date.parse('2025-07-01T10:00:00Z'));
  });

  it('writes years 1 and 9999 with four digits, in a short VTIMEZONE', () => {
    const zone = 'Europe/Berlin';
    const list = [
      event('9999-12-31T22:00:00Z', '9999-12-31T22:30:00Z', {}, zone),
      event('0001-01-01T09:06:32Z', '0001-01-01T10:06:32Z', {}, zone),
    ];
    const text = unfold(renderCalendar(list, { ...options, timezone: zone }));
    expect(list[1].start).toBe('0001-01-01T10:00:00+00:53:28');
    expect(text).toContain('DTSTART;TZID=Europe/Berlin:99991231T230000\r\n');
    expect(text).toContain('DTSTART;TZID=Europe/Berlin:00010101T100000\r\n');
    // one observance from year 1 on (local mean time), then 9998 and 9999: none of year 10000
    expect(observances(text)).toEqual(['0001', '9998', '9998', '9998', '9999', '9999']);
    expect(text).toContain('TZOFFSETFROM:+005328\r\nTZOFFSETTO:+005328\r\n');
  });

  it('ends an all-day event on 31 December 9999 by a duration, as 10000-01-01 has no DATE', () => {
    const text = unfold(
      renderCalendar(
        [event('9999-12-31T00:00:00+01:00', '9999-12-31T00:00:00+01:00', { allday: true }), event('9999-12-29T00:00:00+01:00', '9999-12-31T23:59:59+01:00', { allday: true })],
        options,
      ),
    );
    expect(text).toContain('DTSTART;VALUE=DATE:99991231\r\nDURATION:P1D\r\n');
    expect(text).toContain('DTSTART;VALUE=DATE:99991229\r\nDURATION:P3D\r\n');
  });

  it('dates all-day events of year 1 in year 1 (Date.UTC would make them 1901)', () => {
    const text = unfold(renderCalendar([event('0001-01-01T00:00:00Z', '0001-01-01T00:00:00Z', { allday: true })], options));
    expect(text).toContain('DTSTART;VALUE=DATE:00010101\r\nDTEND;VALUE=DATE:00010102\r\n');
  });
});

describe('category titles', () => {
  it('name categories given by id, escaped; an id without a title stays an id', () => {
    const titles = new Map([[3, 'Kurs, Teil 1'], [7, 'Öffentlich']]);
    const text = renderCalendar([event('2025-05-12T18:00:00Z', '2025-05-12T19:00:00Z', { categories: [3, 7, 9] })], { ...options, categoryTitles: titles });
    const [e] = vevents(text);
    expect(e.getFirstProperty('categories')!.getValues()).toEqual(['Kurs, Teil 1', 'Öffentlich', '9']);
    expect(unfold(text)).toContain('CATEGORIES:Kurs\\, Teil 1,Öffentlich,9\r\n');
  });
});
