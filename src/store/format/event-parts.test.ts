import { describe, expect, it } from 'vitest';
import { EVENT_FIELDS } from '../../model/event-fields.ts';
import { eventPartCount, eventPartFile, eventPartFiles, loadedFiles } from './dist-paths.ts';
import { partBounds, splitParts } from './event-parts.ts';
import { EventRows, serializeEvent } from './event-rows.ts';
import { DistError, parseManifest } from './manifest.ts';
import { joinedView, partRows } from './row-source.ts';

const K = 4;

function rowsOf(count: number): EventRows {
  const empty = Object.fromEntries(EVENT_FIELDS.map((f) => [f, null])) as Record<(typeof EVENT_FIELDS)[number], unknown>;
  return EventRows.from(Array.from({ length: count }, (_, i) => serializeEvent({ ...empty, id: i + 1, title: `Ä ${'x'.repeat(i * 3)}` })));
}

describe('event parts', () => {
  for (const count of [0, 1, K - 1, K, K + 1, 2 * K, 2 * K + 1]) {
    it(`${count} rows: parts of ${K} rows whose concatenation is the rows, each but the last ending with its newline`, () => {
      const rows = rowsOf(count);
      const parts = splitParts(rows.lineBytes, rows.starts, K);
      expect(parts).toHaveLength(eventPartCount(count, K));
      expect(parts).toHaveLength(Math.max(1, Math.ceil(count / K)));
      expect(Buffer.concat(parts).equals(rows.lineBytes)).toBe(true);
      parts.forEach((part, i) => {
        const text = Buffer.from(part).toString();
        const last = i === parts.length - 1;
        expect(text.endsWith('\n'), `part ${i}`).toBe(!last && count > 0);
        // whole rows only: K of them, the last part the rest
        const lines = text === '' ? [] : text.replace(/\n$/, '').split('\n');
        expect(lines).toHaveLength(last ? count - K * (parts.length - 1) : K);
        lines.forEach((line) => expect(() => JSON.parse(line)).not.toThrow());
      });
      const bounds = partBounds(rows.starts, K);
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

  it('joins consecutive views of one buffer without a copy, and leaves parts held apart apart', () => {
    const rows = rowsOf(2 * K + 1);
    const views = splitParts(rows.lineBytes, rows.starts, K);
    const joined = joinedView(views)!;
    expect(joined.buffer).toBe(rows.lineBytes.buffer);
    expect(joined.equals(rows.lineBytes)).toBe(true);
    expect(joinedView(views.map((v) => Uint8Array.from(v)))).toBeNull();
    expect(joinedView([views[0], views[2]])).toBeNull();
  });

  it('names the parts a manifest describes, and the loaded files with them', () => {
    expect(eventPartFile(3)).toBe('data/events/00003.jsonl');
    expect(eventPartFiles({ counts: { events: 0 }, event_part_rows: 4096 })).toEqual(['data/events/00000.jsonl']);
    expect(eventPartFiles({ counts: { events: 8193 }, event_part_rows: 4096 })).toEqual(['data/events/00000.jsonl', 'data/events/00001.jsonl', 'data/events/00002.jsonl']);
    expect(loadedFiles({ counts: { events: 5 }, event_part_rows: 4 })).toEqual([
      'data/events/00000.jsonl', 'data/events/00001.jsonl', 'data/events.offsets.bin', 'data/events.columns.json', 'data/events.text.json', 'data/categories.json', 'autocomplete/index.json',
    ]);
  });

  it('refuses a manifest of the format before the parts, and one whose parts cannot be named', () => {
    const manifest = { format: 2, counts: { events: 10 }, event_part_rows: 4, files: {} };
    expect(parseManifest(JSON.stringify(manifest), 'm').event_part_rows).toBe(4);
    const refusal = (m: unknown) => {
      try {
        parseManifest(JSON.stringify(m), 'dist/manifest.json');
      } catch (e) {
        expect(e).toBeInstanceOf(DistError);
        return (e as Error).message;
      }
      return 'accepted';
    };
    expect(refusal({ ...manifest, format: 1 })).toMatch(/dist format 1 is not the one this aula reads \(2\); rebuild with `aula build`/);
    for (const bad of [{ event_part_rows: 0 }, { event_part_rows: '4' }, { event_part_rows: undefined }, { counts: { events: -1 } }, { counts: { events: 1e9 }, event_part_rows: 1 }]) {
      expect(refusal({ ...manifest, ...bad }), JSON.stringify(bad)).toMatch(/event counts are malformed; rebuild/);
    }
  });
});
