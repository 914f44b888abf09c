// What the node loader holds and when: the calendar, read by the iCalendar answers only, is checked
// at load and read again from the same file when an answer first needs it; the event rows, read
// whole to be checked where no thread checks them (a load given no verifyRows, or one that rewrites
// the rows for another base URL; a server's start and reload check them on the verifier thread),
// are not held once checked. Read per need, the rows answer as the rows read whole.
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyOfSampleDist, firstPart, removeDir, tempDir } from '../../../test/helpers.ts';
import { datasetFrom, loadDataset } from '../../query/dataset.ts';
import { calendarPartFile } from '../format/dist-paths.ts';
import { DistError, sha256Hex } from '../format/manifest.ts';
import { readCalendarFile } from './calendar-file.ts';
import { directorySource } from './dist-source.ts';
import { FileRows } from './file-rows.ts';
import { PartedRows } from './parted-rows.ts';

let root: string;
beforeAll(() => {
  root = tempDir('aula-stored-data-');
});
afterAll(() => removeDir(root));

describe('the calendar of a dist/ folder', () => {
  it('is read when first needed, from the file checked at load, though a new file has been renamed over it', () => {
    const dist = copyOfSampleDist(join(root, 'swapped'));
    const path = join(dist, calendarPartFile(firstPart(dist)));
    const original = readFileSync(path);
    const ds = loadDataset(dist);
    // a build swaps its files in by renaming: the loaded dataset keeps the one it checked
    writeFileSync(`${path}.new`, Buffer.alloc(original.length));
    renameSync(`${path}.new`, path);
    const want = readCalendarFile(original, ds.events.rows.length);
    const [got] = ds.events.calendar.parts;
    expect(Buffer.from(got.entries).equals(Buffer.from(want.entries))).toBe(true);
    expect([...got.starts]).toEqual([...want.starts]);
    ds.events.rows.close();
  });

  it('that does not match its checksum refuses the load, naming it', () => {
    const dist = copyOfSampleDist(join(root, 'damaged'));
    const path = join(dist, calendarPartFile(firstPart(dist)));
    const bytes = readFileSync(path);
    bytes[bytes.length - 1] ^= 1;
    writeFileSync(path, bytes);
    expect(() => loadDataset(dist)).toThrow(new DistError(`${path}: does not match its CRC-32 in manifest.json; rebuild with \`aula build\``));
  });
});

describe('the event rows of a dist/ folder, checked on the loading thread (no verifyRows)', () => {
  it('are not held by the loaded data once checked: it reads them by offset', async () => {
    const dist = copyOfSampleDist(join(root, 'reloaded'));
    const readAll = FileRows.prototype.readAll;
    let whole: WeakRef<ArrayBufferLike> | undefined;
    FileRows.prototype.readAll = function (this: FileRows) {
      const all = readAll.call(this);
      // the rows' check reads them first, the calendar's after
      whole ??= new WeakRef(all.buffer);
      return all;
    };
    let ds: ReturnType<typeof loadDataset>;
    try {
      ds = loadDataset(dist);
    } finally {
      FileRows.prototype.readAll = readAll;
    }
    // a WeakRef's target is kept until the job that made it ends: the next turn of the event loop
    await new Promise(setImmediate);
    setFlagsFromString('--expose-gc');
    (runInNewContext('gc') as () => void)();
    expect(whole).toBeDefined();
    expect(whole!.deref()).toBeUndefined();
    // (the dataset is alive, and answers from the file)
    expect(ds.events.rows.bytes(0)[0]).toBe(0x7b);
    expect(ds.events.calendar.parts[0].starts.length).toBeGreaterThan(0);
    ds.events.rows.close();
  });
});

describe('the event rows of a dist/ folder read per need (an edge isolate\'s)', () => {
  it('give each row, and a page of rows out of their order, as the rows read whole', () => {
    const dist = copyOfSampleDist(join(root, 'per-need'));
    const whole = loadDataset(dist);
    const lazy = datasetFrom({ ...directorySource(dist), perNeed: true, open: undefined }, { sha256: sha256Hex });
    const rows = lazy.events.rows;
    expect(rows).toBeInstanceOf(PartedRows);
    const n = rows.length;
    expect(n).toBe(whole.events.rows.length);
    // the last rows first: their lengths are known once their part is in, not before
    for (let row = n - 1; row >= 0; row--) {
      expect(rows.byteLength(row)).toBe(whole.events.rows.byteLength(row));
      expect(rows.bytes(row).equals(whole.events.rows.bytes(row))).toBe(true);
    }
    const page = Uint32Array.from([n - 1, 3, n >> 1, 0, 7]);
    const joined = (r: typeof rows) => r.joinRows(page, 0, page.length, Buffer.from('['), 0x2c, Buffer.from(']'));
    expect(joined(rows).equals(joined(whole.events.rows))).toBe(true);
    whole.events.rows.close();
  });
});
