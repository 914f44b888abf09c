import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { removeDir, tempDir } from '../../../test/helpers.ts';
import { loadContent } from '../../content/load.ts';
import { generateContent } from '../../gen/content-generator.ts';
import type { Event, Model } from '../../model/types.ts';
import { renderEvent, type RenderContext } from '../../render/event.ts';
import { EventRows, serializeEvent } from './event-rows.ts';
import { textColumnsJson, textColumnsOf } from './columns.ts';

let root: string;
let events: Event[];
let model: Model;
beforeAll(async () => {
  root = tempDir('aula-columns-');
  await generateContent({ events: 300, directory: 5, seed: 4, outDir: join(root, 'content') });
  model = (await loadContent(join(root, 'content'))).model!;
  events = model.events;
});
afterAll(() => removeDir(root));

describe('textColumnsJson', () => {
  it('writes the bytes of JSON.stringify(textColumnsOf(…)), text beyond Latin-1, nulls and separators included', () => {
    // what the generated text lacks: a line separator, a surrogate pair, an empty and a null value
    const odd = events.slice(0, 3).map((e, i) => ({ ...e, title: ['a\u2028b', '😀 „x“', ''][i], teaser: i === 0 ? null : e.teaser, registration_end: null }));
    const all = [...odd, ...events.slice(3)] as Event[];
    expect(all.some((e) => /[^\x00-\xff]/.test(e.title))).toBe(true);
    for (const zone of ['Europe/Vienna', 'UTC']) {
      const json = textColumnsJson(all, zone);
      expect(json.equals(Buffer.from(JSON.stringify(textColumnsOf(all, zone))))).toBe(true);
    }
    expect(textColumnsJson([], 'UTC').toString()).toBe(JSON.stringify(textColumnsOf([], 'UTC')));
  });

  it("copies the values from the events' rows when given them, with the same bytes", () => {
    // separators a row holds escaped (in one field, beside plain ones), the escape's text itself,
    // a surrogate pair, empty and null values
    const odd = ['a\u2028b', 'x\u2029', '\\u2028 as text', '😀 „x“', ''];
    const all = events.map((e, i) => (i < odd.length ? { ...e, title: odd[i], location: i === 1 ? null : e.location, teaser: i === 2 ? 'c\u2028' : e.teaser, registration_end: null } : e)) as Event[];
    const zone = model.site.timezone;
    const ctx: RenderContext = { site: model.site, baseUrl: 'https://example.org', pages: model.pages, media: model.media };
    const rows = EventRows.from(all.map((e) => serializeEvent(renderEvent(e, ctx))));
    expect(rows.lineBytes.includes('\\u2028')).toBe(true);
    // the events' own text is not read when the rows are given (the build has let go of it)
    const blank = all.map((e) => ({ ...e, title: '', organizer: null, location: null, teaser: '', contact: null, email: null }));
    const json = textColumnsJson(blank, zone, rows);
    expect(json.equals(textColumnsJson(all, zone))).toBe(true);
    expect(JSON.parse(json.toString()).text.title.slice(0, odd.length)).toEqual(odd);
    expect(() => textColumnsJson(blank.slice(1), zone, rows)).toThrow(/rows for/);
    expect(textColumnsJson([], 'UTC', EventRows.from([])).toString()).toBe(JSON.stringify(textColumnsOf([], 'UTC')));
  });
});
