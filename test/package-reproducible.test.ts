// dist/ as a portable artifact: no path of the build machine in it, and the same bytes from
// the same content wherever and whenever it is built.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { buildOk, removeDir, SAMPLE_CONTENT, sampleDist, tempDir } from './helpers.ts';

function walk(dir: string, base = dir): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? walk(path, base) : [relative(base, path)];
  });
}

describe('dist/ is reproducible and portable', () => {
  const dirs: string[] = [];
  afterAll(() => dirs.forEach(removeDir));

  it('two builds of the same content into different folders are byte-identical', async () => {
    const a = tempDir('aula-repro-a-');
    const b = tempDir('aula-repro-b-');
    dirs.push(a, b);
    await buildOk({ content: SAMPLE_CONTENT, out: join(a, 'dist') });
    // a day and a second later, from another folder: neither the clock nor the path may show
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 86_401_000 });
    try {
      await buildOk({ content: SAMPLE_CONTENT, out: join(b, 'out', 'dist') });
    } finally {
      vi.useRealTimers();
    }
    const filesA = walk(join(a, 'dist')).sort();
    const filesB = walk(join(b, 'out', 'dist')).sort();
    expect(filesB).toEqual(filesA);
    expect(filesA).toEqual(expect.arrayContaining(['events.ics', 'manifest.json', 'deploy/nginx-server.conf', 'deploy/nginx-http.conf']));
    for (const rel of filesA) {
      const same = readFileSync(join(a, 'dist', rel)).equals(readFileSync(join(b, 'out', 'dist', rel)));
      expect(same, `${rel} differs between two builds`).toBe(true);
    }
  });

  it('holds no absolute path of the build machine', () => {
    // as `aula build` wrote it, in a folder of this run's
    const out = sampleDist();
    const machinePaths = [dirname(out), SAMPLE_CONTENT, process.cwd(), join(import.meta.dirname, '..')];
    for (const rel of walk(out)) {
      if (/\.(gz|br|bin)$/.test(rel)) continue;
      const text = readFileSync(join(out, rel), 'utf8');
      for (const path of machinePaths) expect(text.includes(path), `${rel} contains ${path}`).toBe(false);
    }
  });

  it("events.ics's DTSTAMP is the newest last_modified of the events, as is the manifest's built_at", async () => {
    const dir = dirs[0];
    const manifest = JSON.parse(readFileSync(join(dir, 'dist', 'manifest.json'), 'utf8'));
    const newest = Math.max(...readFileSync(join(dir, 'dist', 'data', 'events', `${manifest.event_parts[0].name}.jsonl`), 'utf8').trim().split('\n').map((l) => Date.parse(JSON.parse(l).last_modified)));
    expect(Date.parse(manifest.built_at)).toBe(newest);
    const stamp = new Date(newest).toISOString().replace(/[-:]|\.\d+/g, '');
    const stamps = new Set(readFileSync(join(dir, 'dist', 'events.ics'), 'utf8').match(/^DTSTAMP:.*$/gm));
    expect([...stamps]).toEqual([`DTSTAMP:${stamp}`]);
  });
});
