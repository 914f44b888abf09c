// The command line as a user runs it: bin/aula.cjs started as a program, exit codes and messages.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { aula as run, startAula } from './aula-cli.ts';
import { FIXTURE_FILES } from './fixture-content.ts';
import { removeDir, tempDir, writeContent } from './helpers.ts';

const root = tempDir();
afterAll(() => removeDir(root));

const aula = (...args: string[]) => run(args, { cwd: root });

describe('aula CLI', () => {
  it('has --help for every command', () => {
    expect(aula('--help').out).toMatch(/build[\s\S]*serve[\s\S]*check/);
    expect(aula('build', '--help').out).toMatch(/--content <dir>[\s\S]*--out <dir>[\s\S]*--base-url <url>/);
    expect(aula('serve', '--help').out).toMatch(/--dist <dir>[\s\S]*--port <n>[\s\S]*--host <h>[\s\S]*--base-url <url>[\s\S]*--cache-control/);
    expect(aula('check', '--help').out).toMatch(/--content <dir>/);
  });

  it('check: exit 0 on valid content, 1 with every problem as path:line:column key: message', () => {
    const good = writeContent(join(root, 'good'), FIXTURE_FILES);
    expect(aula('check', '--content', good)).toMatchObject({ code: 0 });
    const bad = writeContent(join(root, 'bad'), {
      ...FIXTURE_FILES,
      'site.yaml': 'timezone: Mars/Olympus\n',
      'events/x.yaml': 'id: 42\ntitle: Doppelt\nstart: 2025-01-01T10:00\nend: 2025-01-01T11:00\nlast_modified: 2025-01-01\n',
    });
    const r = aula('check', '--content', bad);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/^site\.yaml:1:\d+ timezone: .+/m);
    expect(r.err).toMatch(/^events\/x\.yaml:1:\d+ id: .+/m);
  });

  it('build: exit 1 on bad content, exit 0 and a summary on good content', () => {
    const out = join(root, 'dist');
    expect(aula('build', '--content', join(root, 'bad'), '--out', out).code).toBe(1);
    const r = aula('build', '--content', join(root, 'good'), '--out', out);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/4 events/);
  });

  it('a usage error is one line on stderr and exit 1, a suggestion on the same line, no help dump', () => {
    // (each printed commander's error, then 11–27 lines of usage)
    const cases: [string[], RegExp][] = [
      [['biuld'], /^error: unknown command 'biuld' \(Did you mean build\?\)$/],
      [['build', '--contnet', 'content'], /^error: unknown option '--contnet' \(Did you mean --content\?\)$/],
      [['build', '--base-url', 'x'], /^error: option '--base-url <url>' argument 'x' is invalid\. expected an absolute http\(s\) URL/],
      [['check', 'extra-arg'], /^error: too many arguments for 'check'\./],
      [['nginx', '--upstream', 'x'], /^error: option '--upstream <url>' argument 'x' is invalid/],
      // refused only after the whole build before, as an "unexpected error"
      [['build', '--upstream', 'http://h/x'], /^error: option '--upstream <url>' argument 'http:\/\/h\/x' is invalid\. expected an origin only, e\.g\. http:\/\/127\.0\.0\.1:8000/],
      // a path the host rules cannot hold: refused here, not as an "unexpected error" at the build's end
      [['build', '--base-url', 'http://x/ y'], /^error: option '--base-url <url>' argument 'http:\/\/x\/ y' is invalid\. expected a URL links can carry: its path may hold only letters, digits and \. _ ~ \/ - \(the host rules the build writes cannot hold others\)$/],
      // links would carry these as written: the parser normalizes them away, a browser does not
      [['build', '--base-url', 'http://a.example/../x'], /^error: option '--base-url <url>' argument 'http:\/\/a\.example\/\.\.\/x' is invalid\. expected a URL links can carry: a \.\. path segment$/],
      [['build', '--base-url', 'http://a.example:0'], /is invalid\. expected a URL links can carry: port 0 cannot be reached$/],
      [['build', '--base-url', 'http://a.example/api?b=1'], /is invalid\. expected a URL without query or fragment, e\.g\. https:\/\/example\.org\/api$/],
      // which would win would depend on their order
      [['build', '--no-cache', '--cache', 'x'], /^error: option '--cache <dir>' cannot be used with option '--no-cache'$/],
      [['dev', '--cache', 'x', '--no-cache'], /^error: option '--cache <dir>' cannot be used with option '--no-cache'$/],
      // credentials would be written into every link of the dist (and are not repeated)
      [['build', '--base-url', 'https://u:s3cret@example.org'], /^error: option '--base-url <url>' argument 'https:\/\/…@example\.org' is invalid\. expected no user name or password in the URL: the dist would publish them$/],
      [['nginx', '--upstream', 'http://u:s3cret@127.0.0.1:8000'], /^error: option '--upstream <url>' argument 'http:\/\/…@127\.0\.0\.1:8000' is invalid\. expected no user name or password/],
    ];
    for (const [args, line] of cases) {
      const r = aula(...args);
      expect(r.code, args.join(' ')).toBe(1);
      expect(r.err.split('\n'), args.join(' ')).toEqual([expect.stringMatching(line), '']);
    }
  });

  it('check and build warn of a name that looks meant as content but is not read, and go on', () => {
    // content/event/ (for events/) passed in silence: its events were simply not published
    const site = writeContent(join(root, 'typo'), { ...FIXTURE_FILES, 'event/extra.yaml': 'id: 77\n' });
    const check = aula('check', '--content', site);
    expect(check.code).toBe(0);
    expect(check.err).toBe('aula: warning: event/ is not read (did you mean events/?)\n');
    const build = aula('build', '--content', site, '--out', join(root, 'typo-dist'), '--quiet');
    expect(build.code).toBe(0);
    expect(build.err).toBe('aula: warning: event/ is not read (did you mean events/?)\n');
    // a build over the previous one (a cache, the same --out) tells it too, and once
    const cached = ['build', '--content', site, '--out', join(root, 'typo-cached'), '--cache', join(root, 'typo-cache'), '--quiet', '--timings'];
    expect(aula(...cached).err).toMatch(/^aula: warning: event\/ is not read \(did you mean events\/\?\)\n/);
    const again = aula(...cached);
    expect(again.code).toBe(0);
    expect(again.err.match(/is not read/g)).toEqual(['is not read']);
  });

  it('rejects bad option values with a non-zero exit', () => {
    expect(aula('serve', '--port', 'http').code).not.toBe(0);
    expect(aula('build', '--base-url', 'not a url').code).not.toBe(0);
    expect(aula('serve', '--dist', join(root, 'missing')).code).toBe(1);
  });

  it("sizes libuv's thread pool before its first use (a removal waits on the device), keeping a size the user set", () => {
    // a preload that tells, as the process exits, how many threads it ran (the pool's among them)
    const probe = join(root, 'threads-probe.cjs');
    writeFileSync(probe, "process.on('exit', () => process.stderr.write(`threads ${require('node:fs').readdirSync('/proc/self/task').length}\\n`));\n");
    const threads = (env: NodeJS.ProcessEnv) => {
      const r = run(['--version'], { cwd: root, env, node: ['--require', probe] });
      expect(r.code).toBe(0);
      return Number(/threads (\d+)/.exec(r.err)?.[1]);
    };
    const { UV_THREADPOOL_SIZE: _, ...unset } = process.env;
    expect(threads(unset)).toBeGreaterThan(16);
    expect(threads({ ...unset, UV_THREADPOOL_SIZE: '2' })).toBeLessThan(16);
  });

  it('started as a program, is node in the same process with huge pages asked of malloc, keeping a setting the user made', async () => {
    // a preload that tells which process node is and the tunables glibc started it with
    const probe = join(root, 'tunables-probe.cjs');
    writeFileSync(probe, 'process.stderr.write(`node ${process.pid} ${process.env.GLIBC_TUNABLES}\\n`);\n');
    const { GLIBC_TUNABLES: _, ...unset } = process.env;
    const started = async (env: NodeJS.ProcessEnv) => {
      const p = startAula(['--version'], { cwd: root, env: { ...env, NODE_OPTIONS: `--require ${probe}` } });
      const r = await p.exited;
      expect(r.code).toBe(0);
      expect(r.out.trim()).toMatch(/^\d+\.\d+\.\d+$/);
      const [, pid, tunables] = /node (\d+) (\S+)/.exec(r.err)!;
      // the shell that read the first line became node: a signal sent to the pid started reaches node
      expect(Number(pid)).toBe(p.child.pid);
      return tunables;
    };
    expect(await started(unset)).toBe('glibc.malloc.hugetlb=1');
    expect(await started({ ...unset, GLIBC_TUNABLES: 'glibc.malloc.arena_max=2' })).toBe('glibc.malloc.arena_max=2:glibc.malloc.hugetlb=1');
    expect(await started({ ...unset, GLIBC_TUNABLES: 'glibc.malloc.hugetlb=0' })).toBe('glibc.malloc.hugetlb=0');
  });
});

describe('aula CLI progress and machine output', () => {
  it('build prints its phases as plain lines when not on a terminal, nothing with --quiet', () => {
    const content = writeContent(join(root, 'progress'), FIXTURE_FILES);
    const r = aula('build', '--content', content, '--out', join(root, 'progress-dist'));
    expect(r.code).toBe(0);
    const lines = r.out.trim().split('\n');
    expect(lines.slice(0, 4)).toEqual(['aula build: load content', 'aula build: render data', 'aula build: minisearch', 'aula build: write data']);
    expect(lines).toContain('aula build: answer pages');
    expect(lines.at(-1)).toMatch(/^built .*progress-dist\/ in/);
    expect(r.out).not.toContain('\r');
    expect(r.err).toBe('');
    const quiet = aula('build', '--content', content, '--out', join(root, 'progress-dist'), '--quiet');
    expect(quiet).toMatchObject({ code: 0, out: '', err: '' });
    // content with problems: the load is the last phase said
    const broken = writeContent(join(root, 'progress-broken'), { ...FIXTURE_FILES, 'site.yaml': 'timezone: Mars/Olympus\n' });
    const failed = aula('build', '--content', broken, '--out', join(root, 'progress-broken-dist'));
    expect(failed.code).toBe(1);
    expect(failed.out.trim().split('\n')).toEqual(['aula build: load content']);
  });

  it('check --format json prints every problem as {file, line, column, key, message}', () => {
    const good = writeContent(join(root, 'json-good'), FIXTURE_FILES);
    expect(aula('check', '--content', good, '--format', 'json')).toMatchObject({ code: 0, out: '[]\n' });
    const bad = writeContent(join(root, 'json-bad'), { ...FIXTURE_FILES, 'site.yaml': 'timezone: Mars/Olympus\n' });
    const r = aula('check', '--content', bad, '--format', 'json');
    expect(r.code).toBe(1);
    const problems = JSON.parse(r.out);
    expect(problems).toEqual([{ file: 'site.yaml', line: 1, column: expect.any(Number), key: 'timezone', message: expect.any(String) }]);
    expect(aula('check', '--format', 'xml')).toMatchObject({ code: 1 });
  });
});
