// The default event list over the bundled sample content: pagination, links, static pages.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Manifest } from '../src/store/format/manifest.ts';
import { servedSample } from './helpers.ts';

let site: Awaited<ReturnType<typeof servedSample>> & { built: { manifest: Manifest } };
let base: string;

beforeAll(async () => {
  const served = await servedSample();
  site = { ...served, built: { manifest: JSON.parse(readFileSync(join(served.dist, 'manifest.json'), 'utf8')) as Manifest } };
  base = site.built.manifest.base_url;
});
afterAll(() => site.close());

/** The server's answer for an absolute link of the dist. */
const follow = (link: string) => site.get(link.slice(base.length));

describe('following next', () => {
  it('visits every event once, in start desc / end desc / id asc order', async () => {
    const seen: any[] = [];
    let page = (await site.get('/v1/cms/event/')).json();
    const count = page.count;
    expect(count).toBe(site.built.manifest.counts.events);
    expect(count).toBeGreaterThan(100);
    for (;;) {
      seen.push(...page.results);
      if (!page.next) break;
      page = (await follow(page.next)).json();
    }
    expect(seen).toHaveLength(count);
    expect(new Set(seen.map((e) => e.id)).size).toBe(count);
    for (let i = 1; i < seen.length; i++) {
      const [a, b] = [seen[i - 1], seen[i]];
      const order = Date.parse(b.start) - Date.parse(a.start) || Date.parse(b.end) - Date.parse(a.end) || a.id - b.id;
      expect(order, `${a.id} before ${b.id}`).toBeLessThanOrEqual(0);
    }
  });

  it('walks back with previous to the first page', async () => {
    let page = (await site.get('/v1/cms/event/?offset=60')).json();
    let steps = 0;
    while (page.previous) {
      page = (await follow(page.previous)).json();
      steps++;
    }
    expect(steps).toBe(3);
    expect(page.results).toEqual((await site.get('/v1/cms/event/')).json().results);
  });
});

describe('pagination links', () => {
  const links = async (query: string) => {
    const { count, next, previous, results } = (await site.get(`/v1/cms/event/?${query}`)).json();
    return { count, next, previous, n: results.length };
  };
  it('first page', async () => {
    expect(await links('')).toMatchObject({ next: `${base}/v1/cms/event/?limit=20&offset=20`, previous: null, n: 20 });
  });
  it('middle page with odd limit and offset', async () => {
    expect(await links('limit=7&offset=5')).toMatchObject({
      next: `${base}/v1/cms/event/?limit=7&offset=12`,
      previous: `${base}/v1/cms/event/?limit=7`,
      n: 7,
    });
  });
  it('last page and beyond the end', async () => {
    const { count } = await links('');
    expect(await links(`limit=1&offset=${count - 1}`)).toMatchObject({ next: null, previous: `${base}/v1/cms/event/?limit=1&offset=${count - 2}`, n: 1 });
    expect(await links(`offset=${count + 100}`)).toMatchObject({ next: null, previous: `${base}/v1/cms/event/?limit=20&offset=${count + 80}`, n: 0 });
  });
  it('odd limits fall back or clamp, bad offsets read as 0', async () => {
    for (const q of ['limit=0', 'limit=-1', 'limit=abc', 'limit=7.0', 'limit=']) expect((await links(q)).n).toBe(20);
    expect((await links('limit=%207')).n).toBe(7);
    expect(await links('limit=5000')).toMatchObject({ next: null, n: (await links('')).count > 1000 ? 1000 : (await links('')).count });
    expect((await links('offset=abc')).previous).toBeNull();
    expect((await links('limit=2&limit=3')).next).toBe(`${base}/v1/cms/event/?limit=3&offset=3`);
  });
  it('keeps other parameters sorted in the links', async () => {
    expect((await links('format=json&offset=20&zeta=1')).next).toBe(`${base}/v1/cms/event/?format=json&limit=20&offset=40&zeta=1`);
  });
});

describe('static pages', () => {
  it('are byte-identical to the server answer for the URL each stands for', async () => {
    const { manifest } = site.built;
    const first = readFileSync(join(site.dist, manifest.event_list.first), 'utf8');
    expect((await site.get('/v1/cms/event/')).text).toBe(first);
    let link: string | null = JSON.parse(first).next;
    let pages = 1;
    while (link) {
      const offset = new URL(link).searchParams.get('offset')!;
      const file = readFileSync(join(site.dist, manifest.event_list.further.replace('{offset}', offset)), 'utf8');
      const answer = await follow(link);
      expect(answer.text, link).toBe(file);
      link = answer.json().next;
      pages++;
    }
    expect(pages).toBe(manifest.counts.event_list_pages);
  });
});
