// The calendar as a subscriber sees it: events.ics and ?format=ics of a real build, read back with
// ical.js. Category titles (not ids) in CATEGORIES, the calendar's name from site.yaml's `title`,
// and all-day events whose date-only `end` is their last day.
import ICAL from 'ical.js';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bodyText } from '../src/api/body.ts';
import { createApi } from '../src/api/core.ts';
import { loadDataset } from '../src/query/dataset.ts';
import { buildOk, removeDir, tempDir, writeContent } from './helpers.ts';

const event = (id: number, title: string, start: string, end: string, more = '') =>
  `- id: ${id}\n  title: ${title}\n  start: ${start}\n  end: ${end}\n  last_modified: 2026-05-01T10:00:00+02:00\n${more}`;

const EVENTS = [
  event(1, 'Vortrag', '2026-05-12T18:00', '2026-05-12T20:00', '  categories: [2, 3]\n'),
  // all-day, a date-only end: the last day, inclusive
  event(2, 'Sommerschule', '2026-07-06', '2026-07-10', '  allday: true\n'),
  event(3, 'Tag der offenen Tür', '2026-07-11', '2026-07-11', '  allday: true\n'),
  // all-day, a timestamp end: an instant, so local midnight ends the day before
  event(4, 'Klausur bis Mitternacht', '2026-07-13', '2026-07-15T00:00:00+02:00', '  allday: true\n'),
  event(5, 'Klausur bis Mittag', '2026-07-16', '2026-07-17T12:00', '  allday: true\n'),
  // not all-day: a date-only end stays local midnight
  event(6, 'Frist', '2026-07-20', '2026-07-21'),
].join('');

const CATEGORIES = '- id: 2\n  title: Vortrag, öffentlich\n- id: 3\n  title: Fortbildung\n';

let root: string;

beforeAll(() => {
  root = tempDir('aula-calendar-');
});

afterAll(() => removeDir(root));

async function built(name: string, site: string) {
  const content = writeContent(join(root, name, 'content'), { 'site.yaml': site, 'categories.yaml': CATEGORIES, 'events/all.yaml': EVENTS });
  const dist = join(root, name, 'dist');
  await buildOk({ content, out: dist });
  const api = createApi(loadDataset(dist));
  const get = (path: string, query = '') => api({ method: 'GET', path, query, headers: {} });
  return { dist, get, ics: readFileSync(join(dist, 'events.ics'), 'utf8') };
}

const vevents = (text: string) => new ICAL.Component(ICAL.parse(text)).getAllSubcomponents('vevent');
const byId = (text: string) => new Map(vevents(text).map((v) => [String(v.getFirstPropertyValue('uid')).split('@')[0], v]));
const calendarName = (text: string) => new ICAL.Component(ICAL.parse(text)).getFirstPropertyValue('x-wr-calname');
const date = (v: ICAL.Component, name: string) => {
  const t = v.getFirstPropertyValue(name) as ICAL.Time;
  expect(t.isDate).toBe(true);
  return t.toString();
};

describe('the calendar of a build', () => {
  let site: Awaited<ReturnType<typeof built>>;
  let untitled: Awaited<ReturnType<typeof built>>;
  beforeAll(async () => {
    site = await built('titled', 'base_url: https://events.example.at\ntimezone: Europe/Vienna\ntitle: Veranstaltungen der Klinik\n');
    untitled = await built('untitled', 'base_url: https://events.example.at/api\ntimezone: Europe/Vienna\n');
  });

  it('names categories by title, without expand, in events.ics and ?format=ics alike', () => {
    for (const text of [site.ics, bodyText(site.get('/v1/cms/event/', 'format=ics').body), bodyText(site.get('/v1/cms/event/', 'format=ics&expand=categories').body)]) {
      expect(byId(text).get('event-1')!.getFirstProperty('categories')!.getValues()).toEqual(['Vortrag, öffentlich', 'Fortbildung']);
      expect(text).not.toMatch(/^CATEGORIES:2,3/m);
    }
  });

  it("takes its name from site.yaml's title", () => {
    expect(calendarName(site.ics)).toBe('Veranstaltungen der Klinik');
    expect(calendarName(bodyText(site.get('/v1/cms/event/', 'format=ics&title__icontains=vortrag').body))).toBe('Veranstaltungen der Klinik');
    expect(JSON.parse(readFileSync(join(site.dist, 'manifest.json'), 'utf8')).site.title).toBe('Veranstaltungen der Klinik');
  });

  it('is named after the host of base_url without a title', () => {
    expect(calendarName(untitled.ics)).toBe('Events (events.example.at)');
    expect(JSON.parse(readFileSync(join(untitled.dist, 'manifest.json'), 'utf8')).site).not.toHaveProperty('title');
  });

  it('ends an all-day event with a date-only end after its last day', () => {
    const events = byId(site.ics);
    // Monday to Friday: DTEND is Saturday (exclusive), so Friday is in the calendar
    expect([date(events.get('event-2')!, 'dtstart'), date(events.get('event-2')!, 'dtend')]).toEqual(['2026-07-06', '2026-07-11']);
    expect([date(events.get('event-3')!, 'dtstart'), date(events.get('event-3')!, 'dtend')]).toEqual(['2026-07-11', '2026-07-12']);
  });

  it('gives a timestamp end its instant meaning', () => {
    const events = byId(site.ics);
    // ending at midnight starting the 15th: the 13th and the 14th
    expect([date(events.get('event-4')!, 'dtstart'), date(events.get('event-4')!, 'dtend')]).toEqual(['2026-07-13', '2026-07-15']);
    // ending at noon of the 17th: through the 17th
    expect([date(events.get('event-5')!, 'dtstart'), date(events.get('event-5')!, 'dtend')]).toEqual(['2026-07-16', '2026-07-18']);
  });

  it("writes the last day's end in the API: 23:59:59 of it, local time", () => {
    const ends = (query: string) =>
      (JSON.parse(bodyText(site.get('/v1/cms/event/', query).body)).results as { id: number; end: string }[]).map((e) => [e.id, e.end] as const);
    expect(new Map(ends('limit=10'))).toEqual(
      new Map([
        [1, '2026-05-12T20:00:00+02:00'],
        [2, '2026-07-10T23:59:59+02:00'],
        [3, '2026-07-11T23:59:59+02:00'],
        [4, '2026-07-15T00:00:00+02:00'],
        [5, '2026-07-17T12:00:00+02:00'],
        [6, '2026-07-21T00:00:00+02:00'],
      ]),
    );
    // so a filter for what still runs on Friday afternoon finds the summer school
    expect(ends('end__gte=2026-07-10T15:00&start__lt=2026-07-11').map(([id]) => id)).toEqual([2]);
  });
});
