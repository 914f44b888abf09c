// Rendering of every field, end to end: content files → build → API core → JSON (the core as the
// server asks it, in-process; the base URL override goes over HTTP, where a Host header could try
// to change it).
import { describe, expect, it } from 'vitest';
import { EVENT_FIELDS } from '../src/model/event-fields.ts';
import { EVENT_42, FIXTURE_ORDER } from './fixture-content.ts';
import { builtAndServed, fixtureApi } from './helpers.ts';

const site = fixtureApi();

describe('event rendering', () => {
  it('renders every field of interface.md §2.1, keys in table order', async () => {
    const answer = await site.get('/v1/cms/event/42/');
    expect(answer.status).toBe(200);
    const event = answer.json();
    expect(Object.keys(event)).toEqual([...EVENT_FIELDS]);
    expect(event).toEqual(EVENT_42);
  });

  it('writes compact JSON with raw UTF-8, as DRF does', async () => {
    const text = (await site.get('/v1/cms/event/42/')).text;
    expect(text).toContain('"title":"Vortrag über Herzgesundheit"');
    expect(text).not.toMatch(/\\u00/);
    expect(text).not.toMatch(/": |, "/);
  });

  it('fills defaults: empty lists, nulls, false, derived or explicit teaser, trimmed body', async () => {
    const byId = new Map<number, any>((await site.get('/v1/cms/event/?limit=3&offset=0')).json().results.map((e: any) => [e.id, e]));
    const feast = (await site.get('/v1/cms/event/43/')).json();
    expect(feast).toMatchObject({
      allday: true, url: null, link: null, media: [], breadcrumb: [], categories: [], header_image: null,
      related_media: [], organizer: null, register: false, registration_end: null, dfp_points: null,
      body: '<p>Für alle.</p>', teaser: 'Für alle.', start: '2025-06-01T00:00:00+02:00', end: '2025-06-01T23:59:59+02:00',
      last_modified: '2025-05-20T14:00:00+02:00', keywords: null, language: null, groups: [],
    });
    expect(byId.get(45).teaser).toBe('Ausdrücklich gesetzt');
    expect(byId.get(44).teaser).toBe('');
  });

  it('orders the list by start desc, end desc, id asc', async () => {
    const all = (await site.get('/v1/cms/event/?limit=3')).json();
    const rest = (await site.get('/v1/cms/event/?limit=3&offset=3')).json();
    expect([...all.results, ...rest.results].map((e: any) => e.id)).toEqual(FIXTURE_ORDER);
  });

  it('uses site.yaml for page size, max page size and the base URL of links', async () => {
    const first = (await site.get('/v1/cms/event/')).json();
    expect(first.results).toHaveLength(2);
    expect(first.next).toBe('https://events.example.at/api/v1/cms/event/?limit=2&offset=2');
    const clamped = (await site.get('/v1/cms/event/?limit=50')).json();
    expect(clamped.results).toHaveLength(3);
    expect(clamped.next).toBe('https://events.example.at/api/v1/cms/event/?limit=3&offset=3');
  });

  it('answers under the base URL path prefix too', async () => {
    const prefixed = await site.get('/api/v1/cms/event/42/');
    expect(prefixed.status).toBe(200);
    expect(prefixed.json().id).toBe(42);
  });
});

describe('base URL override', () => {
  it('`build --base-url` and `serve --base-url` rewrite links and media URLs, never from Host', async () => {
    const built = await builtAndServed(site.content, { baseUrl: 'http://cdn.example.org/x' }, 'https://built.example.org');
    try {
      const list = await built.get('/v1/cms/event/?limit=3&offset=3', { headers: { Host: 'evil.example', 'X-Forwarded-Host': 'evil.example' } });
      const body = list.json();
      expect(body.previous).toBe('http://cdn.example.org/x/v1/cms/event/?limit=3');
      expect(body.results[0].media[0].url).toBe('http://cdn.example.org/x/cms/media/11/');
      expect(body.results[0].related_media[0].media.url).toBe('http://cdn.example.org/x/cms/media/11/');
      expect(list.text).not.toContain('evil.example');
      expect(list.text).not.toContain('built.example.org');
      const { readFileSync } = await import('node:fs');
      const page = readFileSync(`${built.dist}/v1/cms/event/index.json`, 'utf8');
      expect(JSON.parse(page).next).toBe('https://built.example.org/v1/cms/event/?limit=2&offset=2');
    } finally {
      await built.close();
    }
  });
});
