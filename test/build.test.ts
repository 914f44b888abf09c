// `aula build`: what it writes, and that a failed build leaves the previous dist/ exactly as it was.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { build } from '../src/pipeline/build.ts';
import { loadDataset } from '../src/query/dataset.ts';
import { DistError } from '../src/store/format/manifest.ts';
import { FIXTURE_FILES } from './fixture-content.ts';
import { buildOk, removeDir, tempDir, writeContent } from './helpers.ts';

const roots: string[] = [];
afterEach(() => roots.splice(0).forEach(removeDir));

function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    for (const e of readdirSync(d)) {
      const p = join(d, e);
      if (statSync(p).isDirectory()) walk(p);
      else out[relative(dir, p)] = readFileSync(p, 'base64');
    }
  };
  walk(dir);
  return out;
}

function setup() {
  const root = tempDir();
  roots.push(root);
  const content = writeContent(join(root, 'content'), FIXTURE_FILES);
  return { root, content, dist: join(root, 'dist') };
}

describe('aula build', () => {
  it('writes the pages, the data, the autocomplete index and a manifest', async () => {
    const { content, dist } = setup();
    const result = await buildOk({ content, out: dist });
    const files = Object.keys(snapshot(dist)).sort();
    expect(files).toEqual(expect.arrayContaining([
      'manifest.json', 'v1/cms/event/index.json', 'v1/cms/event/offset/2.json',
      'data/columns/title.text.bin', 'data/categories.json',
    ]));
    expect(files.some((f) => f.startsWith('autocomplete/'))).toBe(true);
    const manifest = JSON.parse(readFileSync(join(dist, 'manifest.json'), 'utf8'));
    expect(manifest).toMatchObject({
      format: 10,
      event_parts: [{ name: expect.stringMatching(/^\d+$/), rows: 4 }],
      base_url: 'https://events.example.at/api',
      counts: { events: 4, pages: 3, categories: 2, media: 2, directory: 3, event_list_pages: 2 },
      event_list: { first: 'v1/cms/event/index.json', further: 'v1/cms/event/offset/{offset}.json', limit: 2 },
    });
    // one part, named by its first row's id, with its offsets beside it
    const part = manifest.event_parts[0].name;
    expect(files).toEqual(expect.arrayContaining([`data/events/${part}.jsonl`, `data/events/${part}.offsets.bin`, `data/calendar/${part}.bin`]));
    // the newest last_modified of the events, not the clock (test/package-reproducible.test.ts)
    expect(Date.parse(manifest.built_at)).not.toBeNaN();
    expect(result.manifest).toEqual(manifest);
    expect(readdirSync(join(content, '..')).sort()).toEqual(['content', 'dist']);
  });

  it('a failed build leaves the previous dist untouched and names file, line and key', async () => {
    const { content, dist } = setup();
    await buildOk({ content, out: dist });
    const before = snapshot(dist);
    writeContent(content, { 'events/broken.yaml': 'id: 99\ntitle: Kaputt\nstart: 2025-01-02T10:00\nend: 2025-01-01T10:00\nlast_modified: 2025-01-01\nfarbe: rot\n' });
    const result = await build({ content, out: dist });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.problems).toEqual(expect.arrayContaining([
      expect.objectContaining({ file: 'events/broken.yaml', line: 4, key: 'end' }),
      expect.objectContaining({ file: 'events/broken.yaml', line: 6, key: 'farbe' }),
    ]));
    expect(snapshot(dist)).toEqual(before);
    expect(readdirSync(join(content, '..')).sort()).toEqual(['content', 'dist']);
  });

  it('a rebuild replaces dist/ whole (no stale pages remain)', async () => {
    const { content, dist } = setup();
    await buildOk({ content, out: dist });
    expect(existsSync(join(dist, 'v1/cms/event/offset/2.json'))).toBe(true);
    writeContent(content, { 'site.yaml': FIXTURE_FILES['site.yaml'].replace('page_size: 2', 'page_size: 3') });
    await buildOk({ content, out: dist });
    expect(existsSync(join(dist, 'v1/cms/event/offset/2.json'))).toBe(false);
    expect(existsSync(join(dist, 'v1/cms/event/offset/3.json'))).toBe(true);
  });

  it('refuses to load an incomplete dist with a clear error', async () => {
    const { content, dist } = setup();
    await buildOk({ content, out: dist });
    const { rmSync, writeFileSync } = await import('node:fs');
    rmSync(join(dist, 'data/columns/title.text.bin'));
    expect(() => loadDataset(dist)).toThrow(DistError);
    expect(() => loadDataset(dist)).toThrow(/columns\/title\.text\.bin: missing/);
    await buildOk({ content, out: dist });
    writeFileSync(join(dist, 'manifest.json'), '{"format": 99}');
    expect(() => loadDataset(dist)).toThrow(/dist format 99/);
    expect(() => loadDataset(join(dist, 'nowhere'))).toThrow(/manifest\.json: missing/);
  });
});
