// The documents a build writes and the API answers (the core, in-process): OpenAPI, the calendar
// feed, the schemas.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import ICAL from 'ical.js';
import { describe, expect, it } from 'vitest';
import { fixtureApi } from './helpers.ts';

const site = fixtureApi();

const summaries = (text: string) =>
  new ICAL.Component(ICAL.parse(text)).getAllSubcomponents('vevent').map((v) => v.getFirstPropertyValue('summary'));

describe('calendar feed', () => {
  it('answers ?format=ics with the filtered events as text/calendar, without pagination', async () => {
    const all = await site.get('/v1/cms/event/?format=ics&limit=1');
    expect(all.status).toBe(200);
    expect(all.headers.get('content-type')).toBe('text/calendar; charset=utf-8');
    expect(summaries(all.text)).toEqual(['Kurs A', 'Kurs B', 'Sommerfest', 'Vortrag über Herzgesundheit']);
    const filtered = await site.get('/v1/cms/event/?format=ics&title__icontains=kurs');
    expect(summaries(filtered.text)).toEqual(['Kurs A', 'Kurs B']);
    expect((await site.get('/v1/cms/event/?format=ics&start__gte=nope')).status).toBe(400);
  });

  it('writes all-day events as DATE values', async () => {
    const feast = new ICAL.Component(ICAL.parse((await site.get('/v1/cms/event/?format=ics&id=43')).text)).getFirstSubcomponent('vevent')!;
    const start = feast.getFirstPropertyValue('dtstart') as ICAL.Time;
    expect(start.isDate).toBe(true);
    expect(start.toString()).toBe('2025-06-01');
  });

  it('events.ics in dist is the server answer for ?format=ics', async () => {
    expect(readFileSync(join(site.dist, 'events.ics'), 'utf8')).toBe((await site.get('/v1/cms/event/?format=ics')).text);
  });
});

describe('OpenAPI', () => {
  it('serves the document at /v1/schema/, identical to dist/openapi.json', async () => {
    const answer = await site.get('/v1/schema/');
    expect(answer.status).toBe(200);
    expect(answer.text).toBe(readFileSync(join(site.dist, 'openapi.json'), 'utf8'));
    const doc = answer.json();
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.servers).toEqual([{ url: 'https://events.example.at/api' }]);
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(['/v1/cms/event/', '/v1/api/autocomplete/']));
  });
});

describe('content schemas', () => {
  it('are written to dist/schemas/ for editors', () => {
    for (const name of ['site', 'pages', 'categories', 'media', 'event', 'event-front-matter', 'directory']) {
      const schema = JSON.parse(readFileSync(join(site.dist, 'schemas', `${name}.schema.json`), 'utf8'));
      expect(schema.$id).toBe(`${name}.schema.json`);
    }
  });
});
