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
});
