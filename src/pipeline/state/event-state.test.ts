import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { removeDir, tempDir } from '../../../test/helpers.ts';
import { emptyState, openEventState, stateOf, stateRows, writeEventState } from './event-state.ts';
import { KEY_BYTES, STAT_FIELDS } from './stat-fields.ts';

const root = tempDir('event-state-');
afterAll(() => removeDir(root));

describe('the event state', () => {
  it('is read back as written, and not at all where a row holds a value no event has (sealed by something else)', () => {
    const path = join(root, 'state.events');
    const oneRow = (field?: 'id' | 'start' | 'end' | 'lastModified') => {
      const rows = stateRows(1);
      rows.id[0] = 7;
      rows.start[0] = rows.end[0] = rows.lastModified[0] = Date.UTC(2025, 0, 1);
      if (field) rows[field][0] = field === 'end' ? Infinity : NaN;
      return rows;
    };
    const state = (rows: ReturnType<typeof stateRows>) => ({
      ...emptyState({ content: '/content', out: '/out', site: { timezone: 'UTC' } as never, rows }),
      eventCount: 1, files: ['events/a.md'], stats: new BigInt64Array(STAT_FIELDS), keys: Buffer.alloc(KEY_BYTES),
    });
    writeEventState(path, state(oneRow()));
    expect(stateOf(openEventState(path, 1 << 20), '/content', '/out')?.rows.id[0]).toBe(7);
    for (const field of ['id', 'start', 'end', 'lastModified'] as const) {
      writeEventState(path, state(oneRow(field)));
      expect(stateOf(openEventState(path, 1 << 20), '/content', '/out'), field).toBeNull();
    }
  });

  it('is refused when its rows are damaged, and read with a damaged stat or key, which only sends a file to be read again', () => {
    const path = join(root, 'damaged.events');
    const rows = stateRows(1);
    rows.id[0] = 7;
    rows.start[0] = rows.end[0] = rows.lastModified[0] = Date.UTC(2025, 0, 1);
    const stats = BigInt64Array.from([10n, 20n, 30n, 40n, 50n]);
    const keys = Buffer.alloc(KEY_BYTES, 0xab);
    writeEventState(path, { ...emptyState({ content: '/content', out: '/out', site: { timezone: 'UTC' } as never, rows }), eventCount: 1, files: ['events/a.md'], stats, keys });
    const written = readFileSync(path);
    const damaged = (at: number) => {
      const bytes = Buffer.from(written);
      bytes[at] ^= 0x01;
      writeFileSync(path, bytes);
      return stateOf(openEventState(path, 1 << 20), '/content', '/out');
    };
    const rowAt = written.indexOf(Buffer.from(new Float64Array([7]).buffer));
    expect(rowAt).toBeGreaterThan(0);
    expect(damaged(rowAt)).toBeNull();
    const statAt = written.indexOf(Buffer.from(stats.buffer));
    expect(damaged(statAt)?.stats[0]).toBe(11n);
    const keyAt = written.indexOf(keys);
    expect(damaged(keyAt)?.keys[0]).toBe(0xaa);
  });
  it('writes the names it read again as they are, and the names it lists where they differ', () => {
    const path = join(root, 'names.events');
    const rows = stateRows(1);
    rows.id[0] = 7;
    rows.start[0] = rows.end[0] = rows.lastModified[0] = Date.UTC(2025, 0, 1);
    const files = ['events/a.md', 'events/ü.md', 'site\0site.yaml'];
    writeEventState(path, { ...emptyState({ content: '/content', out: '/out', site: { timezone: 'UTC' } as never, rows }), eventCount: 2, files, stats: new BigInt64Array(3 * STAT_FIELDS), keys: Buffer.alloc(3 * KEY_BYTES) });
    const read = stateOf(openEventState(path, 1 << 20), '/content', '/out')!;
    expect(read.files).toEqual(files);
    // the same names (the listing taken as recorded holds the strings read): the bytes the names make
    writeEventState(path, { ...read, read: undefined });
    const encoded = readFileSync(path);
    writeEventState(path, { ...read, files: read.files.slice() });
    expect(readFileSync(path).equals(encoded)).toBe(true);
    // a name changed, and one fewer: the names listed, not those read
    writeEventState(path, { ...read, eventCount: 1, files: ['events/b.md', 'site\0site.yaml'], stats: new BigInt64Array(2 * STAT_FIELDS), keys: Buffer.alloc(2 * KEY_BYTES), rows: { ...rows, file: new Uint32Array([0]) } });
    expect(stateOf(openEventState(path, 1 << 20), '/content', '/out')?.files).toEqual(['events/b.md', 'site\0site.yaml']);
  });
});
