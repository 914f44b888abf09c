// The work limit of a request through the API core: a request that needs more work than it may do
// is answered 400 "Too expensive", whole or not at all, the same way every time; the build's own
// documents have no limit.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { createApi, type Api } from '../src/api/core.ts';
import { loadDataset, type Dataset } from '../src/query/dataset.ts';
import { metered, WorkMeter } from '../src/query/work-budget.ts';
import { apiOver, buildOk, removeDir, sampleDist, tempDir, writeContent } from './helpers.ts';

let ds: Dataset;

beforeAll(() => {
  ds = loadDataset(sampleDist());
});

const get = (api: Api, path: string, query: string, accept?: string) => api({ method: 'GET', path, query, headers: { accept } });

/** The units a request spends with no limit, counted by a meter around the core. */
function workOf(path: string, query: string, accept?: string): number {
  const meter = new WorkMeter(Number.MAX_SAFE_INTEGER);
  metered(meter, () => get(createApi(ds, { workLimit: Number.MAX_SAFE_INTEGER, cacheLimits: { entries: 0, bytes: 0 } }), path, query, accept));
  return meter.used;
}

describe('the work limit of a request', () => {
  const cases: [string, string, string?][] = [
    ['/v1/cms/event/', 'limit=1000'],
    ['/v1/cms/event/', 'limit=1000&expand=categories&fields=id,title,categories'],
    ['/v1/cms/event/', 'limit=1000', 'text/html'],
    ['/v1/cms/event/', 'format=ics'],
    ['/v1/api/autocomplete/', 'q=a+e&limit=1000'],
    ['/v1/cms/event/', 'ordering=-registration_end,title&limit=1000&offset=20'],
    ['/v1/cms/event/', 'search=e%20kurs&ordering=-dfp_points,title&register=true&offset=3'],
    ['/v1/cms/event/', 'search=%22in%20der%22'],
    ['/v1/cms/event/', 'format=ics&end__gte=2025-06-01&ordering=start'],
  ];

  it.each(cases)('answers %s?%s whole under the default limit, and 400 "Too expensive" under a smaller one', (path, query, accept) => {
    const needed = workOf(path, query, accept);
    expect(needed).toBeGreaterThan(0);
    const enough = createApi(ds, { workLimit: needed });
    expect(get(enough, path, query, accept).status).toBe(200);
    const short = createApi(ds, { workLimit: needed - 1 });
    const refused = get(short, path, query, accept);
    expect(refused.status).toBe(400);
    const text = String(refused.body);
    expect(text).toContain('Too expensive: ');
    expect(text).toContain(`(${needed - 1} units)`);
    if (accept === 'text/html') expect(refused.headers['Content-Type']).toMatch(/^text\/html/);
    else expect(JSON.parse(text)).toEqual({ detail: expect.stringMatching(/^Too expensive: /) });
    // counted, not timed: the same request is refused again, by a fresh core too
    expect(String(get(short, path, query, accept).body)).toBe(text);
    expect(String(get(createApi(ds, { workLimit: needed - 1 }), path, query, accept).body)).toBe(text);
  });

  it('costs the same whatever was asked before it (kept word plans and results charge again)', () => {
    const api = createApi(ds, { workLimit: Number.MAX_SAFE_INTEGER, cacheLimits: { entries: 0, bytes: 0 } });
    const once = (query: string) => {
      const meter = new WorkMeter(Number.MAX_SAFE_INTEGER);
      metered(meter, () => get(api, '/v1/api/autocomplete/', query));
      return meter.used;
    };
    const first = once('q=muellerx+schmidtx');
    expect(once('q=muellerx+schmidtx')).toBe(first);
  });

  it('tests a detail route\'s filters on its one event: a filter the list is refused for costs one test there', () => {
    const query = `teaser__iregex=${encodeURIComponent('.*(a|e|i|o|u).*(a|e|i|o|u).*z')}`;
    const ids = ds.events.table.columns.id;
    const [first, last] = [ids[0], ids[ids.length - 1]];
    const list = workOf('/v1/cms/event/', query);
    const detail = Math.max(workOf(`/v1/cms/event/${first}/`, query), workOf(`/v1/cms/event/${last}/`, query));
    // (one test of a costly pattern is itself a few hundred candidates of a cheap one)
    expect(detail * 10).toBeLessThan(list);
    const api = createApi(ds, { workLimit: detail });
    expect(get(api, '/v1/cms/event/', query).status).toBe(400);
    for (const id of [first, last]) {
      // as the filters without a limit answer it: the event, or not found when they leave it out
      const free = get(createApi(ds, { workLimit: Number.MAX_SAFE_INTEGER }), `/v1/cms/event/${id}/`, query);
      expect([200, 404]).toContain(free.status);
      expect(get(api, `/v1/cms/event/${id}/`, query).status).toBe(free.status);
    }
  });

  it('leaves the build its documents whole: events.ics is the feed the core answers without a limit', () => {
    const unlimited = createApi(ds, { workLimit: Number.MAX_SAFE_INTEGER });
    const file = readFileSync(join(sampleDist(), 'events.ics'), 'utf8');
    expect(String(get(unlimited, '/v1/cms/event/', 'format=ics').body)).toBe(file);
  });
});

describe('a list page larger than the server answers', () => {
  it('is built whole, and the build says the server refuses it', async () => {
    const root = tempDir();
    try {
      // ten events of 4 MB bodies on one page: ~40 MB, past what one request may read
      const body = `${'Herz und Kreislauf. '.repeat(200_000)}\n`;
      const files: Record<string, string> = { 'site.yaml': 'base_url: http://127.0.0.1:8000\ntimezone: Europe/Vienna\npage_size: 10\n' };
      for (let i = 10; i < 20; i++) files[`events/e${i}.md`] = `---\nid: ${i}\ntitle: Vortrag ${i}\nstart: 2026-03-${i}T09:00\nend: 2026-03-${i}T12:00\nlast_modified: 2026-01-01T00:00:00Z\n---\n\n${body}`;
      const content = writeContent(join(root, 'content'), files);
      const out = join(root, 'dist');
      const warnings: string[] = [];
      await buildOk({ content, out, precompress: false, minisearch: false, onWarning: (m) => warnings.push(m) });
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toMatch(/^1 event list page\(s\) \(the first v1\/cms\/event\/index\.json\) need more work than aula serve does for one request: it answers them 400 "Too expensive"/);
      expect(JSON.parse(readFileSync(join(out, 'v1/cms/event/index.json'), 'utf8')).results).toHaveLength(10);
      expect(apiOver(out)('/v1/cms/event/').status).toBe(400);
      expect(apiOver(out)('/v1/cms/event/?limit=5').status).toBe(200);
    } finally {
      removeDir(root);
    }
  });

  it('charges a phrase checked in text beyond ASCII for its folding word by word, not as ASCII', async () => {
    // the same words, with and without umlauts: folding the second is several times dearer a byte
    const root = tempDir();
    try {
      let seed = 3;
      const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
      const words = Array.from({ length: 3000 }, () => Array.from({ length: 3 + Math.floor(next() * 4) }, () => 'abcdefghik'[Math.floor(next() * 10)]).join('')).join(' ');
      const units: number[] = [];
      for (const [name, body] of [['ascii', words], ['umlauts', words.replace(/a/g, 'ä').replace(/o/g, 'ö')]]) {
        const files: Record<string, string> = { 'site.yaml': 'base_url: http://127.0.0.1:8000\ntimezone: Europe/Vienna\n' };
        for (let i = 10; i < 30; i++) files[`events/e${i}.md`] = `---\nid: ${i}\ntitle: Vortrag ${i}\nstart: 2026-03-${i}T09:00\nend: 2026-03-${i}T12:00\nlast_modified: 2026-01-01T00:00:00Z\n---\n\n${body}\n`;
        const out = join(root, name);
        await buildOk({ content: writeContent(join(root, `${name}-content`), files), out, precompress: false, minisearch: false });
        const meter = new WorkMeter(Number.MAX_SAFE_INTEGER);
        // every event holds both words and none the phrase: each is read and checked
        const [a, b] = [body.split(' ')[5], body.split(' ')[9]];
        metered(meter, () => get(createApi(loadDataset(out), { workLimit: Number.MAX_SAFE_INTEGER, cacheLimits: { entries: 0, bytes: 0 } }), '/v1/cms/event/', `search=${encodeURIComponent(`"${b} ${a}"`)}`));
        units.push(meter.used);
      }
      expect(units[1]).toBeGreaterThan(3 * units[0]);
    } finally {
      removeDir(root);
    }
  });
});
