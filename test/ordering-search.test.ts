// `ordering` and `search` where users meet them, over the sample dist (built once for the run) served
// by a real server (the rows read from their file, an ordered page read in file order): the JSON
// list against a plain reference over the content's events, the browsable HTML page, the calendar
// in the asked order, and the README's "upcoming events" recipe run as it is written.
import { execFile, spawnSync } from 'node:child_process';
import { promisify } from 'node:util';
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadContent } from '../src/content/load.ts';
import type { Event } from '../src/model/types.ts';
import { ORDER_FIELDS, type OrderKey } from '../src/query/events/ordering/ordering-param.ts';
import { defaultOrder, referenceOrder, referenceSearch } from '../src/api/events/test-ordering-events.ts';
import { blocksFor } from './docs/doc-blocks.ts';
import { removeDir, SAMPLE_CONTENT, servedSample, tempDir } from './helpers.ts';

const DOC_ORIGIN = 'http://127.0.0.1:8000';

let site: Awaited<ReturnType<typeof servedSample>>;
let events: Event[];

beforeAll(async () => {
  site = await servedSample();
  const { model } = await loadContent(SAMPLE_CONTENT);
  events = [...model!.events].sort(defaultOrder);
});

afterAll(async () => {
  await site?.close();
});

async function list(query: string) {
  const r = await site.get(`/v1/cms/event/?${query}`);
  const body = r.json() as { count: number; next: string | null; results: { id: number }[] };
  return { status: r.status, ignored: r.headers.get('x-ignored-parameters'), count: body.count, next: body.next, ids: body.results.map((e) => e.id) };
}

const keyText = (k: OrderKey) => `${k.descending ? '-' : ''}${k.field}`;
const FILTERS: { param: string; keep: (e: Event) => boolean }[] = [
  { param: '', keep: () => true },
  { param: 'register=true', keep: (e) => e.register },
  { param: 'dfp_points__gte=1', keep: (e) => e.dfp_points !== null && e.dfp_points >= 1 },
  { param: 'start__gte=2026-01-01T00:00Z', keep: (e) => e.start >= Date.UTC(2026, 0, 1) },
];

describe('ordering and search on a served dist, against a plain reference', () => {
  it('finds what makes the comparison worth it in the sample: nulls and ties', () => {
    expect(events.some((e) => e.dfp_points === null) && events.some((e) => e.dfp_points !== null)).toBe(true);
    expect(events.some((e) => e.registration_end === null)).toBe(true);
    expect(new Set(events.map((e) => e.dfp_points)).size).toBeLessThan(events.length / 4);
  });

  it('every field, both directions, pages across the list, with and without a filter and a search', async () => {
    const words = ['kurs', 'HERZ', 'müller', 'vortrag e', 'zzzqqq'];
    const mismatches: string[] = [];
    let compared = 0;
    for (const field of ORDER_FIELDS) {
      for (const descending of [false, true]) {
        const keys: OrderKey[] = [{ field, descending }];
        // a second key where the first ties
        if (field === 'dfp_points' || field === 'registration_end') keys.push({ field: 'title', descending: !descending });
        for (const [i, filter] of FILTERS.entries()) {
          const terms = i % 2 === 0 ? [] : words[(compared + i) % words.length].split(' ');
          const expected = events.filter((e) => filter.keep(e) && referenceSearch(e, terms)).sort(referenceOrder(keys)).map((e) => e.id);
          for (const offset of [0, 7, 95, Math.max(0, expected.length - 3)]) {
            const params = [`ordering=${keys.map(keyText).join(',')}`, `limit=10`, `offset=${offset}`];
            if (filter.param) params.push(filter.param);
            if (terms.length > 0) params.push(`search=${encodeURIComponent(terms.join(' '))}`);
            const got = await list(params.join('&'));
            compared++;
            const want = expected.slice(offset, offset + 10);
            if (got.status !== 200 || got.count !== expected.length || JSON.stringify(got.ids) !== JSON.stringify(want)) {
              mismatches.push(`${params.join('&')}: ${got.status} ${got.count} ${got.ids} ≠ ${expected.length} ${want}`);
            }
          }
        }
      }
    }
    expect(mismatches).toEqual([]);
    expect(compared).toBe(ORDER_FIELDS.length * 2 * FILTERS.length * 4);
  });

  it('next keeps ordering and search, and visits every match once', async () => {
    const query = 'ordering=-dfp_points,title&search=kurs&limit=9';
    const seen: number[] = [];
    let next: string | null = `${DOC_ORIGIN}/v1/cms/event/?${query}`;
    while (next !== null) {
      const page = await list(next.slice(next.indexOf('?') + 1));
      seen.push(...page.ids);
      next = page.next;
      if (next) expect(next).toMatch(/ordering=-dfp_points%2Ctitle&search=kurs/);
    }
    const expected = events.filter((e) => referenceSearch(e, ['kurs'])).sort(referenceOrder([{ field: 'dfp_points', descending: true }, { field: 'title', descending: false }]));
    expect(expected.length).toBeGreaterThan(9);
    expect(seen).toEqual(expected.map((e) => e.id));
  });

  it('names a dropped ordering term in X-Ignored-Parameters, and an ordering equal to the default answers the default list', async () => {
    const got = await list('ordering=titel,-start&limit=5');
    expect(got.ignored).toBe('ordering=titel');
    expect(got.ids).toEqual((await list('limit=5')).ids);
  });
});

describe('OPTIONS on the list', () => {
  it('names the ordering fields, the default order and the search fields', async () => {
    const r = await site.get('/v1/cms/event/', { method: 'OPTIONS' });
    const body = r.json();
    expect(body.ordering).toEqual({ parameter: 'ordering', fields: [...ORDER_FIELDS], default: ['-start', '-end', 'id'] });
    expect(body.search).toEqual({ parameter: 'search', fields: ['title', 'teaser', 'location', 'organizer', 'body'] });
  });
});

describe('the browsable HTML page', () => {
  it('shows the ordered matches, the parameters, and a next link that keeps them', async () => {
    const r = await site.get('/v1/cms/event/?ordering=title&search=kurs&limit=3', { headers: { accept: 'text/html' } });
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toMatch(/^text\/html/);
    const html = r.text;
    expect(html).toContain('<th scope="row">ordering</th><td>title</td>');
    expect(html).toContain('<th scope="row">search</th><td>kurs</td>');
    expect(html).toMatch(/<a rel="next" href="[^"]*ordering=title&amp;search=kurs[^"]*"/);
    const expected = events.filter((e) => referenceSearch(e, ['kurs'])).sort(referenceOrder([{ field: 'title', descending: false }])).slice(0, 3);
    // the events' own ids, at the results' depth of the pretty JSON
    const at = expected.map((e) => html.indexOf(`\n            &quot;id&quot;: ${e.id},`));
    expect(at.every((i) => i >= 0)).toBe(true);
    expect([...at].sort((a, b) => a - b)).toEqual(at);
  });
});

/** The calendar's events as (UID id, DTSTART line), in the feed's order. */
function calendarEvents(ics: string): { id: number; start: string }[] {
  return ics
    .split('BEGIN:VEVENT')
    .slice(1)
    .map((v) => ({ id: Number(/UID:event-(\d+)@/.exec(v)![1]), start: /DTSTART[^:]*:(\S+)/.exec(v)![1] }));
}

describe('the calendar in an ordering', () => {
  it('lists the upcoming events soonest first, as the JSON list does', async () => {
    const now = '2026-03-01T12:00Z';
    const r = await site.get(`/v1/cms/event/?format=ics&end__gte=${now}&ordering=start`);
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toMatch(/^text\/calendar/);
    const feed = calendarEvents(r.text);
    const expected = events.filter((e) => e.end >= Date.UTC(2026, 2, 1, 12)).sort(referenceOrder([{ field: 'start', descending: false }]));
    expect(expected.length).toBeGreaterThan(10);
    expect(feed.map((e) => e.id)).toEqual(expected.map((e) => e.id));
    // and not the default order, which is the other way round
    const plain = calendarEvents((await site.get(`/v1/cms/event/?format=ics&end__gte=${now}`)).text);
    expect(plain.map((e) => e.id)).not.toEqual(feed.map((e) => e.id));
  });

  it('searches and orders by any field', async () => {
    const r = await site.get('/v1/cms/event/?format=ics&search=kurs&ordering=-dfp_points,title');
    const expected = events.filter((e) => referenceSearch(e, ['kurs'])).sort(referenceOrder([{ field: 'dfp_points', descending: true }, { field: 'title', descending: false }]));
    expect(calendarEvents(r.text).map((e) => e.id)).toEqual(expected.map((e) => e.id));
  });
});

describe("the README's upcoming events", () => {
  const blocks = blocksFor('upcoming');

  it('run as written, with `date` telling a time in the sample: the events not ended by then, soonest first', async () => {
    expect(blocks).toHaveLength(1);
    const dir = tempDir('aula-upcoming-');
    try {
      // the clock of the commands: a `date` that prints a fixed time, in the format it is asked for
      const bin = join(dir, 'bin');
      mkdirSync(bin);
      writeFileSync(join(bin, 'date'), `#!/bin/sh\nexec ${realDate()} -u -d 2026-03-01T12:00:00Z "$@"\n`);
      chmodSync(join(bin, 'date'), 0o755);
      const lines = blocks[0].text.trim().split('\n');
      expect(lines).toHaveLength(2);
      // (not spawnSync: the server answering curl runs in this process)
      const run = async (line: string) => {
        const r = await promisify(execFile)('sh', ['-c', line.replaceAll(DOC_ORIGIN, site.url)], { encoding: 'utf8', env: { ...process.env, PATH: `${bin}:${process.env.PATH}` } });
        return r.stdout;
      };
      const upcoming = events.filter((e) => e.end >= Date.UTC(2026, 2, 1, 12)).sort(referenceOrder([{ field: 'start', descending: false }]));
      const page = JSON.parse(await run(lines[0])) as { count: number; results: { id: number }[] };
      expect(page.count).toBe(upcoming.length);
      expect(page.results.map((e) => e.id)).toEqual(upcoming.slice(0, 5).map((e) => e.id));
      expect(calendarEvents(await run(lines[1])).map((e) => e.id)).toEqual(upcoming.map((e) => e.id));
    } finally {
      removeDir(dir);
    }
  });
});

/** The real `date`, for the stub to call with its fixed time. */
function realDate(): string {
  const r = spawnSync('sh', ['-c', 'command -v date'], { encoding: 'utf8' });
  return r.stdout.trim();
}
