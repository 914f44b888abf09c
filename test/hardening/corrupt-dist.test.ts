// A corrupt or partial dist/ at start: every data file missing, empty, truncated, garbage or of the
// wrong shape, a binary file of another format version, and a manifest of another format → a
// DistError naming the file (so `aula serve` prints it and exits 1), never a dataset that loads
// and then answers broken JSON.
import { cpSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApi } from '../../src/api/core.ts';
import { loadDataset } from '../../src/query/dataset.ts';
import { COLUMN_FILES } from '../../src/store/format/column-files.ts';
import { AUTOCOMPLETE_DATA_FILE, calendarPartFile, DATA_FILES, eventOffsetsFile, eventPartFile } from '../../src/store/format/dist-paths.ts';
import { digestOf } from '../../src/store/format/manifest.ts';
import { DistError } from '../../src/store/format/manifest.ts';
import { startAula } from '../aula-cli.ts';
import { firstPart, removeDir, sampleDist, tempDir } from '../helpers.ts';

/** the sample dist's one event part */
const PART = firstPart(sampleDist());
const FILES = ['manifest.json', eventPartFile(PART), eventOffsetsFile(PART), ...COLUMN_FILES, calendarPartFile(PART), 'data/categories.json', AUTOCOMPLETE_DATA_FILE];
/** the binary data files: a header naming their format and its version (src/store/format/sections.ts) */
const BINARY_FILES = [...COLUMN_FILES, calendarPartFile(PART), AUTOCOMPLETE_DATA_FILE];

type Damage = (bytes: Buffer) => Buffer | null;
const garbage = (n: number) => Buffer.from(Array.from({ length: n }, (_, i) => (i * 7919 + 13) % 256));
const DAMAGES: Record<string, Damage> = {
  missing: () => null,
  empty: () => Buffer.alloc(0),
  'cut in half': (b) => b.subarray(0, Math.floor(b.length / 2)),
  'last byte cut': (b) => b.subarray(0, b.length - 1),
  garbage: (b) => garbage(Math.max(64, Math.min(b.length, 4096))),
  'JSON of the wrong shape': () => Buffer.from('{"a":1}'),
  'JSON null': () => Buffer.from('null'),
};
const MANIFEST_DAMAGES: Record<string, (m: any) => unknown> = {
  'another format (the one before the event parts)': (m) => ({ ...m, format: 1 }),
  'another format (the one before the column files)': (m) => ({ ...m, format: 2 }),
  'format as a string': (m) => ({ ...m, format: '2' }),
  'no format': ({ format: _, ...m }) => m,
  'counts that do not match': (m) => ({ ...m, counts: { ...m.counts, events: m.counts.events + 1 } }),
  'an array': () => [],
};

/**
 * Cases loadDataset does not turn into a DistError naming the file. They run as expected
 * failures, so a fix shows up; none are known now (all fifteen found were fixed in
 * src/store/read/stored-data.ts). A new gap goes here with its failing case until it is fixed.
 */
const KNOWN_GAPS = new Set<string>([]);

let root: string;
let good: string;

beforeAll(() => {
  root = tempDir('aula-corrupt-');
  // read only: every damage is made to a copy
  good = sampleDist();
});
afterAll(() => removeDir(root));

let copies = 0;
function damaged(rel: string, change: (bytes: Buffer) => Buffer | string | null): string {
  const dir = join(root, `copy-${copies++}`);
  cpSync(good, dir, { recursive: true });
  const path = join(dir, rel);
  const next = change(readFileSync(path));
  if (next === null) rmSync(path);
  else writeFileSync(path, next);
  return dir;
}

/** A copy whose binary file `rel` says another format version, its checksum in the manifest fixed up: only its header can tell. */
function otherVersion(rel: string): string {
  const dir = damaged(rel, (b) => {
    const next = Buffer.from(b);
    next.writeUInt32LE(next.readUInt32LE(8) + 1, 8);
    return next;
  });
  const manifestPath = join(dir, 'manifest.json');
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'));
  manifest.files[rel] = digestOf(readFileSync(join(dir, rel)));
  writeFileSync(manifestPath, JSON.stringify(manifest));
  return dir;
}

/** Loads the dist as the server does and, should that succeed, answers every event: a dist that loads must answer valid JSON. */
function loadAndAnswer(dir: string): void {
  const ds = loadDataset(dir);
  const api = createApi(ds);
  for (const [path, query] of [
    ['/v1/cms/event/', 'limit=1000'],
    ['/v1/cms/event/', 'limit=1000&expand=categories&title__icontains=e&start__startswith=2'],
    ['/v1/api/autocomplete/', 'q=a'],
  ]) {
    const answer = api({ method: 'GET', path, query, headers: {} });
    expect(answer.status).toBe(200);
    JSON.parse(answer.body.toString());
  }
}

function expectNamed(dir: string, rel: string): void {
  let error: unknown = null;
  try {
    loadAndAnswer(dir);
  } catch (e) {
    error = e;
  }
  expect(error, 'loaded without complaint').not.toBeNull();
  expect(error).toBeInstanceOf(DistError);
  expect((error as Error).message).toContain(rel);
  expect((error as Error).message).toContain(dir);
}

describe('a damaged dist/ is refused with an error naming the file', () => {
  it('the undamaged copy loads (the cases below start from a good dist)', () => {
    expect(() => loadAndAnswer(damaged('manifest.json', (b) => b))).not.toThrow();
  });

  for (const rel of FILES) {
    for (const [name, damage] of Object.entries(DAMAGES)) {
      const id = `${rel}: ${name}`;
      if (id === 'manifest.json: last byte cut') continue;
      (KNOWN_GAPS.has(id) ? it.fails : it)(id, () => expectNamed(damaged(rel, damage), rel));
    }
  }

  // a file as another aula would write it: its checksum in the manifest fixed up, so only its
  // header can tell (bytes 8..11: the format's version)
  for (const rel of BINARY_FILES) {
    it(`${rel}: another format version, its checksum fixed up`, () => {
      const dir = otherVersion(rel);
      expectNamed(dir, rel);
      expect(() => loadAndAnswer(dir)).toThrow(/made by another version of aula/);
    });
  }

  for (const [name, change] of Object.entries(MANIFEST_DAMAGES)) {
    it(`manifest.json: ${name}`, () => {
      const dir = damaged('manifest.json', (b) => JSON.stringify(change(JSON.parse(b.toString()))));
      let error: unknown = null;
      try {
        loadAndAnswer(dir);
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(DistError);
      // a count mismatch names the data it disagrees with, the rest the manifest
      expect((error as Error).message).toMatch(name.startsWith('counts') ? /data: event data is incomplete/ : /manifest\.json: /);
    });
  }
});

describe('aula serve over a damaged dist/', () => {
  async function serveOnce(dist: string, workers: string): Promise<{ code: number | null; stderr: string }> {
    const { code, out, err } = await startAula(['serve', '--dist', dist, '--port', '0', '--workers', workers]).exited;
    return { code, stderr: `${err}${out}` };
  }

  it('prints the file and exits 1, with one worker or several (no restart loop)', async () => {
    const cases: [string, string, string][] = [
      [damaged('manifest.json', (b) => JSON.stringify({ ...JSON.parse(b.toString()), format: 1 })), 'manifest.json', '1'],
      [damaged('data/categories.json', () => garbage(100)), 'data/categories.json', '2'],
      [damaged(eventPartFile(PART), (b) => b.subarray(0, b.length - 1)), eventPartFile(PART), '2'],
      [damaged('data/columns/teaser.text.bin', (b) => b.subarray(0, 100)), 'data/columns/teaser.text.bin', '2'],
      [damaged('data/columns/end.ordered.bin', (b) => b.subarray(0, 100)), 'data/columns/end.ordered.bin', '1'],
      [otherVersion('data/columns/title.text.bin'), 'data/columns/title.text.bin', '1'],
      [otherVersion(AUTOCOMPLETE_DATA_FILE), AUTOCOMPLETE_DATA_FILE, '2'],
    ];
    const runs = await Promise.all(cases.map(([dir, , workers]) => serveOnce(dir, workers)));
    runs.forEach(({ code, stderr }, i) => {
      const [dir, rel, workers] = cases[i];
      expect(code, stderr).toBe(1);
      // one line, aula's own: `aula: <file>: <problem>; rebuild with `aula build``
      expect(stderr).toContain(`aula: ${join(dir, rel)}: `);
      expect(stderr).toContain('rebuild with `aula build`');
      // it ends by itself: each worker fails once at most; the primary stops instead of forking again
      expect(stderr.split(join(dir, rel)).length - 1).toBeLessThanOrEqual(Number(workers) * 2);
    });
    // a binary file of another format version says so
    for (const { stderr } of runs.slice(-2)) expect(stderr).toMatch(/aula: .*: an? [a-z ]+ file of format version \d+, made by another version of aula \(this one reads version \d+\); rebuild with `aula build`/);
  });
});
