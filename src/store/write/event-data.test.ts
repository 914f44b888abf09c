// eventData with the previous build's data gives the bytes eventData gives without it: after
// edits in place (the in-place column path), deletions, insertions and moves (the splice), and
// with no row changed at all, every part, offsets file, column file, calendar and search index.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generatedModel, removeDir, tempDir } from '../../../test/helpers.ts';
import type { Event, Model } from '../../model/types.ts';
import { calendarData } from '../../pipeline/render/calendar-data.ts';
import { compareListOrder, type RenderContext } from '../../render/event.ts';
import { readCalendarFile } from '../read/calendar-file.ts';
import { readColumns } from '../read/column-files.ts';
import { memorySource } from '../read/dist-source.ts';
import { mulberry32 } from '../../util/mulberry32.ts';
import { calendarPartFile, DATA_FILES } from '../format/dist-paths.ts';
import { COLUMN_FILES, columnFile } from '../format/column-files.ts';
import { columnValuesFromRows } from './column-values.ts';
import { renderRows } from './data-files.ts';
import { bytesOfParts, eventData, partBytes, type EventData, type PreviousData } from './event-data.ts';

const PART_ROWS = 16;

let root: string;
let model: Model;
let ctx: RenderContext;
beforeAll(async () => {
  root = tempDir('aula-event-data-');
  model = await generatedModel(root, { events: 150, directory: 5, seed: 7 });
  ctx = { site: model.site, baseUrl: 'https://example.org', pages: model.pages, media: model.media };
});
afterAll(() => removeDir(root));

/** The data of `events` (list order), made whole, and its parts' bytes. */
function whole(events: readonly Event[]): { data: EventData; parts: Uint8Array[] } {
  const rows = renderRows(events, ctx);
  const data = eventData({ rows, values: columnValuesFromRows(events, rows), order: null, previous: null, timezone: model.site.timezone, ids: events.map((e) => e.id), partRows: PART_ROWS, calendar: calendarData });
  return { data, parts: data.parts.map((segments) => partBytes(segments!, () => { throw new Error('no previous parts'); })) };
}

/** What a later build knows of `made`: its data as PreviousData, with its columns as loaded from their files. */
function previousOf(made: { data: EventData; parts: Uint8Array[] }, count: number): PreviousData {
  const { files, cut } = made.data;
  return {
    starts: made.data.starts,
    parts: cut,
    bounds: made.data.bounds,
    values: made.data.values,
    file: (rel) => files.get(rel)!,
    calendar: (p) => readCalendarFile(files.get(calendarPartFile(cut[p].name))!, cut[p].rows),
    table: () => readColumns(memorySource(files, 'previous'), count, true),
    bytes: (begin, end) => bytesOfParts(made.parts, made.data.bounds, begin, end),
  };
}

/** `after` made over `before`'s data: the rows that are `before`'s found by identity, the rest rendered. */
function over(before: readonly Event[], made: { data: EventData; parts: Uint8Array[] }, after: readonly Event[], unreadable = false) {
  const place = new Map(before.map((e, i) => [e, i]));
  const order = new Int32Array(after.length);
  const fresh: Event[] = [];
  let last = -1;
  after.forEach((e, i) => {
    const was = place.get(e);
    if (was === undefined || was <= last) order[i] = -fresh.push(e);
    else order[i] = last = was;
  });
  const rows = renderRows(fresh, ctx);
  const data = eventData({ rows, values: columnValuesFromRows(fresh, rows), order, previous: { ...previousOf(made, before.length), ...(unreadable && { bytes: () => { throw new Error('the previous parts are gone'); } }) }, timezone: model.site.timezone, ids: after.map((e) => e.id), partRows: PART_ROWS, calendar: calendarData });
  // a part kept is the previous part of its name
  const named = new Map(made.data.cut.map((p, j) => [p.name, made.parts[j]]));
  const parts = data.parts.map((segments, j) => (segments ? partBytes(segments, (b, e) => bytesOfParts(made.parts, made.data.bounds, b, e)) : named.get(data.cut[j].name)!));
  return { data, parts };
}

function expectSame(a: { data: EventData; parts: Uint8Array[] }, b: { data: EventData; parts: Uint8Array[] }, what: string) {
  expect(b.parts.map((p) => Buffer.from(p).toString('base64')), what).toEqual(a.parts.map((p) => Buffer.from(p).toString('base64')));
  expect([...b.data.files.keys()].sort(), what).toEqual([...a.data.files.keys()].sort());
  for (const [rel, bytes] of a.data.files) expect(Buffer.from(b.data.files.get(rel)!).equals(Buffer.from(bytes)), `${what}: ${rel}`).toBe(true);
}

const sorted = (events: Event[]) => events.sort(compareListOrder);

describe('eventData over the previous data', () => {
  it('gives the bytes of the data made whole, after edits in place, deletions, insertions and moves', () => {
    const rnd = mulberry32(11);
    const base = sorted([...model.events]);
    const made = whole(base);
    let serial = 0;
    const edits: Record<string, (list: Event[]) => Event[]> = {
      'nothing changed': (list) => list,
      // in place: the list order holds (title, teaser, dfp_points, flags, a null, a -0)
      'titles and teasers in place': (list) => list.map((e) => (rnd() < 0.1 ? { ...e, title: `Neu ${serial++} ${e.title}`, teaser: rnd() < 0.5 ? '' : `Kurz ${serial}` } : e)),
      'numbers and flags in place': (list) => list.map((e) => (rnd() < 0.1 ? { ...e, dfp_points: rnd() < 0.3 ? -0 : Math.floor(rnd() * 10), register: !e.register, location: null } : e)),
      'one event in place, its values all the same': (list) => list.map((e, i) => (i === 7 ? { ...e } : e)),
      'texts with escapes in place': (list) => list.map((e, i) => (i % 9 === 4 ? { ...e, title: `Sag "Hallo" \\ ${serial++}\u2028Ende`, organizer: i % 2 ? null : 'Ärztekammer\tWien' } : e)),
      deletions: (list) => list.filter(() => rnd() > 0.1),
      insertions: (list) => sorted([...list, ...list.slice(0, 5).map((e) => ({ ...e, id: 900_000 + serial++, title: `Eingefügt ${serial}` }))]),
      'a start moved': (list) => sorted(list.map((e, i) => (i === 3 ? { ...e, start: e.start + 400 * 86_400_000, end: e.end + 400 * 86_400_000 } : e))),
    };
    for (const [what, edit] of Object.entries(edits)) {
      const after = edit([...base]);
      expectSame(whole(after), over(base, made, after), what);
    }
  });

  it('keeps every part but the one or two a row added at the top, or removed, falls in', () => {
    const base = sorted([...model.events]);
    const made = whole(base);
    expect(made.data.cut.length).toBeGreaterThan(5);
    const top = { ...base[0], id: 990_001, start: base[0].start + 86_400_000, end: base[0].end + 86_400_000 };
    for (const [what, after] of [['added at the top', sorted([top, ...base])], ['the first removed', base.slice(1)], ['one in the middle removed', base.filter((_, i) => i !== 70)]] as const) {
      const { data } = over(base, made, after);
      expect(data.parts.filter((segments) => segments !== null).length, what).toBeLessThanOrEqual(2);
      expect(data.cut.length - made.data.cut.length, what).toBeLessThanOrEqual(1);
    }
  });

  it('takes every column file as it is when the rows in place hold the same values', () => {
    const base = sorted([...model.events]);
    const made = whole(base);
    const { data } = over(base, made, base.map((e, i) => (i === 7 || i === 40 ? { ...e } : e)));
    for (const rel of COLUMN_FILES) expect(data.reused.has(rel), rel).toBe(true);
    const retitled = over(base, made, base.map((e, i) => (i === 7 ? { ...e, title: `${e.title} neu` } : e)));
    expect([...COLUMN_FILES].filter((rel) => !retitled.data.reused.has(rel))).toEqual([columnFile.text('title')]);
  });

  it('compares with the previous column files where the previous rows cannot be read', () => {
    const base = sorted([...model.events]);
    const made = whole(base);
    const after = base.map((e, i) => (i === 7 ? { ...e, title: `${e.title} neu` } : i === 40 ? { ...e } : e));
    const unreadable = over(base, made, after, true);
    expect([...COLUMN_FILES].filter((rel) => !unreadable.data.reused.has(rel))).toEqual([columnFile.text('title')]);
    expectSame(whole(after), unreadable, 'rows unreadable');
  });
});

describe('partBytes', () => {
  const previous = Buffer.from('{"a":1}\n{"b":2}\n{"c":3}');
  const segments = [{ bytes: Buffer.from('{"n":0}\n') }, { begin: 8, end: 16 }, { begin: 0, end: 7 }];
  const whole = Buffer.concat([segments[0].bytes as Buffer, previous.subarray(8, 16), previous.subarray(0, 7)]);

  it('reads the previous ranges straight into the part where the reader takes a place', () => {
    const places: number[] = [];
    const into = (begin: number, end: number, out?: Uint8Array, at?: number) => {
      places.push(at!);
      out!.set(previous.subarray(begin, end), at);
      return out!.subarray(at!, at! + end - begin);
    };
    expect(Buffer.from(partBytes(segments, into))).toEqual(whole);
    expect(places).toEqual([8, 16]);
  });

  it('copies what a reader that takes no place gives', () => {
    expect(Buffer.from(partBytes(segments, (begin, end) => previous.subarray(begin, end)))).toEqual(whole);
  });
});
