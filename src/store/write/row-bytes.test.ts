import { describe, expect, it } from 'vitest';
import { EVENT_FIELDS, type EventField } from '../../model/event-fields.ts';
import { EventRows, FIELD_COUNT, serializeEvent } from '../format/event-rows.ts';
import { RowBytes } from './row-bytes.ts';

/** A rendered event whose text fields are `size` characters long (non-Latin-1 on odd rows). */
function rendered(row: number, size: number): Record<EventField, unknown> {
  const text = (row % 2 ? '„Zitat“ ' : 'plain ').repeat(size).slice(0, size);
  return Object.fromEntries(EVENT_FIELDS.map((f, i) => [f, i % 3 === 0 ? text : i % 3 === 1 ? row * 1000 + i : [row, null]])) as Record<EventField, unknown>;
}

describe('RowBytes', () => {
  it('gives the bytes and offsets EventRows.from gives, growing past its first guess', () => {
    // small rows and rows of ~100 KB: the buffer must grow several times
    const serialized = Array.from({ length: 40 }, (_, row) => serializeEvent(rendered(row, row % 5 === 0 ? 10_000 : 20)));
    const out = new RowBytes(serialized.length);
    for (const s of serialized) out.addJson(s.json, s.starts);
    const rows = out.finish();
    const expected = EventRows.from(serialized);
    expect(rows.lineBytes.equals(expected.lineBytes)).toBe(true);
    expect([...rows.starts]).toEqual([...expected.starts]);
    expect(out.row(5).toString()).toBe(serialized[5].json);
  });

  it('copies stored rows whose offsets are set in place, between rendered ones', () => {
    const serialized = Array.from({ length: 6 }, (_, row) => serializeEvent(rendered(row, 50)));
    const stored = Buffer.from(`xx${serialized[2].json}yy`);
    const out = new RowBytes(serialized.length);
    serialized.forEach((s, row) => {
      if (row !== 2) return out.addJson(s.json, s.starts);
      out.starts.set(s.starts, row * (FIELD_COUNT + 1));
      out.addStored(stored, 2);
    });
    expect(out.finish().lineBytes.equals(EventRows.from(serialized).lineBytes)).toBe(true);
  });

  it('refuses a row that does not fit its offsets, and a count not met', () => {
    const s = serializeEvent(rendered(1, 10));
    const wrong = new RowBytes(1);
    expect(() => wrong.addJson(s.json, [...s.starts.slice(0, -1), s.starts[FIELD_COUNT] - 1])).toThrow(/offsets/);
    const short = new RowBytes(2);
    short.addJson(s.json, s.starts);
    expect(() => short.finish()).toThrow(/1 rows of 2/);
    expect(() => new RowBytes(0).finish().length).not.toThrow();
  });
});
