import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { removeDir, tempDir } from '../../../test/helpers.ts';
import { emptyState, readEventState, stateRows, writeEventState } from './event-state.ts';
import { KEY_BYTES, STAT_FIELDS } from './stat-fields.ts';

const root = tempDir('event-state-');
afterAll(() => removeDir(root));

describe('the event state', () => {
  it('is read back as written, and not at all where a row holds a value no event has (sealed by something else)', () => {
    const path = join(root, 'state.events');
    const rows = stateRows(1);
    rows.id[0] = 7;
    rows.start[0] = rows.end[0] = rows.lastModified[0] = Date.UTC(2025, 0, 1);
    const state = emptyState({ content: '/content', out: '/out', site: { timezone: 'UTC' } as never, rows });
    writeEventState(path, { ...state, eventCount: 1, files: ['events/a.md'], stats: new BigInt64Array(STAT_FIELDS), keys: Buffer.alloc(KEY_BYTES) });
    expect(readEventState(path, '/content', '/out', 1 << 20)?.rows.id[0]).toBe(7);
    for (const field of ['id', 'start', 'end', 'lastModified'] as const) {
      const bad = stateRows(1);
      bad.id[0] = 7;
      bad.start[0] = bad.end[0] = bad.lastModified[0] = Date.UTC(2025, 0, 1);
      bad[field][0] = field === 'end' ? Infinity : NaN;
      writeEventState(path, { ...state, rows: bad, eventCount: 1, files: ['events/a.md'], stats: new BigInt64Array(STAT_FIELDS), keys: Buffer.alloc(KEY_BYTES) });
      expect(readEventState(path, '/content', '/out', 1 << 20), field).toBeNull();
    }
  });
});
