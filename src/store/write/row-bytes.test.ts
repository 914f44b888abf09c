import { closeSync, openSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { removeDir, tempDir } from '../../../test/helpers.ts';
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

  it('reads a row made elsewhere straight from its file, and refuses a file that ends first', () => {
    const serialized = Array.from({ length: 4 }, (_, row) => serializeEvent(rendered(row, row === 1 ? 20_000 : 50)));
    const dir = tempDir('aula-row-bytes-');
    try {
      // rows 1 and 3 where a parse thread leaves them: end to end in a file, behind other bytes
      const file = join(dir, 'rows');
      const one = Buffer.from(serialized[1].json);
      writeFileSync(file, Buffer.concat([Buffer.from('head'), one, Buffer.from(serialized[3].json)]));
      const fd = openSync(file, 'r');
      try {
        const out = new RowBytes(serialized.length);
        out.addJson(serialized[0].json, serialized[0].starts);
        out.addBytes({ fd, position: 4 }, serialized[1].starts);
        out.addBytes(Buffer.from(serialized[2].json), serialized[2].starts);
        out.addBytes({ fd, position: 4 + one.length }, serialized[3].starts);
        expect(out.finish().lineBytes.equals(EventRows.from(serialized).lineBytes)).toBe(true);
        const short = new RowBytes(1);
        short.addBytes({ fd, position: 4 + one.length + 10 }, serialized[3].starts);
        expect(() => short.finish()).toThrow(/file ended before the row did/);
      } finally {
        closeSync(fd);
      }
    } finally {
      removeDir(dir);
    }
  });

  it('reads rows left in two files, in another order than theirs, a chunk at a time', () => {
    // one row larger than a chunk (4 MB), read on its own; the others read with their neighbours
    const serialized = Array.from({ length: 60 }, (_, row) => serializeEvent(rendered(row, row === 17 ? 500_000 : 50 + ((row * 7919) % 3000))));
    expect(Buffer.byteLength(serialized[17].json)).toBeGreaterThan(4 << 20);
    const dir = tempDir('aula-row-bytes-');
    try {
      // rows alternate between the two files, each file's rows end to end behind a few bytes
      const files = [join(dir, 'a'), join(dir, 'b')].map((path) => ({ path, bytes: [Buffer.from('head')] }));
      const where = serialized.map((s, row) => {
        const file = files[row % 2];
        const position = file.bytes.reduce((n, b) => n + b.length, 0);
        file.bytes.push(Buffer.from(s.json));
        return { file: row % 2, position };
      });
      files.forEach((f) => writeFileSync(f.path, Buffer.concat(f.bytes)));
      const fds = files.map((f) => openSync(f.path, 'r'));
      try {
        // the list order: every seventh row in memory, the rest from the files
        const order = serialized.map((_, row) => (row * 37) % serialized.length);
        const out = new RowBytes(serialized.length);
        for (const row of order) {
          const json = row % 7 === 0 ? Buffer.from(serialized[row].json) : { fd: fds[where[row].file], position: where[row].position };
          out.addBytes(json, serialized[row].starts);
        }
        expect(out.finish().lineBytes.equals(EventRows.from(order.map((row) => serialized[row])).lineBytes)).toBe(true);
      } finally {
        fds.forEach((fd) => closeSync(fd));
      }
    } finally {
      removeDir(dir);
    }
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
