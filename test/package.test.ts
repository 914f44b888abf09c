// aula as a user gets it: the packed tarball installed into a fresh site folder, then
// init → check → build → serve → HTTP, and `import('aula')` running the README's example.
import { spawn, spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { removeDir, tempDir, listeningOrigin } from './helpers.ts';
import { blocksFor } from './docs/doc-blocks.ts';

const ROOT = join(import.meta.dirname, '..');
const NPM = process.platform === 'win32' ? 'npm.cmd' : 'npm';

function run(command: string, args: string[], cwd: string): SpawnSyncReturns<string> {
  const r = spawnSync(command, args, { cwd, encoding: 'utf8', timeout: 180_000 });
  if (r.status !== 0) throw new Error(`${command} ${args.join(' ')} exited ${r.status}:\n${r.stdout}\n${r.stderr}`);
  return r;
}

/** docs/api.md's example of the API from JavaScript (the block marked `<!-- test: js-api -->`). */
export function readmeApiExample(): string {
  const [block] = blocksFor('js-api');
  if (!block) throw new Error('the docs have no ```js block marked <!-- test: js-api -->');
  return block.text;
}

describe('npm pack', () => {
  it('ships lib/, bin/, docs/, README, SECURITY.md and LICENSE only: no sources, tests, benchmarks or content', () => {
    // lib/ was compiled by the test setup; --ignore-scripts keeps pack from rebuilding it under other tests
    const r = run(NPM, ['pack', '--dry-run', '--json', '--ignore-scripts'], ROOT);
    const files: string[] = JSON.parse(r.stdout)[0].files.map((f: { path: string }) => f.path);
    const outside = files.filter((f) => !f.startsWith('lib/') && !f.startsWith('docs/'));
    expect(outside.sort()).toEqual(['LICENSE', 'README.md', 'SECURITY.md', 'bin/aula.cjs', 'package.json']);
    // every page the README links to
    const linked = [...readFileSync(join(ROOT, 'README.md'), 'utf8').matchAll(/\]\((docs\/[a-z-]+\.md)\)/g)].map((m) => m[1]);
    expect(linked.length).toBeGreaterThan(5);
    for (const page of linked) expect(files, page).toContain(page);
    expect(files).toContain('lib/index.js');
    expect(files).toContain('lib/index.d.ts');
    expect(files).toContain('lib/cli/main.js');
    expect(files).toContain('lib/store/write/static-module.js');
    expect(files).toContain('lib/store/write/minisearch-options-module.js');
    expect(files).toContain('lib/deploy/edge-worker.js');
    expect(files.filter((f) => /\.ts$/.test(f) && !f.endsWith('.d.ts'))).toEqual([]);
    // lib/content/ is the content loader; the sample content/ folder is not shipped
    expect(files.filter((f) => /^(test|bench|content|scripts|src)\/|\.test\.|\.bench\.|fixture/.test(f))).toEqual([]);
  });
});

describe('installed into a site folder', () => {
  let work: string;
  let site: string;
  let aula: string;
  let manifestBefore: Buffer;
  let installed: SpawnSyncReturns<string>;

  beforeAll(() => {
    work = tempDir('aula-package-');
    site = join(work, 'site');
    // with its scripts, as a release is packed: prepack compiles lib/ (swapped in whole, so the
    // other tests' CLI runs meanwhile are unharmed) and packs a package.json without prepare
    manifestBefore = readFileSync(join(ROOT, 'package.json'));
    run(NPM, ['pack', '--pack-destination', work], ROOT);
    const tarball = readdirSync(work).find((f) => f.endsWith('.tgz'));
    if (!tarball) throw new Error('npm pack wrote no tarball');
    run('mkdir', [site], work);
    writeFileSync(join(site, 'package.json'), '{ "name": "my-site", "private": true, "scripts": { "test": "echo mine" } }\n');
    installed = run(NPM, ['install', join(work, tarball), '--prefer-offline', '--no-audit', '--no-fund'], site);
    aula = join(site, 'node_modules', '.bin', 'aula');
  });

  afterAll(() => {
    if (work) removeDir(work);
  });

  it('declares no install-time script: npm installs it without a word, and the checkout keeps its own package.json', () => {
    const manifest = JSON.parse(readFileSync(join(site, 'node_modules', 'aula', 'package.json'), 'utf8'));
    expect(manifest.scripts.prepare).toBeUndefined();
    expect(Object.keys(manifest.scripts).filter((s) => /^(pre|post)?install$|^prepare$/.test(s))).toEqual([]);
    expect(`${installed.stdout}${installed.stderr}`).not.toMatch(/install.scripts|allowScripts/i);
    // packing changed nothing of the checkout (scripts/pack-manifest.mjs put its bytes back)
    expect(readFileSync(join(ROOT, 'package.json')).equals(manifestBefore)).toBe(true);
    expect(existsSync(join(ROOT, '.package.json.packing'))).toBe(false);
  });

  it('installs compiled JavaScript only, with runtime dependencies and no TypeScript tooling', () => {
    const installed = join(site, 'node_modules');
    expect(existsSync(join(installed, 'aula', 'lib', 'cli', 'main.js'))).toBe(true);
    expect(existsSync(join(installed, 'aula', 'src'))).toBe(false);
    for (const dev of ['tsx', 'typescript', 'esbuild', 'vitest']) expect(existsSync(join(installed, dev)), dev).toBe(false);
  });

  it('npx aula init, check and build work from the site folder', () => {
    const init = run('npx', ['aula', 'init'], site);
    expect(init.stdout).toContain('created content/site.yaml');
    expect(init.stdout).toContain('created .github/workflows/aula.yml');
    const pkg = JSON.parse(readFileSync(join(site, 'package.json'), 'utf8'));
    expect(pkg.scripts).toMatchObject({ test: 'echo mine', build: 'aula build', check: 'aula check', serve: 'aula serve', dev: 'aula dev' });
    expect(pkg.dependencies.aula).toMatch(/\.tgz$/);

    expect(run('npx', ['aula', 'check'], site).stdout).toContain('content/ is valid: 2 events');
    expect(run('npx', ['aula', 'build'], site).stdout).toMatch(/built dist\/ .*2 events/);
    for (const file of ['manifest.json', 'v1/cms/event/index.json', 'events.ics', 'openapi.json', 'autocomplete/autocomplete.js']) {
      expect(existsSync(join(site, 'dist', file)), file).toBe(true);
    }
    // a second init refuses: the content is the user's now
    const again = spawnSync(aula, ['init'], { cwd: site, encoding: 'utf8' });
    expect(again.status).toBe(1);
    expect(again.stderr.trim().split('\n')).toEqual([expect.stringMatching(/^aula: content\/ is not empty/)]);
  });

  it('npx aula serve answers the API over HTTP', async () => {
    const child = spawn(aula, ['serve', '--port', '0'], { cwd: site, stdio: ['ignore', 'pipe', 'pipe'] });
    try {
      const url = await listeningOrigin(child, 'serve');
      const list = (await (await fetch(`${url}/v1/cms/event/`)).json()) as { count: number; results: { title: string }[] };
      expect(list.count).toBe(2);
      expect(list.results.map((e) => e.title).sort()).toEqual(['Hands-on workshop', 'Welcome lecture']);
      const suggest = (await (await fetch(`${url}/v1/api/autocomplete/?q=lovelace`)).json()) as { results: { presentation: string }[] };
      expect(suggest.results[0].presentation).toContain('Ada Lovelace');
      // the public files a static site loads, from the same server
      const module = await fetch(`${url}/autocomplete/autocomplete.js`);
      expect(module.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
      expect(await module.text()).toContain('createAutocompleteFromUrl');
      expect(await (await fetch(`${url}/events.ics`)).text()).toContain('SUMMARY:Welcome lecture');
    } finally {
      child.kill('SIGTERM');
    }
  });

  it("import('aula') runs the docs' programmatic API example", () => {
    writeFileSync(join(site, 'example.mjs'), readmeApiExample());
    const r = run(process.execPath, ['example.mjs'], site);
    const lines = r.stdout.trim().split('\n');
    expect(lines[0]).toBe('built 2 events');
    expect(lines[1]).toBe('200 2');
    expect(lines[2]).toMatch(/^http:\/\/127\.0\.0\.1:\d+ answers 2 events$/);
  });

  it('build() without options builds content/ into dist/, as `aula build` does', () => {
    writeFileSync(join(site, 'defaults.mjs'), "import { build } from 'aula';\nconst r = await build();\nconsole.log(r.ok, r.manifest.counts.events);\n");
    const r = run(process.execPath, ['defaults.mjs'], site);
    expect(r.stdout.trim()).toBe('true 2');
    expect(existsSync(join(site, 'dist', 'manifest.json'))).toBe(true);
  });

  it("type-checks a consumer of the API against the shipped declarations (strict, no skipLibCheck)", () => {
    writeFileSync(
      join(site, 'typed.mts'),
      `import { build, check, createApi, loadDataset, serve, type BuildResult } from 'aula';
const built: BuildResult = await build({ content: 'content', out: 'dist' });
const checked = await check({ content: 'content' });
const answer = createApi(loadDataset('dist'))({ method: 'GET', path: '/v1/cms/event/', query: '', headers: {} });
const status: number = answer.status;
const server = await serve({ port: 0 });
// every option has a default, as on the command line
const again: BuildResult = await build();
console.log(built.ok, checked.ok, status, server.url, again.ok);
`,
    );
    const tsc = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
    const types = join(ROOT, 'node_modules', '@types');
    run(process.execPath, [tsc, '--noEmit', '--strict', '--module', 'nodenext', '--moduleResolution', 'nodenext', '--target', 'es2022', '--types', 'node', '--typeRoots', types, 'typed.mts'], site);
  });
});
