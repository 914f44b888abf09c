// Every build cache file is size-checked before it is read: one made huge and sparse (a truncate
// costs nothing, reading its holes a second per GB and as much memory) is ignored as if absent,
// so the build stays small and gives the bytes a clean build gives (src/pipeline/cache/cache-file.ts).
import { cpSync, readdirSync, readFileSync, rmSync, truncateSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { aula } from '../aula-cli.ts';
import { distDigests } from '../clean-build.ts';
import { removeDir, SAMPLE_CONTENT, tempDir } from '../helpers.ts';

const ROOT = join(import.meta.dirname, '..', '..');
const roots: string[] = [];
afterAll(() => roots.forEach(removeDir));

describe('cache files grown huge', () => {
  it('each of them 1.5 GB and sparse: ignored, the build small and its dist a clean build', () => {
    const root = tempDir('aula-cache-sizes-');
    roots.push(root);
    const content = join(root, 'content');
    cpSync(SAMPLE_CONTENT, content, { recursive: true });
    const out = join(root, 'dist');
    const cache = join(root, 'cache');
    const rusage = join(root, 'rusage.jsonl');
    const build = (...args: string[]) =>
      aula(['build', '--content', content, '--quiet', ...args], { node: ['--import', join(ROOT, 'bench', 'rusage-preload.mjs')], env: { ...process.env, AULA_BENCH_RUSAGE: rusage } });
    expect(build('--out', out, '--cache', cache).code).toBe(0);
    const names = readdirSync(cache);
    // the event state and the ledger
    expect(names).toHaveLength(2);
    // each file keeps its real bytes at its start: read whole, the state would be used
    for (const name of names) truncateSync(join(cache, name), 1.5e9);
    rmSync(rusage);
    const r = build('--out', out, '--cache', cache);
    expect([r.code, r.err]).toEqual([0, '']);
    const peak = Math.max(...readFileSync(rusage, 'utf8').trim().split('\n').map((l) => JSON.parse(l).maxRssBytes as number));
    // a sample build peaks near 200 MB; one cache file read whole is 1.5 GB
    expect(peak).toBeLessThan(1e9);
    const clean = join(root, 'clean');
    expect(build('--out', clean, '--no-cache').code).toBe(0);
    expect(distDigests(out)).toEqual(distDigests(clean));
  });
});
