// `aula init` is all or nothing and writes only inside its folder: a symbolic link leading out
// (at a file or a folder on the way), a file it may not change, or a write that fails part-way
// leave the folder — and whatever a link points at — exactly as they were (every file hashed
// before and after), with one line and exit 1. It warns when package.json takes aula from a
// `file:` path CI will not have, and its starter files name the JSON Schemas editors validate with.
import Ajv2020 from 'ajv/dist/2020.js';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, chownSync, existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, readlinkSync, rmdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { init, InitError } from '../../src/cli/init/init.ts';
import { SCHEMAS_IN_PACKAGE, STARTER_CONTENT, WORKFLOW_FILE } from '../../src/cli/init/starter-content.ts';
import { splitFrontMatter } from '../../src/content/front-matter.ts';
import { contentSchemas } from '../../src/docs/content-schemas.ts';
import { aula as run, NOBODY, type AulaOptions } from '../aula-cli.ts';
import { removeDir, tempDir } from '../helpers.ts';

const ROOT = join(import.meta.dirname, '..', '..');
/** `aula <args>` through the tests' runner, its result named as spawnSync names it */
function aula(args: string[], options: AulaOptions = {}) {
  const r = run(args, options);
  return { status: r.code, stdout: r.out, stderr: r.err };
}
/** uid and gid of `nobody` on Debian: who a root test run becomes to meet a permission error */

let root: string;
let n = 0;
beforeAll(() => {
  root = tempDir('aula-init-safe-');
});
afterAll(() => removeDir(root));

/** A new folder under the test's root: `site` to init, `outside` beside it. */
function folders() {
  const base = join(root, `t${n++}`);
  const site = join(base, 'site');
  const outside = join(base, 'outside');
  mkdirSync(site, { recursive: true });
  mkdirSync(outside);
  writeFileSync(join(outside, 'package.json'), '{"name":"elsewhere"}\n');
  writeFileSync(join(outside, 'ignore'), 'secret/\n');
  mkdirSync(join(outside, 'empty'));
  return { base, site, outside };
}

/** Every entry under `dir`, links not followed: its kind, mode and bytes (hashed) or target. */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (at: string) => {
    for (const name of readdirSync(at)) {
      const path = join(at, name);
      const rel = relative(dir, path);
      const info = lstatSync(path);
      if (info.isSymbolicLink()) out[rel] = `link → ${readlinkSync(path)}`;
      else if (info.isDirectory()) {
        out[rel] = `folder ${(info.mode & 0o7777).toString(8)}`;
        walk(path);
      } else out[rel] = `file ${(info.mode & 0o7777).toString(8)} ${createHash('sha256').update(readFileSync(path)).digest('hex')}`;
    }
  };
  walk(dir);
  return out;
}

const refusal = (run: () => unknown): string => {
  try {
    run();
  } catch (e) {
    expect(e).toBeInstanceOf(InitError);
    return (e as Error).message;
  }
  throw new Error('init did not refuse');
};

describe('symbolic links that lead outside the folder', () => {
  it('at .gitignore, package.json, the workflow, content/ or a folder on the way: refused, nothing written here or there', () => {
    const cases: [string, string, RegExp][] = [
      ['.gitignore', '../outside/ignore', /^.*site\/\.gitignore is a symbolic link that leads outside .*site; init writes only inside it; init changed nothing$/],
      ['package.json', '../outside/package.json', /site\/package\.json is a symbolic link that leads outside/],
      ['content', '../outside/empty', /site\/content is a symbolic link that leads outside/],
      ['.github', '../outside', /site\/\.github is a symbolic link that leads outside/],
      ['.gitignore', 'gone', /site\/\.gitignore is a symbolic link to nothing; init writes no file through it; init changed nothing$/],
      ['package.json', '../outside/not-there-either', /site\/package\.json is a symbolic link that leads outside/],
    ];
    for (const [at, target, why] of cases) {
      const { base, site } = folders();
      mkdirSync(dirname(join(site, at)), { recursive: true });
      symlinkSync(target, join(site, at));
      const before = snapshot(base);
      expect(refusal(() => init(site)), at).toMatch(why);
      expect(snapshot(base), at).toEqual(before);
    }
    // the workflow file itself, and a link whose target is a link out
    const { base, site, outside } = folders();
    mkdirSync(join(site, '.github', 'workflows'), { recursive: true });
    symlinkSync(join(outside, 'wf.yml'), join(site, WORKFLOW_FILE));
    symlinkSync('../outside/ignore', join(site, 'hop'));
    symlinkSync('hop', join(site, '.gitignore'));
    const before = snapshot(base);
    expect(refusal(() => init(site))).toMatch(/site\/\.github\/workflows\/aula\.yml is a symbolic link that leads outside/);
    expect(snapshot(base)).toEqual(before);
  });

  it('links that stay inside are written through, and stay links', () => {
    const { site } = folders();
    mkdirSync(join(site, 'packages'));
    writeFileSync(join(site, 'packages', 'site.json'), '{"name":"mine"}\n');
    symlinkSync('packages/site.json', join(site, 'package.json'));
    init(site);
    expect(lstatSync(join(site, 'package.json')).isSymbolicLink()).toBe(true);
    expect(JSON.parse(readFileSync(join(site, 'packages', 'site.json'), 'utf8')).scripts.build).toBe('aula build');
  });
});

describe('what stands in the way is found before anything is written', () => {
  it('a package.json it may not change: one line, exit 1, the folder as it was; as root, init runs as nobody', () => {
    const asRoot = process.getuid?.() === 0;
    const { base, site } = folders();
    writeFileSync(join(site, 'package.json'), '{"name":"mine"}\n');
    chmodSync(join(site, 'package.json'), 0o444);
    if (asRoot) {
      // nobody owns the site (it could write everything but package.json) and can reach it
      for (let dir = site; dir !== dirname(root); dir = dirname(dir)) chmodSync(dir, 0o755);
      chownSync(site, NOBODY, NOBODY);
      chownSync(join(site, 'package.json'), NOBODY, NOBODY);
    }
    const before = snapshot(base);
    const r = aula(['init', site], { asNobody: true });
    expect([r.status, r.stderr.trimEnd().split('\n')]).toEqual([1, [expect.stringMatching(/^aula: .*site\/package\.json cannot be changed \(permission denied \[EACCES\]\); init changed nothing$/)]]);
    expect(snapshot(base)).toEqual(before);
    expect(r.stdout).toBe('');
  });

  it('a folder where a file must be, a file where a folder must be, a non-empty content/: refused, nothing written', () => {
    const cases: [(site: string) => void, RegExp][] = [
      [(site) => mkdirSync(join(site, '.gitignore')), /site\/\.gitignore is not a file; init changed nothing$/],
      [(site) => mkdirSync(join(site, 'package.json')), /site\/package\.json is not a file; init changed nothing$/],
      [(site) => writeFileSync(join(site, '.github'), 'x'), /site\/\.github is not a folder; init changed nothing$/],
      [(site) => writeFileSync(join(site, 'content'), 'x'), /site\/content exists and is not a folder; init changed nothing$/],
      [(site) => (mkdirSync(join(site, 'content')), writeFileSync(join(site, 'content', 'x'), '')), /site\/content\/ is not empty/],
      [(site) => writeFileSync(join(site, 'package.json'), '{ nope'), /site\/package\.json is not valid JSON/],
    ];
    for (const [arrange, why] of cases) {
      const { base, site } = folders();
      arrange(site);
      const before = snapshot(base);
      expect(refusal(() => init(site))).toMatch(why);
      expect(snapshot(base)).toEqual(before);
    }
  });
});

describe('a write that fails part-way', () => {
  /** Makes a folder where init is about to write `rel` (something else racing init): the write fails. */
  const blockAt = (site: string, target: string) => (rel: string) => {
    if (rel === target) mkdirSync(join(site, rel), { recursive: true });
  };

  it('is undone: files created removed, folders made removed, files changed given their bytes back', () => {
    for (const [target, existing] of [['content/directory/people.yaml', true], [WORKFLOW_FILE, true], ['.gitignore', false]] as const) {
      const { base, site } = folders();
      if (existing) {
        // an (empty) content/, a package.json and .gitignore init changes
        mkdirSync(join(site, 'content'));
        writeFileSync(join(site, 'package.json'), '{\r\n\t"name": "mine"\r\n}');
        writeFileSync(join(site, '.gitignore'), '*.log');
      }
      const before = snapshot(base);
      const message = refusal(() => init(site, { beforeWrite: blockAt(site, target) }));
      expect(message, target).toMatch(new RegExp(`site/${target.replace(/\./g, '\\.')}: (already exists \\[EEXIST\\]|is a folder, not a file \\[EISDIR\\]); init changed nothing$`));
      // only the folder made in its way is left: it is not init's to remove
      expect(lstatSync(join(site, target)).isDirectory()).toBe(true);
      for (let dir = join(site, target); dir !== site && readdirSync(dir).length === 0; dir = dirname(dir)) {
        if (dir === join(site, 'content')) break;
        rmdirSync(dir);
      }
      expect(snapshot(base), target).toEqual(before);
      // and a second init, with nothing in its way, succeeds
      expect(init(site).created).toContain('content/site.yaml');
    }
  });

  it('leaves a folder it made when something not its own was put in it meanwhile, and says so', () => {
    const { site } = folders();
    const message = refusal(() => init(site, { beforeWrite: blockAt(site, 'content/events/workshop.yaml') }));
    expect(message).toMatch(/site\/content\/events\/workshop\.yaml: already exists \[EEXIST\]; init could not undo its changes to content\/events, content$/);
    expect(readdirSync(join(site, 'content', 'events'))).toEqual(['workshop.yaml']);
    expect(readdirSync(site)).toEqual(['content']);
  });

  it('through the CLI: one line naming the path and the cause, exit 1, a second init succeeds', () => {
    const { base, site } = folders();
    // a workflow folder nobody may write: as root, a read-only file system there instead
    mkdirSync(join(site, '.github', 'workflows'), { recursive: true });
    const workflows = join(site, '.github', 'workflows');
    const asRoot = process.getuid?.() === 0;
    let mounted = false;
    if (asRoot) mounted = spawnSync('mount', ['-t', 'tmpfs', '-o', 'ro,size=16k', 'tmpfs', workflows]).status === 0;
    else chmodSync(workflows, 0o555);
    if (asRoot && !mounted) return; // may not mount: covered by the test above
    try {
      const before = snapshot(base);
      const r = aula(['init', site]);
      expect([r.status, r.stderr.trimEnd().split('\n')]).toEqual([1, [expect.stringMatching(/^aula: .*site\/\.github\/workflows\/aula\.yml: (read-only file system \[EROFS\]|permission denied \[EACCES\]); init changed nothing$/)]]);
      expect(snapshot(base)).toEqual(before);
    } finally {
      if (mounted) spawnSync('umount', [workflows]);
      else chmodSync(workflows, 0o755);
    }
    const again = aula(['init', site]);
    expect(again.status, again.stderr).toBe(0);
    expect(existsSync(join(site, WORKFLOW_FILE))).toBe(true);
  });
});

describe('aula taken from a file: path', () => {
  const withDependency = (spec: string, git = true) => {
    const { site } = folders();
    if (git) mkdirSync(join(site, '.git'));
    writeFileSync(join(site, 'package.json'), `${JSON.stringify({ name: 'mine', devDependencies: { aula: spec } })}\n`);
    // (a lockfile, as npm install writes one: without it init warns of that instead)
    writeFileSync(join(site, 'package-lock.json'), '{}\n');
    return site;
  };

  it('outside the repository: a warning saying what to do, not a failure', () => {
    const site = withDependency('file:../aula-0.1.0.tgz');
    const r = aula(['init', site]);
    expect(r.status).toBe(0);
    expect(r.stderr.trimEnd().split('\n')).toEqual([
      'aula: warning: package.json takes aula from "file:../aula-0.1.0.tgz", outside the site folder: the CI workflow\'s `npm ci` will not find it there. Copy the tarball into the site, run `npm install ./aula-0.1.0.tgz` and commit it with package-lock.json, or publish it where CI can fetch it',
    ]);
    // the repository is the nearest folder with .git: a site in a subfolder of it
    const { base } = folders();
    mkdirSync(join(base, '.git'));
    mkdirSync(join(base, 'web'));
    writeFileSync(join(base, 'web', 'package.json'), '{"dependencies":{"aula":"file:../../aula.tgz"}}');
    writeFileSync(join(base, 'web', 'package-lock.json'), '{}');
    expect(init(join(base, 'web')).warnings).toEqual([expect.stringContaining(`outside the repository (${relative(process.cwd(), base)})`), expect.stringMatching(/^the site is in the git repository /)]);
  });

  it('inside the repository, or from a registry: no warning', () => {
    expect(init(withDependency('file:vendor/aula-0.1.0.tgz')).warnings).toEqual([]);
    expect(init(withDependency('^0.1.0')).warnings).toEqual([]);
    const { base } = folders();
    mkdirSync(join(base, '.git'));
    mkdirSync(join(base, 'web'));
    writeFileSync(join(base, 'web', 'package.json'), '{"dependencies":{"aula":"file:../aula.tgz"}}');
    writeFileSync(join(base, 'web', 'package-lock.json'), '{}');
    // (what it says is of the workflow's place, not of aula's)
    expect(init(join(base, 'web')).warnings).toEqual([expect.stringMatching(/^the site is in the git repository /)]);
  });
});

describe('the starter files name their JSON Schemas', () => {
  const ajv = new Ajv2020({ strict: true, strictRequired: false, allErrors: true });

  /** The schema a starter file names, read where the hint says (relative to the file), and the data an editor checks. */
  function hinted(site: string, rel: string): { schemaPath: string; data: unknown } {
    const text = readFileSync(join(site, 'content', rel), 'utf8');
    const hint = /^(?:---\n)?# yaml-language-server: \$schema=(\S+)\n/.exec(text);
    expect(hint, rel).not.toBeNull();
    const schemaPath = join(site, 'content', dirname(rel), hint![1]);
    if (!rel.endsWith('.md')) return { schemaPath, data: parse(text) };
    const fm = splitFrontMatter(text);
    if (!fm.ok) throw new Error(fm.message);
    return { schemaPath, data: parse(fm.yaml) };
  }

  it('shipped in the package (lib/schemas/): the schemas a build writes', () => {
    for (const [name, schema] of Object.entries(contentSchemas())) {
      expect(readFileSync(join(ROOT, 'lib', 'schemas', name), 'utf8'), name).toBe(`${JSON.stringify(schema, null, 2)}\n`);
    }
  });

  it('point at node_modules/aula/lib/schemas/ of the site, or of the folder above it a workspace installs aula in, and validate', () => {
    const { base, site } = folders();
    // aula installed above the site, as a workspace hoists it; the checkout stands in for the package
    mkdirSync(join(base, 'node_modules'));
    symlinkSync(ROOT, join(base, 'node_modules', 'aula'));
    init(site);
    expect(readFileSync(join(site, 'content', 'site.yaml'), 'utf8')).toMatch(/^# yaml-language-server: \$schema=\.\.\/\.\.\/node_modules\/aula\/lib\/schemas\/site\.schema\.json\n/);
    expect(readFileSync(join(site, 'content', 'events', 'welcome-lecture.md'), 'utf8')).toMatch(/^---\n# yaml-language-server: \$schema=\.\.\/\.\.\/\.\.\/node_modules\/aula\/lib\/schemas\/event-front-matter\.schema\.json\nid: 1\n/);
    for (const [rel, starter] of STARTER_CONTENT) {
      const { schemaPath, data } = hinted(site, rel);
      expect(schemaPath.endsWith(join(SCHEMAS_IN_PACKAGE, starter.schema)), rel).toBe(true);
      const validate = ajv.compile(JSON.parse(readFileSync(schemaPath, 'utf8')));
      expect([rel, validate(data), validate.errors ?? []]).toEqual([rel, true, []]);
      ajv.removeSchema();
    }
    // not installed anywhere yet: where `npm install aula` will put it
    const bare = folders().site;
    init(bare);
    expect(readFileSync(join(bare, 'content', 'categories.yaml'), 'utf8')).toMatch(/^# yaml-language-server: \$schema=\.\.\/node_modules\/aula\/lib\/schemas\/categories\.schema\.json\n- id: 1\n/);
  });

  it('and the starter still builds with no problem and no warning', () => {
    const { site } = folders();
    init(site);
    const r = aula(['build', '--content', join(site, 'content'), '--out', join(site, 'dist'), '--quiet']);
    expect([r.status, r.stderr]).toEqual([0, '']);
    expect(existsSync(join(site, 'dist', 'schemas', 'event.schema.json'))).toBe(true);
  });
});
