// The comparison with a clean build (test/clean-build.ts) that the incremental, patch and reuse
// tests make: it passes an incremental build of an edit, and names a file changed behind the
// build's back.
import { appendFileSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { build } from '../src/pipeline/build.ts';
import { compareWithCleanBuild, distDigests, expectSameAsCleanBuild, problemLines } from './clean-build.ts';
import { FIXTURE_FILES } from './fixture-content.ts';
import { removeDir, tempDir, writeContent } from './helpers.ts';

const EVENT = 'events/2025/vortrag.md';
let root: string;
let options: { content: string; out: string; cache: string };

beforeAll(async () => {
  root = tempDir('aula-clean-build-');
  options = { content: writeContent(join(root, 'content'), FIXTURE_FILES), out: join(root, 'dist'), cache: join(root, 'cache') };
  expect((await build(options)).ok).toBe(true);
});
afterAll(() => removeDir(root));

describe('the comparison with a clean build', () => {
  it('passes an incremental build of an edit, and leaves no folder of its own behind but the spares it keeps for the next build', async () => {
    writeFileSync(join(options.content, EVENT), FIXTURE_FILES[EVENT].replace(/^title: .*$/m, 'title: Geändert'));
    const incremental = await build(options);
    expect(incremental.ok).toBe(true);
    const clean = await expectSameAsCleanBuild(incremental, options, 'one edit');
    expect(clean.ok).toBe(true);
    expect(readdirSync(root).sort()).toEqual(['.aula-spare-dist', 'cache', 'content', 'dist']);
    expect(readFileSync(join(root, '.aula-spare-dist', '.gitignore'), 'utf8')).toBe('*\n');
  });

  it('leaves changes.json out: it tells what changed since the build before', () => {
    expect(readFileSync(join(options.out, 'changes.json'), 'utf8')).toContain(`"changed"`);
    expect(distDigests(options.out).has('changes.json')).toBe(false);
    expect(distDigests(options.out).has('manifest.json')).toBe(true);
  });

  it('names a file that differs, and one the clean build does not make', async () => {
    appendFileSync(join(options.out, 'openapi.json'), ' ');
    writeFileSync(join(options.out, 'stray.txt'), 'not made by a build\n');
    const { differing } = await compareWithCleanBuild(options);
    expect(differing).toEqual(['openapi.json', 'stray.txt']);
  });

  it('compares the problems of a failed build, as `aula build` prints them', async () => {
    writeFileSync(join(options.content, EVENT), FIXTURE_FILES[EVENT].replace('allday: false', 'allday: vielleicht'));
    const failed = await build(options);
    expect(problemLines(failed)).toEqual([expect.stringMatching(new RegExp(`^${EVENT}:6:\\d+ allday: `))]);
    const { clean, differing } = await compareWithCleanBuild(options);
    expect(problemLines(clean)).toEqual(problemLines(failed));
    expect(differing).toEqual([]);
  });
});
