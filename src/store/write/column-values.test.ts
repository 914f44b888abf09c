import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generatedModel, removeDir, tempDir } from '../../../test/helpers.ts';
import type { Event, Model } from '../../model/types.ts';
import { renderEvent, type RenderContext } from '../../render/event.ts';
import { EventRows, serializeEvent } from '../format/event-rows.ts';
import { columnValuesFromRows, columnValuesOf, groupIds } from './column-values.ts';

let root: string;
let events: Event[];
let model: Model;
beforeAll(async () => {
  root = tempDir('aula-columns-');
  model = await generatedModel(root, { events: 300, directory: 5, seed: 4 });
  events = model.events;
});
afterAll(() => removeDir(root));

describe('columnValuesFromRows', () => {
  it('writes a -0 as 0, as the row holds it: the columns are a function of the rows', () => {
    const ctx: RenderContext = { site: model.site, baseUrl: 'https://example.org', pages: model.pages, media: model.media };
    const signed = events.slice(0, 2).map((e) => ({ ...e, dfp_points: -0 })) as Event[];
    const plain = events.slice(0, 2).map((e) => ({ ...e, dfp_points: 0 })) as Event[];
    const rowsOf = (list: Event[]) => EventRows.from(list.map((e) => serializeEvent(renderEvent(e, ctx))));
    expect(rowsOf(signed).lineBytes.equals(rowsOf(plain).lineBytes)).toBe(true);
    expect(Object.is(columnValuesFromRows(signed, rowsOf(signed)).dfp_points[0], 0)).toBe(true);
  });

  it("takes the strings from the events' rows, the same values columnValuesOf takes from the events", () => {
    // separators a row holds escaped (in one field, beside plain ones), the escape's text itself,
    // a surrogate pair, a lone surrogate, empty and null values
    const odd = ['a\u2028b', 'x\u2029', '\\u2028 as text', '😀 „x“', '', 'lone \ud800'];
    const all = events.map((e, i) => (i < odd.length ? { ...e, title: odd[i], location: i === 1 ? null : e.location, teaser: i === 2 ? 'c\u2028' : e.teaser, registration_end: null } : e)) as Event[];
    const zone = model.site.timezone;
    const ctx: RenderContext = { site: model.site, baseUrl: 'https://example.org', pages: model.pages, media: model.media };
    const rows = EventRows.from(all.map((e) => serializeEvent(renderEvent(e, ctx))));
    expect(rows.lineBytes.includes('\\u2028')).toBe(true);
    // the events' own text is not read when the rows are given (the build has let go of it)
    const blank = all.map((e) => ({ ...e, title: '', organizer: null, location: null, teaser: '', contact: null, email: null }));
    const fromRows = columnValuesFromRows(blank, rows);
    expect(fromRows).toEqual(columnValuesOf(all, zone));
    expect(fromRows.text.title.slice(0, odd.length)).toEqual(odd);
    expect(fromRows.iso.registration_end[0]).toBe(null);
    // the numbers and flags are the events' own, null as NaN
    expect(Array.from(fromRows.id)).toEqual(all.map((e) => e.id));
    expect(Array.from(fromRows.time.start)).toEqual(all.map((e) => e.start));
    expect(Array.from(fromRows.time.registration_end)).toEqual(all.map((e) => e.registration_end ?? NaN));
    expect(Array.from(fromRows.dfp_points)).toEqual(all.map((e) => e.dfp_points ?? NaN));
    expect(Array.from(fromRows.bool.allday)).toEqual(all.map((e) => (e.allday ? 1 : 0)));
    expect(fromRows.groups[0]).toEqual(groupIds(all[0].groups));
    // not held: the same strings, each column made anew from the rows whenever it is read
    const unheld = columnValuesFromRows(blank, rows, false);
    expect(unheld).toEqual(fromRows);
    expect(unheld.text.title).not.toBe(unheld.text.title);
    expect(unheld.iso.start).toEqual(fromRows.iso.start);
    expect(() => columnValuesFromRows(blank.slice(1), rows)).toThrow(/rows for/);
    expect(columnValuesFromRows([], EventRows.from([]))).toEqual(columnValuesOf([], 'UTC'));
  });
});
