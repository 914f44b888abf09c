// Every build cache file is size-checked before it is read: one made huge and sparse (a truncate
// costs nothing, reading its holes a second per GB and as much memory) is ignored as if absent,
// so the build stays small and gives the bytes a clean build gives (src/pipeline/cache/cache-file.ts).
import { spawnSync } from 'node:child_process';
import { cpSync, readdirSync, readFileSync, rmSync, truncateSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { removeDir, SAMPLE_CONTENT, tempDir } from '../helpers.ts';

const ROOT = join(import.meta.dirname, '..', '..');
const BIN = join(ROOT, 'bin', 'aula.js');
const roots: string[] = [];
afterAll(() => roots.forEach(removeDir));

describe('cache files grown huge', () => {
  it('each of them 1.5 GB and sparse: ignored, the build small and its dist a clean build', { timeout: 300_000 }, () => {
    const root = tempDir('aula-cache-sizes-');
    roots.push(root);
    const content = join(root, 'content');
    cpSync(SAMPLE_CONTENT, content, { recursive: true });
    const out = join(root, 'dist');
    const cache = join(root, 'cache');
    const rusage = join(root, 'rusage.jsonl');
    const build = (...args: string[]) =>
      spawnSync(process.execPath, ['--import', join(ROOT, 'bench', 'rusage-preload.mjs'), BIN, 'build', '--content', content, '--quiet', ...args], {
        encoding: 'utf8',
        env: { ...process.env, AULA_BENCH_RUSAGE: rusage },
        timeout: 120_000,
      });
    expect(build('--out', out, '--cache', cache).status).toBe(0);
    const names = readdirSync(cache);
    expect(names.length).toBeGreaterThanOrEqual(7);
    // each file keeps its real bytes at its start: read whole, the rows and parses would be used
    for (const name of names) truncateSync(join(cache, name), 1.5e9);
    rmSync(rusage);
    const r = build('--out', out, '--cache', cache);
    expect([r.status, r.stderr]).toEqual([0, '']);
    const peak = Math.max(...readFileSync(rusage, 'utf8').trim().split('\n').map((l) => JSON.parse(l).maxRssBytes as number));
    // a sample build peaks near 200 MB; one cache file read whole is 1.5 GB
    expect(peak).toBeLessThan(1e9);
    const clean = join(root, 'clean');
    expect(build('--out', clean, '--no-cache').status).toBe(0);
    const diff = spawnSync('diff', ['-r', '-x', 'changes.json', out, clean], { encoding: 'utf8' });
    expect(diff.stdout).toBe('');
  });
});
