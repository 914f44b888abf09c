// The event query contract: filters, errors, ignored parameters, expand/fields/omit, negotiation,
// OPTIONS, ETag — asked of the API core in-process, as the server asks it (test/http.test.ts and
// the server's own tests cover the transport). The filter semantics in depth are tested beside the
// filter module.
import { describe, expect, it } from 'vitest';
import { EVENT_FIELDS } from '../src/model/event-fields.ts';
import { fixtureApi, request, servedSample } from './helpers.ts';
import { createApi, loadDataset, serve } from '../src/index.ts';
import { DEFAULT_WORK_LIMIT } from '../src/query/work-budget.ts';
import { underLimit } from '../src/query/regex/test-adversarial-patterns.ts';

const BASE = 'https://events.example.at/api';
const XSS = '<script>alert("x")</script>';

const site = fixtureApi({
  'events/xss.yaml': `id: 66\ntitle: '${XSS}'\nstart: 2024-01-01T10:00\nend: 2024-01-01T11:00\nlast_modified: 2024-01-01\norganizer: "x\\" onmouseover=\\"alert(1)"\n`,
});

const ids = async (query: string) => (await site.get(`/v1/cms/event/?limit=3&${query}`)).json().results.map((e: any) => e.id);

describe('filters', () => {
  it('filters, combines with AND and counts all matches', async () => {
    expect(await ids('title__icontains=KURS')).toEqual([44, 45]);
    expect(await ids('title__icontains=kurs&id=45')).toEqual([45]);
    expect(await ids('organizer__icontains=m%C3%BCller')).toEqual([42]);
    expect(await ids('start__gte=2025-06-01&start__lt=2025-06-02')).toEqual([44, 45, 43]);
    expect(await ids('categories=3&categories=7')).toEqual([42]);
    expect((await site.get('/v1/cms/event/?title__icontains=kurs&limit=1')).json().count).toBe(2);
  });

  it('keeps the filters in pagination links, sorted and re-encoded', async () => {
    const page = (await site.get('/v1/cms/event/?title__icontains=kurs&limit=1')).json();
    expect(page.next).toBe(`${BASE}/v1/cms/event/?limit=1&offset=1&title__icontains=kurs`);
    const second = (await site.get('/v1/cms/event/?title__icontains=kurs&limit=1&offset=1')).json();
    expect(second.previous).toBe(`${BASE}/v1/cms/event/?limit=1&title__icontains=kurs`);
    expect(second.next).toBeNull();
  });

  it('answers an invalid value with 400 in django-filter shape, every error at once', async () => {
    const answer = await site.get('/v1/cms/event/?dfp_points=abc&id=x&start__gt=1');
    expect(answer.status).toBe(400);
    expect(answer.headers.get('content-type')).toBe('application/json');
    expect(answer.json()).toEqual({ start__gt: ['Enter a valid date/time.'], dfp_points: ['Enter a number.'], id: ['Enter a number.'] });
    expect(Object.keys(answer.json())).toEqual(['start__gt', 'dfp_points', 'id']);
    const dst = (await site.get('/v1/cms/event/?start=2025-10-26T02:30:00')).json();
    expect(dst).toEqual({ start: ['2025-10-26 02:30:00 couldn’t be interpreted in time zone Europe/Vienna; it may be ambiguous or it may not exist.'] });
    expect((await site.get('/v1/cms/event/?categories=999')).status).toBe(400);
    expect((await site.get('/v1/cms/event/?allday=maybe')).json()).toHaveProperty('allday');
    const regex = await site.get('/v1/cms/event/?title__regex=(');
    expect(regex.status).toBe(400);
    expect(regex.json()).toHaveProperty('title__regex');
  });

  it('names ignored parameters in X-Ignored-Parameters, and only those', async () => {
    const answer = await site.get('/v1/cms/event/?titel=x&title__gt=a&limit=1&expand=categories,foo&format=json');
    expect(answer.status).toBe(200);
    expect(answer.headers.get('x-ignored-parameters')).toBe('titel, title__gt, expand=foo');
    expect((await site.get('/v1/cms/event/?limit=1')).headers.get('x-ignored-parameters')).toBeNull();
  });

  it('answers catastrophic regexes on the sample data within a small share of the work budget', async () => {
    const sample = await servedSample();
    try {
      const api = createApi(loadDataset(sample.dist), { cacheLimits: { entries: 0, bytes: 0 } });
      for (const pattern of ['(a+)+$', '(.*a){20}', '(x+x+)+y', '^(([a-z])+.)+[A-Z]([a-z])+$']) {
        const query = `title__iregex=${encodeURIComponent(pattern)}`;
        // counted work, not time: the same on any machine under any load
        const counted = underLimit(DEFAULT_WORK_LIMIT, () => api({ method: 'GET', path: '/v1/cms/event/', query, headers: {} }));
        expect(counted.result?.status, pattern).toBe(200);
        expect(counted.used, pattern).toBeGreaterThan(0);
        expect(counted.used, pattern).toBeLessThan(DEFAULT_WORK_LIMIT / 20);
        expect((await sample.get(`/v1/cms/event/?${query}`)).status, pattern).toBe(200);
      }
    } finally {
      await sample.close();
    }
  });
});

describe('detail route', () => {
  it('applies expand, fields and omit', async () => {
    expect((await site.get('/v1/cms/event/42/?fields=title,id')).text).toBe('{"id":42,"title":"Vortrag über Herzgesundheit"}');
    const expanded = (await site.get('/v1/cms/event/42/?expand=categories&fields=categories')).json();
    expect(expanded).toEqual({ categories: [{ id: 7, title: 'Öffentlich' }, { id: 3, title: 'Vortrag', slug: 'vortrag', color: '#ff0000' }] });
    const omitted = (await site.get('/v1/cms/event/42/?omit=body,teaser')).json();
    expect(Object.keys(omitted)).toEqual(EVENT_FIELDS.filter((f) => f !== 'body' && f !== 'teaser'));
  });

  it('looks the event up among those the filters and search leave, as DRF\'s get_object does', async () => {
    const title = 'Vortrag über Herzgesundheit';
    for (const query of [`title=${encodeURIComponent(title)}`, 'id=42', 'search=herzgesundheit', 'title__icontains=HERZ&dfp_points__gte=0']) {
      const r = await site.get(`/v1/cms/event/42/?${query}&fields=id`);
      expect([r.status, r.text], query).toEqual([200, '{"id":42}']);
    }
    for (const query of ['title=nomatch', 'id=43', 'search=nomatch', 'title__icontains=herz&id=41']) {
      const r = await site.get(`/v1/cms/event/42/?${query}`);
      expect([r.status, r.json()], query).toEqual([404, { detail: 'Not found.' }]);
    }
    // an invalid filter is the list's 400, before the event is looked up (an unknown one too)
    for (const id of ['42', '999999']) {
      const r = await site.get(`/v1/cms/event/${id}/?dfp_points=abc&id=x`);
      expect([r.status, r.json()]).toEqual([400, (await site.get('/v1/cms/event/?dfp_points=abc&id=x')).json()]);
    }
    // paging and ordering do nothing to one event: named as ignored, as unknown names are
    const paged = await site.get('/v1/cms/event/42/?limit=5&offset=3&ordering=title&foo=1&fields=id');
    expect([paged.status, paged.headers.get('x-ignored-parameters')]).toEqual([200, 'limit, offset, ordering, foo']);
  });
});

describe('expansion and sparse fields in the list', () => {
  it('expand=categories and expand=* replace ids with category objects, id first', async () => {
    for (const expand of ['categories', '*', 'foo,%20categories']) {
      const event = (await site.get(`/v1/cms/event/?id=42&expand=${expand}`)).json().results[0];
      expect(event.categories.map((c: any) => Object.keys(c)[0])).toEqual(['id', 'id']);
      expect(event.categories.map((c: any) => c.id)).toEqual([7, 3]);
    }
    expect((await site.get('/v1/cms/event/?id=42&expand=Categories')).json().results[0].categories).toEqual([7, 3]);
  });

  it('fields keeps table order, omit removes, both combine', async () => {
    const [event] = (await site.get('/v1/cms/event/?id=42&fields=start,id,title')).json().results;
    expect(Object.keys(event)).toEqual(['id', 'start', 'title']);
    const [slim] = (await site.get('/v1/cms/event/?id=42&fields=start,id,title&omit=start')).json().results;
    expect(Object.keys(slim)).toEqual(['id', 'title']);
    const [rest] = (await site.get('/v1/cms/event/?id=42&omit=body')).json().results;
    expect(rest).not.toHaveProperty('body');
    expect(Object.keys(rest)).toHaveLength(EVENT_FIELDS.length - 1);
  });
});

describe('negotiation', () => {
  const BROWSER = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';
  it('JSON for API clients, HTML for browsers', async () => {
    for (const [query, accept, type] of [
      ['', undefined, 'application/json'],
      ['format=json', BROWSER, 'application/json'],
      ['format=api', 'application/json', 'application/json'],
      ['format=api', undefined, 'application/json'],
      ['', BROWSER, 'text/html; charset=utf-8'],
      ['format=api', BROWSER, 'text/html; charset=utf-8'],
    ] as const) {
      const answer = await site.get(`/v1/cms/event/?${query}`, { headers: accept ? { Accept: accept } : {} });
      expect(answer.status).toBe(200);
      expect(answer.headers.get('content-type'), `${query} ${accept}`).toBe(type);
      expect(answer.headers.get('vary')).toBe('Accept');
    }
  });

  it('unknown format → 404 JSON; unacceptable Accept → 406 JSON', async () => {
    const xml = await site.get('/v1/cms/event/?format=xml');
    expect(xml.status).toBe(404);
    expect(xml.json()).toEqual({ detail: 'Not found.' });
    const none = await site.get('/v1/cms/event/', { headers: { Accept: 'application/xml' } });
    expect(none.status).toBe(406);
    expect(none.json()).toEqual({ detail: 'Could not satisfy the request Accept header.' });
  });

  it('the HTML page shows the response with clickable links and the filters, all escaped', async () => {
    const page = (await site.get('/v1/cms/event/?limit=1&title__icontains=%3Cb%3E&offset=0', { headers: { Accept: BROWSER } })).text;
    expect(page).toContain('<th scope="row">title__icontains</th><td>&lt;b&gt;</td>');
    const list = (await site.get('/v1/cms/event/?id=66&limit=1&offset=1', { headers: { Accept: BROWSER } })).text;
    expect(list).toContain(`<a rel="prev" href="${BASE}/v1/cms/event/?id=66&amp;limit=1">`);
    const detail = (await site.get('/v1/cms/event/66/', { headers: { Accept: BROWSER } })).text;
    expect(detail).not.toContain('<script>');
    expect(detail).toContain('&lt;script&gt;alert(\\&quot;x\\&quot;)&lt;/script&gt;');
    expect(detail).not.toContain('" onmouseover');
  });
});

describe('OPTIONS', () => {
  it('describes the endpoint, its filters and expandable fields', async () => {
    const answer = await site.get('/v1/cms/event/', { method: 'OPTIONS' });
    expect(answer.status).toBe(200);
    const body = answer.json();
    expect(body).toMatchObject({ name: 'Event List', description: '', renders: ['application/json', 'text/html'], expandable: ['categories'] });
    expect(body.parses).toContain('application/json');
    expect(JSON.stringify(body.filters)).toContain('icontains');
    expect((await site.get('/v1/cms/event/42/', { method: 'OPTIONS' })).json().name).toBe('Event Instance');
    expect((await site.get('/v1/api/autocomplete/', { method: 'OPTIONS' })).json().name).toBe('Autocomplete');
  });

  it('describes the list in JSON when its GET would answer a calendar (`?format=ics`), and 404s a format no route has', async () => {
    const ics = await site.get('/v1/cms/event/?format=ics', { method: 'OPTIONS' });
    expect(ics.status).toBe(200);
    expect(ics.json()).toMatchObject({ name: 'Event List' });
    for (const format of ['__proto__', 'constructor', 'toString']) {
      for (const method of ['GET', 'OPTIONS']) expect((await site.get(`/v1/cms/event/?format=${format}`, { method })).status, `${method} ${format}`).toBe(404);
    }
  });
});

describe('values Django refuses before any lookup', () => {
  it('answers a NUL in a text filter 400, as Django\'s CharField does; an unnamed parameter is ignored without an empty header', async () => {
    for (const param of ['title', 'title__icontains', 'location__iregex']) {
      const r = await site.get(`/v1/cms/event/?${param}=a%00b`);
      expect(r.status).toBe(400);
      expect(r.json()).toEqual({ [param]: ['Null characters are not allowed.'] });
    }
    // a name of white space alone is no name either (the header's value would go out empty)
    for (const query of ['=5', '+=5', '%20%09=5&+']) {
      const unnamed = await site.get(`/v1/cms/event/?${query}`);
      expect(unnamed.status).toBe(200);
      expect(unnamed.headers.get('x-ignored-parameters'), query).toBeNull();
    }
    expect((await site.get('/v1/cms/event/?+=5&foo=1')).headers.get('x-ignored-parameters')).toBe('foo');
  });
});

describe('caching headers', () => {
  it('sends a strong ETag and answers If-None-Match with 304', async () => {
    const first = await site.get('/v1/cms/event/?limit=1');
    const etag = first.headers.get('etag')!;
    expect(etag).toMatch(/^"[^"]+"$/);
    expect(first.headers.get('cache-control')).toBe('public, max-age=60, s-maxage=300, stale-while-revalidate=60, stale-if-error=86400');
    const again = await site.get('/v1/cms/event/?limit=1', { headers: { 'If-None-Match': etag } });
    expect(again.status).toBe(304);
    expect(again.text).toBe('');
    expect(again.headers.get('etag')).toBe(etag);
    expect((await site.get('/v1/cms/event/?limit=2', { headers: { 'If-None-Match': etag } })).status).toBe(200);
  });

  it('refuses a Cache-Control Node cannot send when a host program starts the server or makes the API, not with a 500 per answer', async () => {
    const message = 'aula: cacheControl "max-age=60\\r\\nSet-Cookie: x=1" cannot be sent as a header value: printable characters only, no line breaks';
    await expect(serve({ dist: site.dist, port: 0, cacheControl: 'max-age=60\r\nSet-Cookie: x=1' })).rejects.toThrow(new TypeError(message));
    const dataset = loadDataset(site.dist);
    try {
      expect(() => createApi(dataset, { cacheControl: 'max-age=60\r\nSet-Cookie: x=1' })).toThrow(new TypeError(message));
      expect(() => createApi(dataset, { cacheControl: 'max-age=60 \u20ac' })).toThrow(/^aula: cacheControl "max-age=60 \u20ac" cannot be sent/);
    } finally {
      dataset.events.rows.close();
    }
  });

  it('takes Cache-Control from serve --cache-control', async () => {
    const other = await serve({ dist: site.dist, port: 0, host: '127.0.0.1', watch: false, cacheControl: 'no-store' });
    try {
      expect((await request(`${other.url}/v1/cms/event/`)).headers.get('cache-control')).toBe('no-store');
    } finally {
      await other.close();
    }
  });
});
