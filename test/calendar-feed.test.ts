// An uncached calendar over the whole list of a generated site of a few thousand events: answered
// (not refused as too expensive), byte for byte the feed renderCalendar makes of the events the API
// lists, within the work limit by the core's own count, and within a bounded CPU time of the
// server's main thread (from /proc, never wall time).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bodyBuffer } from '../src/api/body.ts';
import { createApi } from '../src/api/core.ts';
import { CALENDAR_CAP, calendarName } from '../src/api/events/calendar.ts';
import { renderCalendar, type RenderedEvent } from '../src/api/ical/feed.ts';
import { generateContent } from '../src/gen/content-generator.ts';
import { loadDataset, type Dataset } from '../src/query/dataset.ts';
import { DEFAULT_WORK_LIMIT, metered, WorkMeter } from '../src/query/work-budget.ts';
import { startAula } from './aula-cli.ts';
import { buildOk, removeDir, tempDir } from './helpers.ts';

const EVENTS = 3000;

/**
 * Main-thread CPU one whole-list feed of EVENTS events may take: its VTIMEZONE, a UID, DTSTAMP and
 * CATEGORIES line per entry, the stored lines copied (bench/results.md has the figures), bounded
 * generously for a busy machine. A feed whose entries were formatted per request took about ten
 * times as much, and was refused under the work limit.
 */
const CPU_BOUND_MS = 150;

let root: string;
let dist: string;

beforeAll(async () => {
  root = tempDir('aula-calendar-feed-');
  const content = join(root, 'content');
  await generateContent({ events: EVENTS, directory: 20, seed: 31, outDir: content });
  dist = join(root, 'dist');
  await buildOk({ content, out: dist, precompress: false });
}, 240_000);
afterAll(() => removeDir(root));

/** The feed renderCalendar makes of every event as the API lists it (the stored rows' JSON), under the dataset's base URL. */
function renderedFeed(ds: Dataset): Buffer {
  const events: RenderedEvent[] = [];
  for (let row = 0; row < Math.min(ds.events.rows.length, CALENDAR_CAP); row++) events.push(JSON.parse(ds.events.rows.json(row)) as RenderedEvent);
  const categoryTitles = new Map([...ds.categories.json].map(([id, json]) => [id, String((JSON.parse(json) as { title: unknown }).title)]));
  const options = { timezone: ds.site.timezone, name: calendarName(ds.site, ds.baseUrl), baseUrl: ds.baseUrl, now: new Date(ds.manifest.built_at), categoryTitles };
  return Buffer.from(renderCalendar(events, options));
}

describe('the calendar of a generated site of a few thousand events', () => {
  it.each([
    ['as built', undefined],
    ['under another base URL (aula serve --base-url)', `https://${'calendar-'.repeat(8)}host.example.org:8443/prefix`],
  ])("answers ?format=ics over the whole list %s: 200, renderCalendar's bytes, within the work limit", (_, baseUrl) => {
    const ds = loadDataset(dist, { baseUrl });
    expect(ds.events.table.length).toBe(EVENTS);
    const meter = new WorkMeter(Number.MAX_SAFE_INTEGER);
    const answer = metered(meter, () => createApi(ds, { cacheLimits: { entries: 0, bytes: 0 } })({ method: 'GET', path: '/v1/cms/event/', query: 'format=ics', headers: {} }));
    expect(answer.status).toBe(200);
    expect(bodyBuffer(answer.body).equals(renderedFeed(ds))).toBe(true);
    expect(meter.used).toBeLessThan(DEFAULT_WORK_LIMIT * (EVENTS / CALENDAR_CAP));
  });

  it('takes a bounded main-thread CPU time of aula serve per uncached feed', async () => {
    const serve = startAula(['serve', '--dist', dist, '--port', '0', '--quiet']);
    try {
      const origin = await serve.origin;
      const pid = serve.child.pid!;
      /** CPU time (user + system) of the main thread so far, in ms (10 ms ticks) */
      const mainThreadMs = () => {
        const fields = readFileSync(`/proc/${pid}/task/${pid}/stat`, 'utf8').replace(/^.*\) /, '').split(' ');
        return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
      };
      const get = async (query: string) => {
        const res = await fetch(`${origin}/v1/cms/event/?${query}`, { headers: { 'accept-encoding': 'identity' } });
        return { status: res.status, bytes: Buffer.from(await res.arrayBuffer()) };
      };
      const whole = renderedFeed(loadDataset(dist));
      // the first answers warm the process up (its code compiled, its buffers grown)
      for (let i = 0; i < 3; i++) await get(`format=ics&warm=${i}`);
      const spent: number[] = [];
      for (let i = 0; i < 10; i++) {
        const before = mainThreadMs();
        // a parameter of its own: no cache holds the answer
        const answer = await get(`format=ics&n=${i}`);
        spent.push(mainThreadMs() - before);
        expect(answer.status).toBe(200);
        expect(answer.bytes.equals(whole)).toBe(true);
      }
      spent.sort((a, b) => a - b);
      expect(spent[Math.floor(spent.length / 2)], `main-thread CPU per feed: ${spent.join(', ')} ms`).toBeLessThanOrEqual(CPU_BOUND_MS);
    } finally {
      await serve.stop('SIGKILL');
    }
  });
});
