// What the node loader holds and when: the calendar, read by the iCalendar answers only, is checked
// at load and read again from the same file when an answer first needs it.
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyOfSampleDist, removeDir, tempDir } from '../../../test/helpers.ts';
import { loadDataset } from '../../query/dataset.ts';
import { DATA_FILES } from '../format/dist-paths.ts';
import { DistError } from '../format/manifest.ts';
import { readCalendarFile } from './calendar-file.ts';

let root: string;
beforeAll(() => {
  root = tempDir('aula-stored-data-');
});
afterAll(() => removeDir(root));

describe('the calendar of a dist/ folder', () => {
  it('is read when first needed, from the file checked at load, though a new file has been renamed over it', () => {
    const dist = copyOfSampleDist(join(root, 'swapped'));
    const path = join(dist, DATA_FILES.calendar);
    const original = readFileSync(path);
    const ds = loadDataset(dist);
    // a build swaps its files in by renaming: the loaded dataset keeps the one it checked
    writeFileSync(`${path}.new`, Buffer.alloc(original.length));
    renameSync(`${path}.new`, path);
    const want = readCalendarFile(original, ds.events.rows.length);
    const got = ds.events.calendar;
    expect(Buffer.from(got.entries).equals(Buffer.from(want.entries))).toBe(true);
    expect([...got.starts]).toEqual([...want.starts]);
    ds.events.rows.close();
  });

  it('that does not match its checksum refuses the load, naming it', () => {
    const dist = copyOfSampleDist(join(root, 'damaged'));
    const path = join(dist, DATA_FILES.calendar);
    const bytes = readFileSync(path);
    bytes[bytes.length - 1] ^= 1;
    writeFileSync(path, bytes);
    expect(() => loadDataset(dist)).toThrow(new DistError(`${path}: does not match its SHA-256 in manifest.json; rebuild with \`aula build\``));
  });
});
