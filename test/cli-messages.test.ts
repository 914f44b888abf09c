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

  it('says in one line, exit 1, what is wrong with a file given where a folder belongs, and with a dist it cannot read', () => {
    const file = join(content, 'site.yaml');
    const oneLine = (r: ReturnType<typeof aula>, line: string | RegExp, what: string) => {
      expect(r.code, what).toBe(1);
      expect(r.err.split('\n'), what).toEqual([typeof line === 'string' ? line : expect.stringMatching(line), '']);
    };
    // the build went on without a cache, and said nothing
    for (const cache of [file, join(file, 'sub')]) {
      oneLine(aula('build', '--content', content, '--out', join(root, 'never'), '--cache', cache), `error: option '--cache <dir>' argument '${cache}' is invalid. expected a folder, but ${file} is a file`, cache);
    }
    oneLine(aula('dev', '--content', content, '--cache', file, '--port', '0'), /^error: option '--cache <dir>' argument '.*' is invalid\. expected a folder/, 'dev --cache');
    expect(existsSync(join(root, 'never'))).toBe(false);
    // (said "no such folder")
    oneLine(aula('dev', '--content', file, '--port', '0'), `aula: --content ${file}: not a folder`, 'dev --content');
    // (node's own message, and an "unexpected error" with half a JSON.parse message)
    oneLine(aula('nginx', '--dist', file), `aula: ${join(file, 'manifest.json')}: a part of the path is a file, not a folder [ENOTDIR]; build first with \`aula build\``, 'nginx --dist');
    const broken = join(root, 'broken-dist');
    writeContent(broken, { 'manifest.json': readFileSync(join(dist, 'manifest.json'), 'utf8'), 'data/media-files.json': 'nope\n' });
    oneLine(aula('nginx', '--dist', broken), `aula: ${join(broken, 'data/media-files.json')}: not the media files' index (not valid JSON); build again with \`aula build\``, 'nginx media index');
    // (an "unexpected error" from the config writer)
    oneLine(aula('nginx', '--dist', dist, '--root', '/srv/a"b'), /^error: option '--root <dir>' argument '\/srv\/a"b' is invalid\. expected a path without " \\ \$ or a line break/, 'nginx --root');
  });

  it('prints at most a thousand problems, then how many more there are, then the count', () => {
    // 300 objects lacking four required keys each, 25 a file (a file's records tell 100 at most): 1,200 problems
    const files = Array.from({ length: 12 }, (_, f) => [`events/broken-${f}.yaml`, Array.from({ length: 25 }, (_, i) => `- {id: ${900_000 + f * 25 + i}}\n`).join('')]);
    const broken = writeContent(join(root, 'many-problems'), { ...FIXTURE_FILES, ...Object.fromEntries(files) });
    for (const command of ['build', 'check']) {
      const r = aula(command, '--content', broken, ...(command === 'build' ? ['--out', join(root, 'many-problems-dist')] : []));
      const lines = r.err.trimEnd().split('\n').filter((line) => line.startsWith('events/'));
      expect([r.code, lines.length], command).toEqual([1, 1000]);
      expect(r.err.trimEnd().split('\n').slice(-2), command).toEqual([
        '... and 200 more problems (the first 1000 lines are shown)',
        expect.stringMatching(/^1200 problems found/),
      ]);
    }
  });

  it("counts a file's problems not told in the count it ends with", () => {
    // 30 objects lacking four required keys each: 120 problems, of which a file's records tell 100
    const many = Array.from({ length: 30 }, (_, i) => `- {id: ${910_000 + i}}\n`).join('');
    const broken = writeContent(join(root, 'counted-problems'), { ...FIXTURE_FILES, 'events/broken.yaml': many });
    const r = aula('check', '--content', broken);
    const lines = r.err.trimEnd().split('\n');
    expect(lines.filter((line) => line.startsWith('events/'))).toHaveLength(101);
    expect(lines.slice(-2)).toEqual([expect.stringMatching(/and 20 more problems in this file's records/), '120 problems found.']);
    // in JSON the counting line says how many it stands for
    const json = JSON.parse(aula('check', '--content', broken, '--format', 'json').out) as { message: string; more?: number }[];
    expect(json).toHaveLength(101);
    expect(json.filter((p) => p.more !== undefined)).toEqual([expect.objectContaining({ message: expect.stringMatching(/and 20 more problems/), more: 20 })]);
    expect(json.reduce((n, p) => n + (p.more ?? 1), 0)).toBe(120);
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
