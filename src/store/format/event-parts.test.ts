import { zoneTableText } from '../../time/offsets.ts';
import { COLUMN_FILES } from './column-files.ts';
import { describe, expect, it } from 'vitest';
import { EVENT_FIELDS } from '../../model/event-fields.ts';
import fc from 'fast-check';
import { eventPartFile, eventPartFiles, loadedFiles, partFirsts, partOfRow } from './dist-paths.ts';
import { cutParts, partBounds, splitParts } from './event-parts.ts';
import { EventRows, serializeEvent } from './event-rows.ts';
import { DistError, parseManifest } from './manifest.ts';
import { joinedView, partRows } from './row-source.ts';

const K = 4;

function rowsOf(count: number): EventRows {
  const empty = Object.fromEntries(EVENT_FIELDS.map((f) => [f, null])) as Record<(typeof EVENT_FIELDS)[number], unknown>;
  return EventRows.from(Array.from({ length: count }, (_, i) => serializeEvent({ ...empty, id: i + 1, title: `Ä ${'x'.repeat(i * 3)}` })));
}

/** A manifest as a build writes one (its files aside). */
const VALID_MANIFEST = {
  format: 10, version: '0.1.0', built_at: '2025-01-01T00:00:00.000Z', base_url: 'https://example.org/x',
  site: { timezone: 'Europe/Vienna', page_size: 20, max_page_size: 1000 },
  counts: { events: 10, pages: 0, categories: 0, media: 0, directory: 0, event_list_pages: 1 },
  event_parts: [{ name: '1', rows: 4 }, { name: '5', rows: 6 }], event_list: { first: 'v1/cms/event/index.json', further: 'v1/cms/event/{offset}.json', limit: 20 }, files: {},
};

describe('event parts', () => {
  for (const count of [0, 1, K - 1, K, K + 1, 2 * K, 2 * K + 1, 8 * K]) {
    it(`${count} rows: parts cut by their ids whose concatenation is the rows, each but the last ending with its newline`, () => {
      const rows = rowsOf(count);
      const cut = cutParts(Array.from({ length: count }, (_, i) => i + 1), K);
      const firsts = partFirsts(cut);
      const parts = splitParts(rows.lineBytes, rows.starts, firsts);
      expect(parts).toHaveLength(cut.length);
      expect(firsts[firsts.length - 1]).toBe(count);
      expect(Buffer.concat(parts).equals(rows.lineBytes)).toBe(true);
      parts.forEach((part, i) => {
        const text = Buffer.from(part).toString();
        const last = i === parts.length - 1;
        expect(text.endsWith('\n'), `part ${i}`).toBe(!last && count > 0);
        // whole rows only, as many as the cut says, the first named by the part
        const lines = text === '' ? [] : text.replace(/\n$/, '').split('\n');
        expect(lines).toHaveLength(cut[i].rows);
        lines.forEach((line) => expect(() => JSON.parse(line)).not.toThrow());
        if (count > 0) expect(String(JSON.parse(lines[0]).id)).toBe(cut[i].name);
        for (let r = firsts[i]; r < firsts[i + 1]; r++) expect(partOfRow(firsts, r)).toBe(i);
      });
      const bounds = partBounds(rows.starts, firsts);
      expect(bounds[0]).toBe(0);
      expect(bounds[bounds.length - 1]).toBe(rows.lineBytes.length);
      // the parts held apart read back as the rows, a run across a boundary included
      const apart = partRows(parts.map((p) => Uint8Array.from(p)));
      const spread = new EventRows(apart, rows.starts);
      for (let r = 0; r < count; r++) expect(spread.bytes(r).equals(rows.bytes(r)), `row ${r}`).toBe(true);
      expect(spread.joinRows(null, 0, count, Buffer.from('['), 0x2c, Buffer.from(']')).toString()).toBe(`[${Array.from({ length: count }, (_, r) => rows.json(r)).join(',')}]`);
      expect(apart.read(0, apart.byteLength).equals(rows.lineBytes)).toBe(true);
      // (one part is read as the rows in memory always were, a view clamped to its end)
      if (parts.length > 1) expect(() => apart.read(1, apart.byteLength)).toThrow(RangeError);
    });
  }

  it('cuts parts of bounded length, about the mean asked for, whatever order the ids come in', () => {
    for (const ids of [Array.from({ length: 100_000 }, (_, i) => i + 1), Array.from({ length: 100_000 }, (_, i) => 1_000_000_000 - 7 * i)]) {
      const cut = cutParts(ids, 1024);
      expect(cut.slice(0, -1).every((p) => p.rows >= 512 && p.rows <= 2048)).toBe(true);
      expect(cut.length).toBeGreaterThan(70);
      expect(cut.length).toBeLessThan(130);
    }
    expect(cutParts([], 1024)).toEqual([{ name: '0', rows: 0 }]);
    expect(cutParts([5, 6, 7], 1)).toEqual([{ name: '5', rows: 1 }, { name: '6', rows: 1 }, { name: '7', rows: 1 }]);
  });

  it('a row added or removed changes the part it falls in, and the parts before it stay as they were', () => {
    const key = (p: { name: string; rows: number }) => `${p.name}:${p.rows}`;
    fc.assert(
      fc.property(fc.uniqueArray(fc.integer({ min: 1, max: 1e9 }), { minLength: 1, maxLength: 400 }), fc.integer({ min: 1, max: 1e9 }), fc.nat(), fc.integer({ min: 1, max: 12 }), (ids, added, at, partRows) => {
        // a new row's id is one no row has (an id that moved would change the rows before the place too)
        fc.pre(!ids.includes(added));
        const place = at % (ids.length + 1);
        const before = cutParts(ids, partRows);
        const firsts = partFirsts(before);
        for (const next of [[...ids.slice(0, place), added, ...ids.slice(place)], ids.filter((_, i) => i !== place)]) {
          // the parts that end before the place are cut by the rows before it alone
          const kept = before.filter((_, i) => firsts[i + 1] < place).map(key);
          expect(cutParts(next, partRows).slice(0, kept.length).map(key)).toEqual(kept);
        }
      }),
    );
    // ids as a site numbers its events, each place a row is added at or removed from: one part or two change
    const ids = Array.from({ length: 30_000 }, (_, i) => 100_000 + 3 * i);
    const had = new Set(cutParts(ids, 1024).map(key));
    for (let place = 0; place < ids.length; place += 499) {
      for (const next of [[...ids.slice(0, place), 1, ...ids.slice(place)], ids.filter((_, i) => i !== place)]) {
        expect(cutParts(next, 1024).filter((p) => !had.has(key(p))).length, `at ${place}`).toBeLessThanOrEqual(2);
      }
    }
  });

  it('joins consecutive views of one buffer without a copy, and leaves parts held apart apart', () => {
    const rows = rowsOf(2 * K + 1);
    const views = splitParts(rows.lineBytes, rows.starts, [0, K, 2 * K, 2 * K + 1]);
    const joined = joinedView(views)!;
    expect(joined.buffer).toBe(rows.lineBytes.buffer);
    expect(joined.equals(rows.lineBytes)).toBe(true);
    expect(joinedView(views.map((v) => Uint8Array.from(v)))).toBeNull();
    expect(joinedView([views[0], views[2]])).toBeNull();
  });

  it('names the parts a manifest describes, and the loaded files with them', () => {
    expect(eventPartFile('3')).toBe('data/events/3.jsonl');
    expect(eventPartFiles({ event_parts: [{ name: '0', rows: 0 }] })).toEqual(['data/events/0.jsonl']);
    expect(loadedFiles({ event_parts: [{ name: '7', rows: 4 }, { name: '12', rows: 1 }] })).toEqual([
      'data/events/7.jsonl', 'data/events/12.jsonl', 'data/events/7.offsets.bin', 'data/events/12.offsets.bin', 'data/calendar/7.bin', 'data/calendar/12.bin', 'data/categories.json', 'data/search.bin', ...COLUMN_FILES, 'data/autocomplete.bin',
    ]);
    expect(COLUMN_FILES).toContain('data/columns/teaser.text.bin');
  });

  it('refuses a manifest of the format before the parts, and one whose parts cannot be named', () => {
    const manifest = VALID_MANIFEST;
    expect(parseManifest(JSON.stringify(manifest), 'm').event_parts).toEqual(manifest.event_parts);
    const refusal = (m: unknown) => {
      try {
        parseManifest(JSON.stringify(m), 'dist/manifest.json');
      } catch (e) {
        expect(e).toBeInstanceOf(DistError);
        return (e as Error).message;
      }
      return 'accepted';
    };
    expect(refusal({ ...manifest, format: 1 })).toMatch(/dist format 1 is not the one this aula reads \(10\); rebuild with `aula build`/);
    expect(refusal({ ...manifest, format: 2 })).toMatch(/dist format 2 is not the one this aula reads \(10\)/);
    expect(refusal({ ...manifest, format: 5 })).toMatch(/dist format 5 is not the one this aula reads \(10\); rebuild with `aula build`/);
    expect(refusal({ ...manifest, format: 6 })).toMatch(/dist format 6 is not the one this aula reads \(10\); rebuild with `aula build`/);
    expect(refusal({ ...manifest, format: 7 })).toMatch(/dist format 7 is not the one this aula reads \(10\); rebuild with `aula build`/);
    // (8: block sums listed in the manifest itself, which this reader does not read)
    expect(refusal({ ...manifest, format: 8 })).toMatch(/dist format 8 is not the one this aula reads \(10\); rebuild with `aula build`/);
    expect(refusal({ ...manifest, format: 9 })).toMatch(/dist format 9 is not the one this aula reads \(10\); rebuild with `aula build`/);
    const parts = manifest.event_parts;
    const many = Array.from({ length: 100_000 }, (_, i) => ({ name: String(i), rows: 1 }));
    for (const bad of [
      { event_parts: undefined }, { event_parts: [] }, { event_parts: {} }, { event_parts: [{ ...parts[0], rows: 0 }, { ...parts[1], rows: 10 }] },
      { event_parts: [parts[0], { ...parts[1], name: '1' }] }, { event_parts: [parts[0], { ...parts[1], name: '../x' }] }, { event_parts: [parts[0], { ...parts[1], name: 5 }] }, { event_parts: [parts[0], { ...parts[1], rows: '6' }] },
      { counts: { ...manifest.counts, events: -1 } }, { counts: { ...manifest.counts, events: 100_000 }, event_parts: many },
    ]) {
      expect(refusal({ ...manifest, ...bad }), JSON.stringify(bad)).toMatch(/event counts are malformed; rebuild/);
    }
  });

  it('refuses a manifest whose fields the server answers from are not as a build writes them, naming the field', () => {
    const manifest = VALID_MANIFEST;
    const refusal = (m: unknown) => {
      try {
        parseManifest(JSON.stringify(m), 'dist/manifest.json');
        return 'accepted';
      } catch (e) {
        expect(e).toBeInstanceOf(DistError);
        return (e as Error).message;
      }
    };
    expect(refusal(manifest)).toBe('accepted');
    // a host name that is not ASCII is a URL a site may have
    expect(refusal({ ...manifest, base_url: 'https://bücher.example/x' })).toBe('accepted');
    const site = manifest.site;
    // the site zone's changes, as a build writes them
    expect(refusal({ ...manifest, site: { ...site, offsets: zoneTableText(site.timezone) } })).toBe('accepted');
    const cases: [string, Record<string, unknown>][] = [
      ['version', { version: 2 }],
      ['built_at', { built_at: '\u001b[31mRED\u0007' }],
      ['built_at', { built_at: '2025-01-01' }],
      ['base_url', { base_url: 'not a url\r\nX: y' }],
      ['base_url', { base_url: 'ftp://example.org' }],
      ['base_url', { base_url: 'https://example.org/x?y' }],
      ['base_url', { base_url: 'https://example.org/a b' }],
      ['site', { site: null }],
      ['site.timezone', { site: { ...site, timezone: 'Mars/Base' } }],
      ['site.page_size', { site: { ...site, page_size: 1.5 } }],
      ['site.page_size', { site: { ...site, max_page_size: 'abc' } }],
      ['site.page_size', { site: { ...site, page_size: 2000 } }],
      ['site.offsets', { site: { ...site, offsets: 3600 } }],
      ['site.offsets', { site: { ...site, offsets: [3600] } }],
      ['counts.media', { counts: { ...manifest.counts, media: -1 } }],
      ['event_list', { event_list: { ...manifest.event_list, limit: 0 } }],
      ['event_list', { event_list: null }],
    ];
    for (const [field, bad] of cases) {
      expect(refusal({ ...manifest, ...bad }), JSON.stringify(bad)).toBe(`dist/manifest.json: ${field} is malformed; rebuild with \`aula build\``);
    }
  });
});
