// A dist whose event rows are many parts (a small mean EVENT_PART_ROWS): it answers byte for byte as
// the same content built in one part, and a missing, truncated or foreign part is refused with a
// DistError naming that part; a dist of the format before the parts is refused with "rebuild".
import { cpSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApi } from '../src/api/core.ts';
import { bodyText } from '../src/api/body.ts';
import { listFiles } from '../src/util/same-files.ts';
import { datasetFrom, loadDataset } from '../src/query/dataset.ts';
import { memorySource } from '../src/store/read/dist-source.ts';
import { eventOffsetsFile, eventPartFile } from '../src/store/format/dist-paths.ts';
import { digestOf, DIST_FORMAT, DistError, sha256Hex } from '../src/store/format/manifest.ts';
import { buildOk, firstPart, refusal, removeDir, SAMPLE_CONTENT, sampleDist, tempDir } from './helpers.ts';

let root: string;
let parted: string;
let whole: string;
let copies = 0;
/** the parted dist's parts, in list order, by name */
let names: string[];
/** part i of the parted dist */
const part = (i: number) => eventPartFile(names[i]);

beforeAll(async () => {
  root = tempDir('aula-parts-');
  parted = join(root, 'parted');
  // the sample dist the test setup built once: its rows in one part (and its .gz/.br twins)
  whole = sampleDist();
  await buildOk({ content: SAMPLE_CONTENT, out: parted, precompress: false, eventPartRows: 16 });
  names = JSON.parse(readFileSync(join(parted, 'manifest.json'), 'utf8')).event_parts.map((p: { name: string }) => p.name);
});
afterAll(() => removeDir(root));

function damaged(change: (dir: string) => void): string {
  const dir = join(root, `copy-${copies++}`);
  cpSync(parted, dir, { recursive: true });
  change(dir);
  return dir;
}

describe('a dist with its event rows in many parts', () => {
  it('holds the rows of a one-part build, cut into parts, and answers every page as it does', () => {
    const manifest = JSON.parse(readFileSync(join(parted, 'manifest.json'), 'utf8'));
    const parts = listFiles(join(parted, 'data/events')).filter((f) => f.endsWith('.jsonl')).sort();
    expect(parts.length).toBeGreaterThan(3);
    expect(parts).toEqual(names.map((name) => `${name}.jsonl`).sort());
    expect(manifest.event_parts.reduce((n: number, p: { rows: number }) => n + p.rows, 0)).toBe(manifest.counts.events);
    expect(Buffer.concat(names.map((_, i) => readFileSync(join(parted, part(i))))).equals(readFileSync(join(whole, eventPartFile(firstPart(whole)))))).toBe(true);
    // the served files are the same bytes (the list pages were answered through the parts)
    for (const rel of listFiles(whole).filter((f) => f.startsWith('v1/') && !/\.(gz|br)$/.test(f))) {
      expect(readFileSync(join(parted, rel)).equals(readFileSync(join(whole, rel))), rel).toBe(true);
    }
    const [a, b] = [createApi(loadDataset(parted)), createApi(loadDataset(whole))];
    // pages of 20 from offset 10: each crosses a part boundary (16 rows a part on average)
    for (const query of ['limit=20&offset=10', 'limit=1000', 'limit=7&offset=45&title__icontains=e', 'fields=id,title&limit=30&offset=3']) {
      const [x, y] = [a({ method: 'GET', path: '/v1/cms/event/', query, headers: {} }), b({ method: 'GET', path: '/v1/cms/event/', query, headers: {} })];
      expect(x.status, query).toBe(200);
      expect(bodyText(x.body), query).toBe(bodyText(y.body));
    }
  });

  it('refuses a missing part, naming it', () => {
    const dir = damaged((d) => rmSync(join(d, part(2))));
    expect(refusal(dir)).toBe(`${join(dir, part(2))}: missing; rebuild with \`aula build\``);
  });

  it('refuses a truncated part, naming it', () => {
    const dir = damaged((d) => {
      const path = join(d, part(1));
      const bytes = readFileSync(path);
      writeFileSync(path, bytes.subarray(0, bytes.length - 1));
    });
    expect(refusal(dir)).toMatch(new RegExp(`^${join(dir, part(1)).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: is \\d+ bytes, manifest.json says \\d+; rebuild`));
  });

  it('refuses a foreign part (another part\'s bytes, or one byte changed), naming it', () => {
    const other = damaged((d) => cpSync(join(d, part(3)), join(d, part(2))));
    expect(refusal(other)).toContain(`${join(other, part(2))}: `);
    const flipped = damaged((d) => {
      const path = join(d, part(2));
      const text = readFileSync(path, 'utf8');
      const at = text.indexOf('"title":"') + 9;
      writeFileSync(path, text.slice(0, at) + (text[at] === 'X' ? 'Y' : 'X') + text.slice(at + 1));
    });
    expect(refusal(flipped)).toBe(`${join(flipped, part(2))}: does not match its CRC-32 in manifest.json; rebuild with \`aula build\``);
  });

  it('held in memory part by part (as a remote replica and the edge fetch it): answers the same, refuses parts cut elsewhere', () => {
    const files = new Map<string, Uint8Array | string>(listFiles(parted).filter((rel) => rel === 'manifest.json' || rel.startsWith('data/') || rel.startsWith('autocomplete/')).map((rel) => [rel, readFileSync(join(parted, rel))]));
    const fromMemory = (m: Map<string, Uint8Array | string>) => datasetFrom(memorySource(m, 'mem', false), { sha256: sha256Hex });
    const api = createApi(fromMemory(files));
    const disk = createApi(loadDataset(parted));
    for (const query of ['limit=20&offset=10', 'limit=1000']) {
      expect(bodyText(api({ method: 'GET', path: '/v1/cms/event/', query, headers: {} }).body), query).toBe(bodyText(disk({ method: 'GET', path: '/v1/cms/event/', query, headers: {} }).body));
    }
    // the first row of part 1 moved to the end of part 0, the checksums made to match: the
    // concatenation is the same, but a part is not its rows
    const [p0, p1] = [part(0), part(1)].map((rel) => Buffer.from(files.get(rel) as Uint8Array));
    const cut = p1.indexOf(0x0a) + 1;
    const moved = new Map(files);
    moved.set(part(0), Buffer.concat([p0, p1.subarray(0, cut)]));
    moved.set(part(1), p1.subarray(cut));
    const manifest = JSON.parse(String(files.get('manifest.json')));
    for (const rel of [part(0), part(1)]) manifest.files[rel] = digestOf(moved.get(rel)!);
    moved.set('manifest.json', JSON.stringify(manifest));
    let message = '';
    try {
      fromMemory(moved);
    } catch (e) {
      expect(e).toBeInstanceOf(DistError);
      message = (e as Error).message;
    }
    expect(message).toBe(`mem/${eventOffsetsFile(names[0])}: does not match the event rows in data/events/ (part 0 is not its rows' length); rebuild with \`aula build\``);
  });

  it('refuses a dist of the format before the parts (one events.jsonl) with "rebuild"', () => {
    const dir = damaged((d) => {
      const manifest = JSON.parse(readFileSync(join(d, 'manifest.json'), 'utf8'));
      writeFileSync(join(d, 'manifest.json'), JSON.stringify({ ...manifest, format: 1 }));
    });
    expect(refusal(dir)).toContain(`dist format 1 is not the one this aula reads (${DIST_FORMAT}); rebuild with \`aula build\``);
  });

  it('refuses a dist of the format before the calendar parts (one data/calendar.bin) by its format, with "rebuild"', () => {
    const dir = damaged((d) => {
      const manifest = JSON.parse(readFileSync(join(d, 'manifest.json'), 'utf8'));
      const parts = Object.keys(manifest.files).filter((rel) => rel.startsWith('data/calendar/')).sort();
      expect(parts.length).toBeGreaterThan(1);
      const whole = Buffer.concat(parts.map((rel) => readFileSync(join(d, rel))));
      for (const rel of parts) delete manifest.files[rel];
      rmSync(join(d, 'data/calendar'), { recursive: true });
      writeFileSync(join(d, 'data/calendar.bin'), whole);
      manifest.files['data/calendar.bin'] = digestOf(whole);
      writeFileSync(join(d, 'manifest.json'), JSON.stringify({ ...manifest, format: 7 }));
    });
    expect(refusal(dir)).toContain(`dist format 7 is not the one this aula reads (${DIST_FORMAT}); rebuild with \`aula build\``);
  });
});
