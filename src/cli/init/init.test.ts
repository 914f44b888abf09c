import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadContent } from '../../content/index.ts';
import { removeDir, tempDir } from '../../../test/helpers.ts';
import { init } from './init.ts';
import { STARTER_CONTENT, STARTER_SCRIPTS, WORKFLOW_FILE } from './starter-content.ts';

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
    expect(pkg.devDependencies.aula).toMatch(/^\^\d/);
    const workflow = readFileSync(join(dir, WORKFLOW_FILE), 'utf8');
    for (const step of ['npx aula check', 'npx aula build', 'actions/upload-artifact', 'path: dist/']) expect(workflow).toContain(step);
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
