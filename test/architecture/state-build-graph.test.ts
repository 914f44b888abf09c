// What a real `aula build` over the event state loads: started with a hook that logs every module,
// a build after one event's title changed must not load what only loading the content whole
// needs (the content loader, the parse threads, the directory's indexing, the full render) nor
// the packages only that, the edge bundle or Markdown outside the subset need. Each is imported
// where a full build needs it; a static import of one at the top of a module the state build
// loads would bring it back unseen, costing every small edit's build its start-up time.
import { describe, expect, it } from 'vitest';
import { cpSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { aula } from '../aula-cli.ts';
import { removeDir, SAMPLE_CONTENT, tempDir } from '../helpers.ts';

const ROOT = join(import.meta.dirname, '../..');

/** Modules of src/ (as their .ts paths) that only a build loading the content whole needs. */
const FULL_BUILD_ONLY = [
  'content/load.ts',
  'pipeline/load/parse-pool.ts',
  'pipeline/render/autocomplete-data.ts',
];
const FULL_BUILD_ONLY_FOLDERS = ['pipeline/directory/'];
/** Packages a build over the state never needs (markdown-it: the changed body is one the subset renders). */
const PACKAGES = /node_modules\/(?:markdown-it|mdurl|uc\.micro|linkify-it|yaml|fast-glob|minisearch|esbuild)\//;

/** Runs `aula build` under the logging hook; its --timings output and the modules it loaded (src/ paths, and the others' URLs). */
function loggedBuild(dir: string, args: string[], n: number): { out: string; ours: string[]; packages: string[] } {
  const log = join(dir, `modules-${n}.log`);
  const run = aula(['build', ...args, '--timings'], {
    node: ['--import', join(import.meta.dirname, 'module-log-hook.mjs')],
    env: { ...process.env, AULA_MODULE_LOG: log },
  });
  expect(run.code, run.err).toBe(0);
  const loaded = readFileSync(log, 'utf8').split('\n').filter(Boolean);
  rmSync(log);
  const root = pathToFileURL(ROOT).href;
  const ours = loaded
    .filter((u) => u.startsWith(`${root}/src/`) || u.startsWith(`${root}/lib/`))
    .map((u) => u.slice(root.length + 5).replace(/\?.*$/, '').replace(/\.js$/, '.ts'));
  return { out: run.out, ours, packages: loaded.filter((u) => PACKAGES.test(u)) };
}

const fullBuildOnly = (ours: string[]) => ours.filter((p) => FULL_BUILD_ONLY.includes(p) || FULL_BUILD_ONLY_FOLDERS.some((f) => p.startsWith(f)));
/** The server itself (its compression settings, server/compress.ts, are the build's too). */
const server = (ours: string[]) => ours.filter((p) => p.startsWith('server/') && p !== 'server/compress.ts');

describe('aula build over the event state: module graph', () => {
  it('loads neither the content loader, the directory indexing, the full render nor their packages', () => {
    const dir = tempDir('aula-state-modules-');
    try {
      const content = join(dir, 'content');
      cpSync(SAMPLE_CONTENT, content, { recursive: true });
      const args = ['--content', content, '--out', join(dir, 'dist'), '--cache', join(dir, 'cache')];
      const first = loggedBuild(dir, args, 1);
      // the families are real: the full build loads them (guards against names that no longer exist)
      expect(first.out).toContain('patch          not taken');
      expect(fullBuildOnly(first.ours)).toEqual(expect.arrayContaining([...FULL_BUILD_ONLY, 'pipeline/directory/directory-job.ts']));

      // one event's title changed, and its body one the Markdown subset renders
      const month = join(content, 'events/2026/03');
      const file = join(month, readdirSync(month).filter((f) => f.endsWith('.md')).sort()[0]);
      const text = readFileSync(file, 'utf8');
      const bodyAt = text.indexOf('\n---\n', 4) + 5;
      const head = text.slice(0, bodyAt).replace(/^title: .*$/m, 'title: "A changed title"');
      writeFileSync(file, `${head}\nA *plain* paragraph with [a link](https://example.org/x).\n`);
      const second = loggedBuild(dir, args, 2);
      expect(second.out).toMatch(/patch {10}1 event files read/);
      // the log saw the state build (guards against a hook that logs nothing)
      expect(second.ours).toContain('pipeline/load/state-load.ts');
      expect(second.ours).toContain('content/markdown-subset.ts');
      expect(fullBuildOnly(second.ours)).toEqual([]);
      expect(server(second.ours)).toEqual([]);
      expect(second.packages).toEqual([]);

      // a body outside the subset: markdown-it is required (createRequire), which only the hook's
      // require() half logs (guards against that half logging nothing, and so the line above passing unseen)
      writeFileSync(file, `${head}\nA [reference][r] link.\n\n[r]: https://example.org/r\n`);
      const third = loggedBuild(dir, args, 3);
      expect(third.out).toMatch(/patch {10}1 event files read/);
      expect(third.packages).toContain(pathToFileURL(createRequire(import.meta.url).resolve('markdown-it')).href);
    } finally {
      removeDir(dir);
    }
  });
});
