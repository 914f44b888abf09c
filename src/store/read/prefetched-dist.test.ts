import { readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyOfSampleDist, firstPart, removeDir, sampleDist, tempDir } from '../../../test/helpers.ts';
import { createApi } from '../../api/core.ts';
import { datasetFrom, loadDataset } from '../../query/dataset.ts';
import { calendarPartFile, DATA_FILES, eventPartFiles, loadedFiles } from '../format/dist-paths.ts';
import { prefetchDist } from './prefetched-dist.ts';

let dist: string;
let root: string;
beforeAll(() => {
  dist = sampleDist();
  root = tempDir('aula-prefetch-');
});
afterAll(() => removeDir(root));

const manifestOf = (dir: string) => JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8'));
const loadOver = (prefetched: Awaited<ReturnType<typeof prefetchDist>>) => datasetFrom(prefetched.source, { sha256: prefetched.sha256, crc32: prefetched.crc32 });

describe('prefetchDist', () => {
  it('leaves the load nothing to read, and nothing to hash but the event rows', async () => {
    const prefetched = await prefetchDist(dist);
    const dataset = loadOver(prefetched);
    try {
      expect(prefetched.here.reads).toEqual([]);
      const direct = loadDataset(dist);
      const manifest = manifestOf(dist);
      // the event rows (checked here, as no verifyRows was given): the calendar's descriptor was opened ahead, its bytes read ahead
      expect(prefetched.here.hashedBytes).toBe(eventPartFiles(manifest).reduce((sum, rel) => sum + manifest.files[rel].bytes, 0));
      expect(dataset.events.calendar).toEqual(direct.events.calendar);
      // and the data is the folder's
      const ask = (api: ReturnType<typeof createApi>) => api({ method: 'GET', path: '/v1/cms/event/', query: 'teaser__icontains=e&limit=5', headers: {} });
      const answer = ask(createApi(dataset));
      expect(answer.status).toBe(200);
      expect(answer.body).toEqual(ask(createApi(direct)).body);
      direct.events.rows.close();
    } finally {
      dataset.events.rows.close();
    }
  });

  it('lets the event loop run between its reads: at least one turn a file', async () => {
    let turns = 0;
    let counting = true;
    const tick = () => {
      turns++;
      if (counting) setImmediate(tick);
    };
    setImmediate(tick);
    const prefetched = await prefetchDist(dist);
    counting = false;
    const ahead = loadedFiles(manifestOf(dist)).length - eventPartFiles(manifestOf(dist)).length;
    expect(ahead).toBeGreaterThan(5);
    expect(turns).toBeGreaterThanOrEqual(ahead);
    loadOver(prefetched).events.rows.close();
  });

  it('hashes the bytes it read: a damaged file, one missing, a broken manifest are refused by the load by name', async () => {
    const damaged = copyOfSampleDist(join(root, 'damaged'));
    const search = join(damaged, DATA_FILES.search);
    const bytes = readFileSync(search);
    bytes[bytes.length >> 1] ^= 1;
    writeFileSync(`${search}.new`, bytes);
    renameSync(`${search}.new`, search);
    const fromDamaged = await prefetchDist(damaged);
    expect(() => loadOver(fromDamaged)).toThrow(`${search}: does not match its CRC-32 in manifest.json`);

    // the calendar too, read ahead through a descriptor of its own
    const calendar = join(damaged, calendarPartFile(firstPart(damaged)));
    const entries = readFileSync(calendar);
    entries[entries.length >> 1] ^= 1;
    writeFileSync(`${calendar}.new`, entries);
    renameSync(`${calendar}.new`, calendar);
    writeFileSync(`${search}.new`, readFileSync(join(dist, DATA_FILES.search)));
    renameSync(`${search}.new`, search);
    const fromDamagedCalendar = await prefetchDist(damaged);
    expect(() => loadOver(fromDamagedCalendar)).toThrow(`${calendar}: does not match its CRC-32 in manifest.json`);

    // a file of another size than the manifest's is not read ahead: the load names its size
    const grown = copyOfSampleDist(join(root, 'grown'));
    const grownSearch = join(grown, DATA_FILES.search);
    const listed = readFileSync(grownSearch).length;
    writeFileSync(`${grownSearch}.new`, Buffer.concat([readFileSync(grownSearch), Buffer.from([0])]));
    renameSync(`${grownSearch}.new`, grownSearch);
    const fromGrown = await prefetchDist(grown);
    expect(() => loadOver(fromGrown)).toThrow(`${grownSearch}: is ${listed + 1} bytes, manifest.json says ${listed}`);
    expect(fromGrown.here.reads).toEqual([DATA_FILES.search]);
    fromGrown.release();

    const missing = copyOfSampleDist(join(root, 'missing'));
    rmSync(join(missing, DATA_FILES.categories));
    const fromMissing = await prefetchDist(missing);
    expect(() => loadOver(fromMissing)).toThrow(`${join(missing, DATA_FILES.categories)}: missing`);

    const broken = copyOfSampleDist(join(root, 'broken'));
    writeFileSync(join(broken, 'manifest.json'), '{"format":1');
    const fromBroken = await prefetchDist(broken);
    expect(() => loadOver(fromBroken)).toThrow(join(broken, 'manifest.json'));
  });
});
