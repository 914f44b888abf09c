import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadContent } from '../../content/index.ts';
import { removeDir, tempDir } from '../../../test/helpers.ts';
import { init } from './init.ts';
import { STARTER_CONTENT, STARTER_SCRIPTS, WORKFLOW_FILE } from './starter-content.ts';
import { AULA_VERSION } from '../../version.ts';
import { parse } from 'yaml';

let dir: string;
afterEach(() => removeDir(dir));

describe('aula init', () => {
  it('writes a content folder that loads without problems, scripts, a workflow and .gitignore', async () => {
    dir = tempDir('aula-init-');
    const result = init(dir);
    expect(result.created).toEqual([...[...STARTER_CONTENT.keys()].map((rel) => `content/${rel}`), 'package.json', WORKFLOW_FILE, '.gitignore']);
    const { model, problems } = await loadContent(join(dir, 'content'));
    expect(problems).toEqual([]);
    expect(model!.events.map((e) => e.id).sort()).toEqual([1, 2]);
    expect(model!.directory.length).toBeGreaterThanOrEqual(3);
    const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
    expect(pkg.scripts).toEqual(STARTER_SCRIPTS);
    const workflow = readFileSync(join(dir, WORKFLOW_FILE), 'utf8');
    for (const step of ['npm ci', 'npx --no aula check', 'npx --no aula build', 'actions/upload-artifact', 'path: dist/']) expect(workflow).toContain(step);
    expect(readFileSync(join(dir, '.gitignore'), 'utf8')).toContain('dist/');
  });

  it('refuses a non-empty content/ and writes nothing', () => {
    dir = tempDir('aula-init-');
    mkdirSync(join(dir, 'content'));
    writeFileSync(join(dir, 'content', 'site.yaml'), 'mine');
    expect(() => init(dir)).toThrow(/content\/ is not empty/);
    expect(readFileSync(join(dir, 'content', 'site.yaml'), 'utf8')).toBe('mine');
    expect(existsSync(join(dir, 'package.json'))).toBe(false);
    expect(existsSync(join(dir, WORKFLOW_FILE))).toBe(false);
  });

  it('adds only missing scripts to an existing package.json, keeping everything else', () => {
    dir = tempDir('aula-init-');
    const before = { name: 'mine', version: '1.0.0', scripts: { build: 'make all', test: 'echo ok' }, dependencies: { aula: 'file:../aula.tgz' } };
    writeFileSync(join(dir, 'package.json'), JSON.stringify(before, null, 4));
    const result = init(dir);
    const after = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
    expect(after).toEqual({ ...before, scripts: { build: 'make all', test: 'echo ok', check: 'aula check', serve: 'aula serve', dev: 'aula dev' } });
    expect(readFileSync(join(dir, 'package.json'), 'utf8')).toMatch(/^\{\n {4}"name"/);
    expect(result.skipped.join('\n')).toMatch(/kept your script "build" \(make all\)/);
    expect(result.updated).toContain('package.json');
  });

  it('writes package.json back in its own layout: one line, tabs, CRLF, a BOM, no final newline', () => {
    const scripts = Object.entries(STARTER_SCRIPTS).map(([k, v]) => [JSON.stringify(k), JSON.stringify(v)]);
    const oneLine = scripts.map(([k, v]) => `${k}:${v}`).join(',');
    const lines = (indent: string, nl: string) => scripts.map(([k, v]) => `${indent}${indent}${k}: ${v}`).join(`,${nl}`);
    const cases: [string, string][] = [
      ['{"name":"mine","private":true}\n', `{"name":"mine","private":true,"scripts":{${oneLine}}}\n`],
      ['{\n\t"name": "mine"\n}\n', `{\n\t"name": "mine",\n\t"scripts": {\n${lines('\t', '\n')}\n\t}\n}\n`],
      ['{\r\n  "name": "mine"\r\n}\r\n', `{\r\n  "name": "mine",\r\n  "scripts": {\r\n${lines('  ', '\r\n')}\r\n  }\r\n}\r\n`],
      ['\uFEFF{\n  "name": "mine"\n}', `\uFEFF{\n  "name": "mine",\n  "scripts": {\n${lines('  ', '\n')}\n  }\n}`],
      ['{}\n', `{\n  "scripts": {\n${lines('  ', '\n')}\n  }\n}\n`],
    ];
    for (const [before, expected] of cases) {
      dir = tempDir('aula-init-');
      writeFileSync(join(dir, 'package.json'), before);
      init(dir);
      expect([before, readFileSync(join(dir, 'package.json'), 'utf8')]).toEqual([before, expected]);
      removeDir(dir);
    }
    dir = tempDir('aula-init-');
  });

  it('keeps an existing workflow and .gitignore lines, adding only missing entries', () => {
    dir = tempDir('aula-init-');
    mkdirSync(join(dir, '.github', 'workflows'), { recursive: true });
    writeFileSync(join(dir, WORKFLOW_FILE), 'mine\n');
    writeFileSync(join(dir, '.gitignore'), 'dist\n*.log');
    const result = init(dir);
    expect(readFileSync(join(dir, WORKFLOW_FILE), 'utf8')).toBe('mine\n');
    expect(result.skipped.join('\n')).toContain(WORKFLOW_FILE);
    expect(readFileSync(join(dir, '.gitignore'), 'utf8')).toBe('dist\n*.log\n.aula-dev/\nnode_modules/\n');
  });

  it('refuses a package.json it cannot read, before writing anything', () => {
    dir = tempDir('aula-init-');
    writeFileSync(join(dir, 'package.json'), '{ nope');
    expect(() => init(dir)).toThrow(/package\.json is not valid JSON/);
    expect(existsSync(join(dir, 'content'))).toBe(false);
    expect(readFileSync(join(dir, 'package.json'), 'utf8')).toBe('{ nope');
  });
});

/** A package.json as npx keeps one beside the aula it installed for `npx <spec> init`, listing `spec`; returns aula's folder there. */
function npxCache(base: string, spec: string): string {
  const holder = join(base, 'npm-cache', '_npx', '0123abcd');
  mkdirSync(join(holder, 'node_modules', 'aula'), { recursive: true });
  writeFileSync(join(holder, 'node_modules', 'aula', 'package.json'), '{"name":"aula"}');
  writeFileSync(join(holder, 'package.json'), JSON.stringify({ dependencies: { aula: spec }, _npx: { packages: ['x'] } }));
  return join(holder, 'node_modules', 'aula');
}

const readPackage = (site: string) => JSON.parse(readFileSync(join(site, 'package.json'), 'utf8'));

describe('aula in the package.json init leaves', () => {
  it('is not guessed: run from a checkout, init lists no aula and says how to add it, and that the lockfile is missing', () => {
    dir = tempDir('aula-init-');
    const result = init(dir);
    expect(readPackage(dir)).toEqual({ name: expect.any(String), private: true, scripts: STARTER_SCRIPTS });
    expect(result.warnings).toEqual([
      `package.json does not list aula, so the CI workflow's \`npm ci\` will not install it: copy the aula tarball into the site, run \`npm install ./aula-${AULA_VERSION}.tgz\` and commit both with package-lock.json`,
      "there is no package-lock.json: the CI workflow's `npm ci` (and setup-node's npm cache) need one. `npm install` writes it; commit it",
    ]);
    expect(result.next).toEqual([`npm install ./aula-${AULA_VERSION}.tgz`, 'npx aula check', 'npx aula build', 'npx aula serve']);
  });

  it('run by `npx <tarball> init`: the tarball npx was given, relative to the site, with the warning that CI will not have it', () => {
    dir = tempDir('aula-init-');
    const site = join(dir, 'site');
    // npx writes the spec relative to its own folder
    const aulaPackage = npxCache(dir, `file:${relative(join(dir, 'npm-cache', '_npx', '0123abcd'), join(dir, 'aula-0.1.0.tgz'))}`);
    const result = init(site, { aulaPackage });
    expect(readPackage(site).dependencies).toEqual({ aula: 'file:../aula-0.1.0.tgz' });
    expect(result.warnings[0]).toMatch(/^package\.json takes aula from "file:\.\.\/aula-0\.1\.0\.tgz", outside the site folder/);
    expect(result.next).toEqual(['npm install', 'npx aula check', 'npx aula build', 'npx aula serve']);
    // a tarball inside the site: nothing to warn of but the lockfile
    removeDir(site);
    mkdirSync(site);
    writeFileSync(join(site, 'aula-0.1.0.tgz'), '');
    const inside = init(site, { aulaPackage: npxCache(dir, `file:${join(site, 'aula-0.1.0.tgz')}`) });
    expect(readPackage(site).dependencies).toEqual({ aula: 'file:aula-0.1.0.tgz' });
    expect(inside.warnings).toEqual([expect.stringMatching(/^there is no package-lock\.json/)]);
  });

  it('run by `npx <git URL or version> init`: that spec as it is', () => {
    dir = tempDir('aula-init-');
    init(dir, { aulaPackage: npxCache(dir, 'github:example/aula#v0.1.0') });
    expect(readPackage(dir).dependencies).toEqual({ aula: 'github:example/aula#v0.1.0' });
  });

  it('is added to an existing package.json that lacks it, keeping its layout and dependencies; one listed is never changed', () => {
    dir = tempDir('aula-init-');
    const aulaPackage = npxCache(dir, 'github:example/aula');
    const site = join(dir, 'site');
    mkdirSync(site);
    writeFileSync(join(site, 'package.json'), '{\n\t"name": "mine",\n\t"dependencies": {\n\t\t"left-pad": "1.3.0"\n\t}\n}\n');
    init(site, { aulaPackage });
    expect(readFileSync(join(site, 'package.json'), 'utf8')).toMatch(/^\{\n\t"name": "mine",\n\t"dependencies": \{\n\t\t"left-pad": "1\.3\.0",\n\t\t"aula": "github:example\/aula"\n\t\},\n\t"scripts"/);
    for (const [field, spec] of [['dependencies', 'file:vendor/aula.tgz'], ['devDependencies', '^0.1.0'], ['optionalDependencies', 'file:../aula.tgz'], ['peerDependencies', '*']]) {
      removeDir(site);
      mkdirSync(site);
      const before = { name: 'mine', [field]: { aula: spec } };
      writeFileSync(join(site, 'package.json'), JSON.stringify(before));
      init(site, { aulaPackage });
      expect(readPackage(site), field).toEqual({ ...before, scripts: STARTER_SCRIPTS });
    }
    // "dependencies" that npm could not read either: left to the user, who is told
    removeDir(site);
    mkdirSync(site);
    writeFileSync(join(site, 'package.json'), '{"dependencies":"none"}');
    expect(init(site, { aulaPackage }).warnings[0]).toMatch(/^package\.json does not list aula/);
    expect(readPackage(site).dependencies).toBe('none');
  });

  it('is not added where aula is installed for the site (a workspace above it, or installed without saving)', () => {
    dir = tempDir('aula-init-');
    const aulaPackage = join(dir, 'node_modules', 'aula');
    mkdirSync(aulaPackage, { recursive: true });
    writeFileSync(join(aulaPackage, 'package.json'), '{"name":"aula"}');
    writeFileSync(join(dir, 'package.json'), '{"dependencies":{"aula":"file:aula.tgz"}}');
    const site = join(dir, 'site');
    const result = init(site, { aulaPackage });
    expect(readPackage(site).dependencies).toBeUndefined();
    // installed where node finds it from the site: nothing to install before the check
    expect(result.next).toEqual(['npx aula check', 'npx aula build', 'npx aula serve']);
  });
});

describe('the workflow init writes', () => {
  const steps = (text: string) => parse(text).jobs.build.steps as Record<string, unknown>[];

  it('installs the Node.js major init runs on (at least 20), from the committed lockfile', () => {
    dir = tempDir('aula-init-');
    init(dir);
    const wf = parse(readFileSync(join(dir, WORKFLOW_FILE), 'utf8'));
    const major = Math.max(20, Number(process.versions.node.split('.')[0]));
    expect(steps(readFileSync(join(dir, WORKFLOW_FILE), 'utf8'))).toEqual([
      { uses: 'actions/checkout@v5' },
      { uses: 'actions/setup-node@v5', with: { 'node-version': major, cache: 'npm' } },
      { run: 'npm ci' },
      { run: 'npx --no aula check' },
      { run: 'npx --no aula build' },
      { uses: 'actions/upload-artifact@v6', with: { name: 'dist', path: 'dist/', 'include-hidden-files': true } },
    ]);
    expect(wf.permissions).toEqual({ contents: 'read' });
    expect(wf.jobs.build.defaults).toBeUndefined();
  });

  it('for a site below the top of its git repository, runs there, and init says where GitHub looks for it', () => {
    dir = tempDir('aula-init-');
    mkdirSync(join(dir, '.git'));
    const site = join(dir, 'sites', 'the events');
    const result = init(site);
    const text = readFileSync(join(site, WORKFLOW_FILE), 'utf8');
    expect(text).toContain('working-directory: "sites/the events"\n');
    const wf = parse(text);
    expect(wf.jobs.build.defaults).toEqual({ run: { 'working-directory': 'sites/the events' } });
    expect(steps(text)[1].with).toMatchObject({ 'cache-dependency-path': 'sites/the events/package-lock.json' });
    // (actions take paths from the top of the repository, not from working-directory)
    expect(steps(text)[5].with).toEqual({ name: 'dist', path: 'sites/the events/dist/', 'include-hidden-files': true });
    const top = relative(process.cwd(), dir);
    expect(result.warnings).toContain(`the site is in the git repository ${top}, below its top: GitHub runs only the workflows in ${join(top, WORKFLOW_FILE)}; move ${WORKFLOW_FILE} there (its steps run in sites/the events/)`);
  });
});
