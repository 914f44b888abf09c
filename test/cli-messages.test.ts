// What the command line tells a user, checked against what is there: the files its help names,
// the defaults it shows, the warnings of `check --format json`, the build summary's file count,
// and the usage comment of the MiniSearch options module.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { aula as run } from './aula-cli.ts';
import { FIXTURE_FILES } from './fixture-content.ts';
import { removeDir, tempDir, writeContent } from './helpers.ts';

let root: string;
let content: string;
let dist: string;
let built: ReturnType<typeof aula>;

const aula = (...args: string[]) => run(args, { cwd: root });

/** Every file below dir, relative, with forward slashes. */
function walk(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((rel) => statSync(join(dir, rel)).isFile())
    .map((rel) => relative(dir, join(dir, rel)).split('\\').join('/'));
}

beforeAll(() => {
  root = tempDir('aula-cli-messages-');
  // a misnamed folder, which check and build warn of
  content = writeContent(join(root, 'content'), { ...FIXTURE_FILES, 'event/lost.md': '---\nid: 1\n---\n' });
  dist = join(root, 'dist');
  built = aula('build', '--content', content, '--out', dist, '--no-cache');
});

afterAll(() => removeDir(root));

describe('the command line', () => {
  it("names in build --help only the dist files a build writes", () => {
    expect(built.code).toBe(0);
    const help = aula('build', '--help').out.replace(/\s+/g, ' ');
    const named = [...help.matchAll(/(?:_redirects|vercel\.json|deploy\/[a-z-]+\.conf)/g)].map((m) => m[0]);
    expect(named).toContain('deploy/nginx-upstream.conf');
    for (const rel of named) expect(existsSync(join(dist, rel)), rel).toBe(true);
  });

  it('says in one line that the content folder is missing or not a folder, and warns when --content names a folder with no content', () => {
    for (const command of [['build', '--out', join(root, 'never'), '--no-cache'], ['check']]) {
      const missing = aula(command[0], '--content', join(root, 'nowhere'), ...command.slice(1));
      expect([missing.code, missing.err], command[0]).toEqual([1, `aula: ${join(root, 'nowhere')}: the content folder does not exist\n`]);
      const file = aula(command[0], '--content', join(content, 'site.yaml'), ...command.slice(1));
      expect([file.code, file.err], command[0]).toEqual([1, `aula: ${join(content, 'site.yaml')}: the content folder is not a folder\n`]);
    }
    expect(existsSync(join(root, 'never'))).toBe(false);
    // the events folder given as the content folder: valid, but nothing in it is read
    const inner = aula('check', '--content', join(content, 'events'));
    expect([inner.code, inner.err]).toEqual([0, `aula: warning: ${join(content, 'events')}/ holds no events and no directory objects; --content names the folder that holds site.yaml, events/ and directory/\n`]);
    expect(built.err).not.toContain('holds no events');
  });

  it('shows durations as they are written, not in milliseconds', () => {
    const help = aula('serve', '--help').out.replace(/\s+/g, ' ');
    expect(help).toContain('(default: 30s)');
    expect(help).not.toContain('30000');
  });

  it('check --format json prints the problems on stdout and the warnings on stderr, as text does', () => {
    const json = aula('check', '--content', content, '--format', 'json');
    expect(json.code).toBe(0);
    expect(JSON.parse(json.out)).toEqual([]);
    expect(json.err).toBe('aula: warning: event/ is not read (did you mean events/?)\n');
    expect(aula('check', '--content', content).err).toBe(json.err);
  });

  it('counts in the build summary every file the build made', () => {
    const made = walk(dist);
    expect(made.length).toBeGreaterThan(40);
    expect(built.out).toContain(` ${made.length} files; `);
    expect(JSON.parse(readFileSync(join(dist, '.aula-files'), 'utf8')).files).toEqual(made.sort());
  });

  it('tells in minisearch-options.js how a page imports it: URLs of dist/, not of aula’s sources', () => {
    const module = readFileSync(join(dist, 'autocomplete', 'minisearch-options.js'), 'utf8');
    const header = module.slice(0, module.indexOf('\n\n'));
    const urls = [...header.matchAll(/(?:from|fetch\()\s*'([^']+)'/g)].map((m) => m[1]).filter((u) => u !== 'minisearch');
    expect(urls).toEqual(['/autocomplete/minisearch-options.js', '/autocomplete/minisearch.json']);
    for (const url of urls) expect(existsSync(join(dist, url)), url).toBe(true);
  });
});
