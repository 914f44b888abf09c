// `aula build --out` replaces the folder it names, so it must refuse every folder that is not
// provably its own — and leave such a folder byte-identical. Concurrent builds into one --out are
// serialized by a lock. Real CLI processes on real folders.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lockOut, lockPath } from '../../src/pipeline/out-folder/lock.ts';
import { loadDataset } from '../../src/query/dataset.ts';
import { aula as run, NOBODY, startAula } from '../aula-cli.ts';
import { FIXTURE_FILES } from '../fixture-content.ts';
import { buildOk, removeDir, tempDir, writeContent } from '../helpers.ts';

let root: string;
let content: string;

const aula = (cwd: string, ...args: string[]) => run(args, { cwd });

/** Every path under `dir` (files and folders) → sha1 of a file's bytes or 'dir'. */
function snapshot(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (d: string) => {
    for (const name of readdirSync(d).sort()) {
      const path = join(d, name);
      if (statSync(path).isDirectory()) {
        out.set(relative(dir, path), 'dir');
        walk(path);
      } else out.set(relative(dir, path), createHash('sha1').update(readFileSync(path)).digest('hex'));
    }
  };
  walk(dir);
  return out;
}

/** Runs `aula build` with --out, expects a refusal: exit 1, one line naming --out, nothing changed under `watched`. */
function expectRefused(cwd: string, out: string, watched: string, pattern: RegExp) {
  const before = snapshot(watched);
  const r = aula(cwd, 'build', '--content', content, '--out', out);
  expect(r.code).toBe(1);
  const lines = r.err.trimEnd().split('\n');
  expect(lines, r.err).toHaveLength(1);
  expect(lines[0]).toMatch(/^aula: --out /);
  expect(lines[0]).toMatch(pattern);
  expect(snapshot(watched)).toEqual(before);
}

beforeAll(() => {
  root = tempDir('aula-out-');
  content = writeContent(join(root, 'project', 'content'), FIXTURE_FILES);
  writeFileSync(join(root, 'project', 'package.json'), '{"name":"my-site"}\n');
  writeFileSync(join(root, 'project', 'notes.txt'), 'keep me\n');
});
afterAll(() => removeDir(root));

/** The folder of the files builds free, kept for the next one on purpose (util/spare-files.ts). */
const SPARES = '.aula-spare-dist';
/** What builds left beside dist/ but the spares. */
const leftovers = (dir: string) => readdirSync(dir).filter((n) => n.startsWith('.aula-') && n !== SPARES);

describe('aula build --out refuses folders that are not its own, touching nothing', () => {
  it('the content folder itself, its parent, a folder inside it, and all of them through a symbolic link', () => {
    const project = join(root, 'project');
    expectRefused(project, content, project, /is the content folder/);
    expectRefused(project, project, project, /contains the content folder/);
    expectRefused(project, join(content, 'events'), project, /lies inside the content folder/);
    expectRefused(project, join(content, 'new-dist'), project, /lies inside the content folder/);
    symlinkSync(content, join(root, 'link-to-content'));
    symlinkSync(project, join(root, 'link-to-project'));
    expectRefused(root, join(root, 'link-to-content'), project, /is the content folder/);
    expectRefused(root, join(root, 'link-to-project', 'content', 'dist'), project, /lies inside the content folder/);
    expect(existsSync(join(content, 'dist'))).toBe(false);
  });

  it('`.` in a project, an unrelated folder with files, a foreign manifest.json, a file', () => {
    const project = join(root, 'project');
    const other = writeContent(join(root, 'photos'), { 'a.jpg': 'jpeg', 'sub/b.jpg': 'jpeg' });
    const web = writeContent(join(root, 'web'), { 'manifest.json': '{"name":"PWA","format":1}\n', 'index.html': '<p>' });
    writeFileSync(join(root, 'a-file'), 'data');
    expectRefused(project, '.', project, /contains the content folder/);
    expectRefused(other, '.', other, /is not empty and is not a dist written by aula/);
    expectRefused(root, other, other, /is not empty and is not a dist written by aula/);
    expectRefused(root, web, web, /not a dist written by aula/);
    expectRefused(root, join(root, 'a-file'), root, /exists and is not a folder/);
    expect(readFileSync(join(root, 'a-file'), 'utf8')).toBe('data');
  });

  it('accepts an absent folder, an empty one, and a dist it wrote before', () => {
    const absent = join(root, 'out-absent', 'deeper', 'dist');
    expect(aula(root, 'build', '--content', content, '--out', absent).code).toBe(0);
    expect(existsSync(join(absent, 'manifest.json'))).toBe(true);
    const empty = join(root, 'out-empty');
    mkdirSync(empty);
    expect(aula(root, 'build', '--content', content, '--out', empty).code).toBe(0);
    // a previous aula dist is replaced (the second build over the first)
    const again = aula(root, 'build', '--content', content, '--out', absent);
    expect(again.code, again.err).toBe(0);
    expect(loadDataset(absent).events.table.length).toBe(4);
  });

  it('`aula dev --out` refuses the same folders', () => {
    const project = join(root, 'project');
    const before = snapshot(project);
    const r = aula(project, 'dev', '--content', content, '--out', project, '--port', '0');
    expect(r.code).toBe(1);
    expect(r.err.trimEnd().split('\n')).toHaveLength(1);
    expect(r.err).toMatch(/^aula: --out .*contains the content folder/);
    expect(snapshot(project)).toEqual(before);
  });
});

describe('--cache is refused where its files would land among the user\'s or be swapped away', () => {
  it('inside the content folder, or inside --out: one line, nothing written', () => {
    const project = join(root, 'project');
    for (const [cache, pattern] of [
      [content, /^aula: --cache .* lies inside the content folder .*; choose a folder outside it/],
      [join(content, 'events', '.cache'), /^aula: --cache .* lies inside the content folder/],
      [join(project, 'cache-dist'), /^aula: --cache .* lies inside --out .*, which every build replaces/],
    ] as const) {
      const before = snapshot(project);
      const r = aula(project, 'build', '--content', content, '--out', join(project, 'cache-dist'), '--cache', cache);
      expect(r.code).toBe(1);
      expect(r.err.trimEnd().split('\n'), r.err).toEqual([expect.stringMatching(pattern)]);
      expect(snapshot(project)).toEqual(before);
    }
    const dev = aula(project, 'dev', '--content', content, '--port', '0', '--cache', content);
    expect(dev.code).toBe(1);
    expect(dev.err.trimEnd().split('\n')).toEqual([expect.stringMatching(/^aula: --cache .* lies inside the content folder/)]);
  });
});

describe('the swap removes only what aula made', () => {
  it('folders beside --out with look-alike names survive a build', async () => {
    const dir = tempDir('aula-lookalike-');
    try {
      const dist = join(dir, 'dist');
      await buildOk({ content, out: dist, precompress: false });
      // a user's folders whose names resemble the parked and staging names, one even exactly
      // (pid of no running process), but holding no aula marker or manifest
      const mine = {
        '.aula-old-dist-notes/a.txt': 'mine',
        '.aula-old-dist-123-456/a.txt': 'mine',
        '.aula-tmp-dist-999999-1/a.txt': 'mine',
        '.aula-old-dist-foo-1-2/a.txt': 'mine',
      };
      writeContent(dir, mine);
      await buildOk({ content, out: dist, precompress: false });
      for (const [rel, text] of Object.entries(mine)) expect(readFileSync(join(dir, rel), 'utf8')).toBe(text);
      expect(existsSync(join(dist, '.aula-staging'))).toBe(false);
    } finally {
      removeDir(dir);
    }
  });
});

describe('files somebody else put in a dist aula wrote are kept', () => {
  const user = {
    CNAME: 'events.example.org\n',
    '.nojekyll': '',
    'assets/site.css': 'body { margin: 0 }\n',
    'robots.txt': 'User-agent: *\n',
    // inside a folder aula writes, too: .aula-files proves it is not aula's
    'v1/cms/notes.txt': 'mine\n',
  };
  const userFiles = (out: string) => Object.fromEntries(Object.keys(user).map((p) => [p, existsSync(join(out, p)) ? readFileSync(join(out, p), 'utf8') : null]));
  const hasGit = spawnSync('git', ['--version']).status === 0;

  it('a CNAME, assets/, a .git of a gh-pages worktree and a file in v1/ survive full, cached, patched and --no-cache builds', () => {
    // Before, every build deleted them: --out was proved aula's by its manifest, then replaced whole.
    const dir = tempDir('aula-keep-');
    try {
      const out = join(dir, 'dist');
      const cache = join(dir, 'cache');
      const site = writeContent(join(dir, 'content'), FIXTURE_FILES);
      const build = (...extra: string[]) => {
        const r = aula(dir, 'build', '--content', site, '--out', out, ...extra);
        expect(r.code, r.err).toBe(0);
        expect(userFiles(out)).toEqual(user);
        if (hasGit) expect(spawnSync('git', ['-C', out, 'rev-parse', '--git-dir'], { encoding: 'utf8' }).stdout.trim()).toBe('.git');
        else expect(readFileSync(join(out, '.git', 'HEAD'), 'utf8')).toBe('ref: refs/heads/gh-pages\n');
        // what aula lists as its own never names theirs
        const made = JSON.parse(readFileSync(join(out, '.aula-files'), 'utf8')) as { files: string[] };
        expect(made.files).toContain('manifest.json');
        expect(made.files.filter((f) => f in user || f.startsWith('.git'))).toEqual([]);
      };
      expect(aula(dir, 'build', '--content', site, '--out', out, '--cache', cache).code).toBe(0);
      writeContent(out, user);
      if (hasGit) expect(spawnSync('git', ['init', '-q', out]).status).toBe(0);
      else writeContent(out, { '.git/HEAD': 'ref: refs/heads/gh-pages\n' });
      build('--cache', cache);
      // one event changed: the patch build (patch/patch-build.ts) swaps too
      const event = Object.keys(FIXTURE_FILES).find((f) => f.startsWith('events/'))!;
      writeFileSync(join(site, event), FIXTURE_FILES[event].replace(/title: .*/, 'title: Changed title'));
      build('--cache', cache);
      build('--no-cache');
      // the dist, apart from theirs, is what a clean build makes
      const clean = join(dir, 'clean');
      expect(aula(dir, 'build', '--content', site, '--out', clean, '--no-cache').code).toBe(0);
      const ours = (d: string) => [...snapshot(d)].filter(([p]) => !(p in user) && !p.startsWith('.git') && p !== 'assets' && !/changes\.json|manifest\.json/.test(p));
      expect(ours(out)).toEqual(ours(clean));
    } finally {
      removeDir(dir);
    }
  });

  /** Runs `test` on a dist built from the fixture into a fresh folder, removed afterwards. */
  const withDist = (test: (dir: string, out: string) => void) => {
    const dir = tempDir('aula-keep-');
    try {
      const out = join(dir, 'dist');
      expect(aula(dir, 'build', '--content', content, '--out', out).code).toBe(0);
      test(dir, out);
    } finally {
      removeDir(dir);
    }
  };

  it('refuses, changing nothing, when one of theirs is where the build makes a file', () =>
    withDist((dir, out) => {
      rmSync(join(out, 'events.ics'));
      writeContent(out, { 'events.ics/mine.txt': 'a folder of theirs where aula writes its feed\n' });
      const before = snapshot(out);
      const r = aula(dir, 'build', '--content', content, '--out', out);
      expect(r.code).toBe(1);
      expect(r.err.trimEnd().split('\n'), r.err).toEqual([
        `aula: --out ${out}: events.ics in it was not made by aula, and this build makes a file or folder in its place; move it out of the folder and build again (nothing was changed)`,
      ]);
      expect(snapshot(out)).toEqual(before);
      // no staging folder or lock left beside it
      expect(leftovers(dir)).toEqual([]);
    }));

  it('files written into the dist while builds swap it are all there after the next build', async () => {
    // A file written after the swap looked for the user's files went with the former dist: 275 of
    // 11,544 in the review's run. Now the removal takes only what the list names, and the next
    // build moves the rest out of the former dist.
    const dir = tempDir('aula-keep-');
    try {
      const out = join(dir, 'dist');
      const site = writeContent(join(dir, 'content'), FIXTURE_FILES);
      expect(aula(dir, 'build', '--content', site, '--out', out, '--no-cache').code).toBe(0);
      const written: string[] = [];
      let writing = true;
      const writer = (async () => {
        for (let i = 0; writing; i++) {
          try {
            writeFileSync(join(out, `note-${i}.txt`), `note ${i}`, { flag: 'wx' });
            written.push(`note-${i}.txt`);
          } catch {
            // the moment between the swap's renames: no dist/ to write into
          }
          await new Promise((r) => setTimeout(r, 1));
        }
      })();
      for (let b = 0; b < 3; b++) {
        const r = await startAula(['build', '--quiet', '--content', site, '--out', out, '--no-cache'], { cwd: dir, stdio: 'ignore' }).exited;
        expect(r.code).toBe(0);
      }
      writing = false;
      await writer;
      expect(aula(dir, 'build', '--content', site, '--out', out, '--no-cache').code).toBe(0);
      expect(written.length).toBeGreaterThan(100);
      expect(written.filter((f) => !existsSync(join(out, f)))).toEqual([]);
      expect(leftovers(dir)).toEqual([]);
    } finally {
      removeDir(dir);
    }
  });

  it('one of theirs that cannot be moved is named in a warning and kept in the former dist; the next build moves it', () => {
    // A read-only folder cannot move to another parent (its '..' changes): it stayed behind in
    // silence. As root the builds run as nobody, for whom the permission holds.
    const asRoot = process.getuid?.() === 0;
    const dir = tempDir('aula-keep-');
    try {
      const site = writeContent(join(dir, 'content'), FIXTURE_FILES);
      if (asRoot) expect(spawnSync('chown', ['-R', `${NOBODY}:${NOBODY}`, dir]).status).toBe(0);
      const build = () => run(['build', '--quiet', '--content', site, '--out', join(dir, 'dist'), '--no-cache'], { cwd: dir, asNobody: true });
      expect(build().code).toBe(0);
      writeContent(join(dir, 'dist'), { 'assets/site.css': 'body {}\n' });
      if (asRoot) expect(spawnSync('chown', ['-R', `${NOBODY}:${NOBODY}`, join(dir, 'dist', 'assets')]).status).toBe(0);
      chmodSync(join(dir, 'dist', 'assets'), 0o555);
      const r = build();
      expect(r.code, r.err).toBe(0);
      const parked = readdirSync(dir).filter((n) => /^\.aula-old-dist-\d+-\d+$/.test(n));
      expect(parked).toHaveLength(1);
      expect(r.err).toBe(`aula: warning: ${join(dir, 'dist', 'assets')} could not be moved into the new dist (EACCES): it stays in ${join(dir, parked[0], 'assets')}, and the next build tries again\n`);
      // the former dist keeps only it, and what proves the folder aula's
      expect(readdirSync(join(dir, parked[0])).sort()).toEqual(['.aula-files', 'assets', 'manifest.json']);
      chmodSync(join(dir, parked[0], 'assets'), 0o755);
      expect(build().code).toBe(0);
      expect(readFileSync(join(dir, 'dist', 'assets', 'site.css'), 'utf8')).toBe('body {}\n');
      expect(leftovers(dir)).toEqual([]);
    } finally {
      removeDir(dir);
    }
  });

  it('a link put in place of a file aula made is left, with the former dist, and named in a warning every build until removed', () => {
    const dir = tempDir('aula-link-');
    try {
      const site = writeContent(join(dir, 'content'), FIXTURE_FILES);
      const build = () => aula(dir, 'build', '--quiet', '--content', site, '--out', join(dir, 'dist'), '--no-cache');
      expect(build().code).toBe(0);
      const victim = join(dir, 'victim.txt');
      writeFileSync(victim, 'precious\n');
      rmSync(join(dir, 'dist', 'openapi.json'));
      symlinkSync(victim, join(dir, 'dist', 'openapi.json'));
      const warning = (parked: string) =>
        `aula: warning: ${join(dir, parked, 'openapi.json')} stands where aula made a file but is not one it made (a link, or not a regular file): aula leaves it, and ${join(dir, parked)} with it; remove that folder when it is no longer needed\n`;
      const first = build();
      expect(first.code, first.err).toBe(0);
      const parked = readdirSync(dir).filter((n) => /^\.aula-old-dist-\d+-\d+$/.test(n));
      expect(parked).toHaveLength(1);
      expect(first.err).toBe(warning(parked[0]));
      expect(readdirSync(join(dir, parked[0])).sort()).toEqual(['.aula-files', 'manifest.json', 'openapi.json']);
      // the next build finds it again, and says so again
      expect(build().err).toBe(warning(parked[0]));
      expect(readFileSync(victim, 'utf8')).toBe('precious\n');
      removeDir(join(dir, parked[0]));
      const clean = build();
      expect([clean.code, clean.err]).toEqual([0, '']);
      expect(leftovers(dir)).toEqual([]);
    } finally {
      removeDir(dir);
    }
  });

  it('a dist whose .aula-files is missing (an older aula\'s, or copied without hidden files) is refused: a file of theirs nested in aula\'s folders stays', () =>
    withDist((dir, out) => {
      rmSync(join(out, '.aula-files'));
      writeContent(out, { CNAME: 'events.example.org\n', 'v1/extra/mine.json': '{"mine":1}\n', 'v1/cms/event/offset/custom.json': '{}\n' });
      expectRefused(dir, out, dir, /is a dist without a readable \.aula-files \(written by an older aula, copied without hidden files, or damaged\): aula cannot tell the files it made there from yours, so it replaces nothing; restore \.aula-files, or move your files out and remove the folder, and build again$/);
      expect(readFileSync(join(out, 'v1/extra/mine.json'), 'utf8')).toBe('{"mine":1}\n');
    }));

  it('a swap stopped between its renames and the move: the next build moves theirs out of the former dist before removing it', () =>
    withDist((dir, out) => {
      // the former dist as a killed build leaves it parked (a pid no process has), theirs still in it
      const dead = spawnSync('true').pid!;
      const parked = join(dir, `.aula-old-dist-${dead}-1`);
      cpSync(out, parked, { recursive: true });
      writeContent(parked, { CNAME: 'events.example.org\n' });
      expect(aula(dir, 'build', '--content', content, '--out', out).code).toBe(0);
      expect(readFileSync(join(out, 'CNAME'), 'utf8')).toBe('events.example.org\n');
      expect(existsSync(parked)).toBe(false);
    }));
});

describe('concurrent builds into one --out', () => {
  const buildProcess = (out: string) => startAula(['build', '--content', content, '--out', out]).exited.then(({ code, out, err }) => ({ code, output: `${out}${err}` }));

  it('are serialized by the lock: both end cleanly, the dist is valid, no lock or staging left', async () => {
    const dir = tempDir('aula-concurrent-');
    try {
      const out = join(dir, 'dist');
      for (let round = 0; round < 2; round++) {
        const results = await Promise.all([buildProcess(out), buildProcess(out), buildProcess(out)]);
        for (const r of results) {
          expect(r.code, r.output).toBe(0);
          expect(r.output).not.toMatch(/ENOTEMPTY|ENOENT|at .*\.ts:/);
        }
        expect(loadDataset(out).events.table.length).toBe(4);
        expect(readdirSync(dir).filter((n) => n !== SPARES).sort()).toEqual(['dist']);
      }
    } finally {
      removeDir(dir);
    }
  });

  it('a stale lock of a dead process is taken over', async () => {
    const dir = tempDir('aula-stale-');
    try {
      const out = join(dir, 'dist');
      const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
      writeFileSync(lockPath(out), `${dead.stdout}\n`);
      const r = await buildProcess(out);
      expect(r.code, r.output).toBe(0);
      expect(existsSync(lockPath(out))).toBe(false);
    } finally {
      removeDir(dir);
    }
  });

  it('a live lock makes a build wait (with a message), and gives up with one line after the bound', async () => {
    const dir = tempDir('aula-live-');
    try {
      const out = join(dir, 'dist');
      const release = await lockOut(out);
      const told: string[] = [];
      await expect(lockOut(out, { lockWaitMs: 300, onWait: (m) => told.push(m) })).rejects.toThrow(/is locked by another build \(pid \d+/);
      expect(told).toEqual([expect.stringMatching(/^waiting for the build by pid \d+ into .*dist to finish$/)]);
      // released once the second says it waits: it takes the lock then
      const second = lockOut(out, { lockWaitMs: 100_000, onWait: () => release() });
      (await second)();
      expect(existsSync(lockPath(out))).toBe(false);
    } finally {
      removeDir(dir);
    }
  });
});
