import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generatedModel, removeDir, tempDir } from '../../test/helpers.ts';
import { EVENT_FIELDS } from '../model/event-fields.ts';
import type { Model } from '../model/types.ts';
import { serializeEvent, serializeEventBytes } from '../store/format/event-rows.ts';
import { compareListOrder, renderEvent, sortListOrder, type RenderContext } from './event.ts';

let root: string;
let model: Model;
beforeAll(async () => {
  root = tempDir('aula-render-');
  model = await generatedModel(root, { events: 200, directory: 5, seed: 9 });
});
afterAll(() => removeDir(root));

describe('renderEvent', () => {
  it("makes each event's keys in table order, so that its row is one JSON.stringify (event-rows.ts)", () => {
    const ctx: RenderContext = { site: model.site, baseUrl: 'https://example.org', pages: model.pages, media: model.media };
    for (const e of model.events) {
      const obj = renderEvent(e, ctx);
      expect(Object.keys(obj)).toEqual([...EVENT_FIELDS]);
      // the row is that object's JSON, its offsets those of its fields
      const row = serializeEventBytes(obj);
      expect(row.json).toBe(JSON.stringify(obj));
      EVENT_FIELDS.forEach((f, i) => {
        const [from, to] = [row.starts[i] + f.length + 3, row.starts[i + 1] - 1];
        expect(JSON.parse(row.bytes.toString('utf8', from, to))).toEqual(obj[f]);
      });
      expect(serializeEvent(obj).starts).toEqual(row.starts);
    }
    // and the scan was what found them: the fallback (field by field) makes a buffer of its own
    const [a, b] = model.events.slice(0, 2).map((e) => serializeEventBytes(renderEvent(e, ctx)).bytes.buffer);
    expect(a).toBe(b);
  });
});

describe('sortListOrder', () => {
  it('orders as sort(compareListOrder) does, ties kept in their order, over events of many shapes', () => {
    let x = 7;
    const next = (n: number) => ((x = (x * 1103515245 + 12345) & 0x7fffffff) % n);
    const keys = ['title', 'teaser', 'body', 'page', 'media'];
    // few distinct starts and ends, and repeated ids: most comparisons fall through to the next key, and some to none
    const events = Array.from({ length: 3000 }, (_, i) => {
      const e: Record<string, unknown> = {};
      for (const k of keys.filter(() => next(2) === 0)) e[k] = i;
      return Object.assign(e, { start: next(20) * 60_000 - 600_000, end: next(5) * 3_600_000, id: next(400), n: i }) as unknown as { start: number; end: number; id: number; n: number };
    });
    const expected = [...events].sort(compareListOrder);
    const sorted = [...events];
    expect(sortListOrder(sorted)).toBe(sorted);
    expect(sorted.map((e) => e.n)).toEqual(expected.map((e) => e.n));
    // the comparisons' ties are there to be kept
    expect(new Set(events.map((e) => `${e.start} ${e.end} ${e.id}`)).size).toBeLessThan(events.length);
  });
});
