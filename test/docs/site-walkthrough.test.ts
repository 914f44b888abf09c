// The commands the README and docs/ tell a user to run (`<!-- test: site -->` blocks), run as a
// user runs them: in a folder made by `npm init -y` (so its package.json says "type":
// "commonjs"), with the packed tarball, one line at a time through sh, page by page — the
// README's first, which installs aula and builds the starter content, then docs/ in order.
//
// What a line names that a test machine does not have is replaced, and nothing else:
// - the tarball's path outside the site (`../aula/aula-0.1.0.tgz`) → the tarball just packed
//   (its version must be the package's); `./aula-0.1.0.tgz` is the copy in the site;
// - ports 8000, 8001, 8002, 8787 → free ones (`npx aula serve` and `npx aula dev` without
//   `--port` get a free port of their own, and a later `127.0.0.1:8000` names the last of them);
// - https://cdn.example.org/site/dist/ → a plain file server over the site folder;
// - /srv/site/dist → the site's dist/;
// - `npx workerd` → the workerd of this repository (a site installs it itself).
// A line ending in `&`, and `aula serve`, `aula dev` and `workerd serve`, keep running in the
// background until the page is done; the next line runs once they answer HTTP.
// After the README's commands, the site is committed to git and cloned, and the CI workflow
// `aula init` wrote runs in the clone as GitHub Actions would run it: its `run:` steps in order,
// with the workflow's shell, skipping only the `uses:` steps, whose needs are checked instead
// (github-workflow.ts). So does the workflow of a site below the top of its repository.
// Then the JavaScript examples of docs/api.md run in the same folder, and the command
// docs/operating.md gives a process manager is stopped by a SIGTERM to its own process.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { basename, join, normalize } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WORKFLOW_FILE } from '../../src/cli/init/starter-content.ts';
import { freePort, removeDir, tempDir } from '../helpers.ts';
import { at, blocksFor, docPages, ROOT, type DocBlock } from './doc-blocks.ts';
import { runWorkflow } from './github-workflow.ts';

const NPM = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const VERSION = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version as string;
const WORKERD = join(ROOT, 'node_modules', '.bin', 'workerd');
const workerdRuns = spawnSync(WORKERD, ['--version'], { encoding: 'utf8', timeout: 180_000 }).status === 0;

let work: string;
let site: string;
let tarball: string;
let files: Server;
let filesOrigin: string;
const ports = new Map<number, number>();
/** free ports for the commands that listen on the default port */
const spare: number[] = [];

/** git without the machine's configuration: an identity for commits, no signing, no hooks */
const GIT = ['-c', 'user.name=Site Editor', '-c', 'user.email=editor@example.org', '-c', 'commit.gpgsign=false', '-c', 'core.hooksPath=/dev/null', '-c', 'init.defaultBranch=main'];

/** Commits everything in `dir` that .gitignore does not leave out (a repository there, made when missing), and clones it to `to`. */
function commitAndClone(dir: string, to: string): void {
  run('git', [...GIT, 'init', '-q'], dir);
  run('git', [...GIT, 'add', '-A'], dir);
  run('git', [...GIT, 'commit', '-q', '-m', 'the site'], dir);
  run('git', [...GIT, 'clone', '-q', dir, to], work);
}

function run(command: string, args: string[], cwd: string) {
  const r = spawnSync(command, args, { cwd, encoding: 'utf8', timeout: 180_000 });
  if (r.status !== 0) throw new Error(`${command} ${args.join(' ')} exited ${r.status}:\n${r.stdout}\n${r.stderr}`);
  return r;
}

beforeAll(async () => {
  work = tempDir('aula-walkthrough-');
  site = join(work, 'site');
  mkdirSync(site);
  // lib/ as the test setup compiled it: packing with its scripts would compile again, in the
  // checkout other tests read (test/package.test.ts packs as a release is packed)
  run(NPM, ['pack', '--ignore-scripts', '--pack-destination', work], ROOT);
  tarball = join(work, readdirSync(work).find((f) => f.endsWith('.tgz'))!);
  run(NPM, ['init', '-y'], site);
  const taken = new Set<number>();
  const distinct = async () => {
    let port: number;
    do port = await freePort();
    while (taken.has(port));
    taken.add(port);
    return port;
  };
  for (const p of [8000, 8001, 8002, 8787]) ports.set(p, await distinct());
  for (let i = 0; i < 8; i++) spare.push(await distinct());
  // a static origin for a remote dist: the site folder, as a CDN would publish it
  files = createServer((req, res) => {
    const rel = normalize(decodeURIComponent((req.url ?? '/').split('?')[0])).replace(/^(\.\.[/\\])+/, '');
    const path = join(site, rel);
    if (!path.startsWith(site) || !existsSync(path) || !statSync(path).isFile()) return void res.writeHead(404).end();
    res.writeHead(200).end(readFileSync(path));
  });
  await new Promise<void>((ok) => files.listen(0, '127.0.0.1', ok));
  filesOrigin = `http://127.0.0.1:${(files.address() as { port: number }).port}`;
});

afterAll(async () => {
  await new Promise((ok) => files?.close(ok));
  if (work) removeDir(work);
});

interface Running {
  line: string;
  child: ChildProcess;
  output: () => string;
}

/** The line with the test machine's names for what it names (see the top of the file). */
function substitute(line: string, defaultPort: () => number, lastDefault: number | undefined): string {
  let out = line
    .replace(/(?<=^|\s)(?!\.\/)\S*\/aula-\d+\.\d+\.\d+\.tgz/, (name) => {
      expect(name, 'the tarball the docs name is this version').toContain(`aula-${VERSION}.tgz`);
      return tarball;
    })
    .replaceAll('https://cdn.example.org/site/dist/', `${filesOrigin}/dist/`)
    .replaceAll('/srv/site/dist', join(site, 'dist'))
    .replace(/^npx workerd /, `${WORKERD} `);
  for (const [doc, free] of ports) {
    const mapped = doc === 8000 && lastDefault !== undefined ? lastDefault : free;
    out = out.replaceAll(`127.0.0.1:${doc}`, `127.0.0.1:${mapped}`).replaceAll(`--port ${doc}`, `--port ${mapped}`);
  }
  if (/^npx aula (serve|dev)\b/.test(out) && !/--port\b/.test(out)) out = out.replace(/^(npx aula (?:serve|dev))/, `$1 --port ${defaultPort()}`);
  if (out.startsWith(`${WORKERD} serve`)) out += ` --socket-addr http=127.0.0.1:${ports.get(8787)}`;
  return out;
}

/** The port a background command listens on. */
function portOf(command: string): number {
  const m = /--port (\d+)/.exec(command) ?? /--socket-addr \S+=127\.0\.0\.1:(\d+)/.exec(command);
  if (!m) throw new Error(`no port in ${command}`);
  return Number(m[1]);
}

async function answers(port: number, running: Running): Promise<void> {
  // a safety net: a busy machine may take long to start it
  const deadline = Date.now() + 300_000;
  while (Date.now() < deadline) {
    if (running.child.exitCode !== null) throw new Error(`${running.line} exited ${running.child.exitCode}:\n${running.output()}`);
    try {
      await fetch(`http://127.0.0.1:${port}/readyz`);
      return;
    } catch {
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  throw new Error(`${running.line} did not answer within 300 s:\n${running.output()}`);
}

function stop(running: Running): Promise<void> {
  const { child } = running;
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((ok) => {
    const force = setTimeout(() => process.kill(-child.pid!, 'SIGKILL'), 10_000);
    child.once('exit', () => {
      clearTimeout(force);
      ok();
    });
    process.kill(-child.pid!, 'SIGTERM');
  });
}

/** Runs the page's blocks line by line; returns what each foreground line printed. */
async function walk(blocks: readonly DocBlock[]): Promise<{ line: string; stdout: string; stderr: string }[]> {
  const background: Running[] = [];
  const printed: { line: string; stdout: string; stderr: string }[] = [];
  let lastDefault: number | undefined;
  try {
    for (const block of blocks) {
      for (const raw of block.text.split('\n')) {
        const line = raw.trim();
        if (line === '' || line.startsWith('#')) continue;
        let fresh: number | undefined;
        const command = substitute(line.replace(/\s*&$/, ''), () => (fresh = spare.shift()!), lastDefault);
        if (command.startsWith(`${WORKERD} `) && !workerdRuns) {
          if (process.env.CI) throw new Error('workerd cannot run here; CI must run it');
          console.warn(`${at(block)}: skipped (workerd cannot run on this machine): ${line}`);
          continue;
        }
        if (line.endsWith('&') || /^(npx aula (serve|dev)|\S*workerd serve)\b/.test(command)) {
          const child = spawn('sh', ['-c', command], { cwd: site, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
          let output = '';
          child.stdout!.on('data', (d) => (output += d));
          child.stderr!.on('data', (d) => (output += d));
          const running = { line: `${at(block)}: ${line}`, child, output: () => output };
          background.push(running);
          await answers(portOf(command), running);
          if (fresh !== undefined) lastDefault = fresh;
        } else {
          const r = spawnSync('sh', ['-c', command], { cwd: site, encoding: 'utf8', timeout: 180_000 });
          expect(r.status, `${at(block)}: ${line}\n${r.stdout}\n${r.stderr}`).toBe(0);
          printed.push({ line, stdout: r.stdout, stderr: r.stderr });
        }
      }
    }
  } finally {
    for (const running of background) await stop(running);
  }
  return printed;
}

const pages = docPages().filter((page) => blocksFor('site', [page]).length > 0);

describe('the commands of the README and docs/, in a site made by npm init -y', () => {
  it('start with the README', () => {
    expect(pages[0]).toBe('README.md');
    expect(pages).toEqual(expect.arrayContaining(['docs/deploying.md', 'docs/edge.md', 'docs/operating.md']));
  });

  it("README.md: install, init, check, build, serve", async () => {
    const printed = await walk(blocksFor('site', ['README.md']));
    // the tarball in the site, so the repository has it: nothing for init to warn of
    expect(JSON.parse(readFileSync(join(site, 'package.json'), 'utf8')).dependencies.aula).toBe(`file:aula-${VERSION}.tgz`);
    const init = printed.find((p) => p.line === 'npx aula init')!;
    expect([init.stderr, init.stdout.trimEnd().split('\n').at(-1)]).toEqual(['', 'next: npx aula check && npx aula build && npx aula serve']);
    expect(printed.find((p) => p.line === 'npx aula check')!.stdout).toMatch(/^content\/ is valid: \d+ events/);
    expect(existsSync(join(site, 'dist', 'manifest.json'))).toBe(true);
  });

  it('the CI workflow aula init wrote runs in a fresh clone of the site: npm ci, check, build', () => {
    // the clone has what is committed: the tarball and package-lock.json, not node_modules/ or dist/
    const clone = join(work, 'clone');
    commitAndClone(site, clone);
    expect(existsSync(join(clone, 'node_modules'))).toBe(false);
    const steps = runWorkflow(clone, WORKFLOW_FILE);
    expect(steps.map((s) => s.step.replace(/^build step \d+ \((.*)\)$/, '$1'))).toEqual([
      'actions/checkout@v5',
      'actions/setup-node@v5',
      'npm ci',
      'npx --no aula check',
      'npx --no aula build',
      'actions/upload-artifact@v6',
    ]);
    expect(steps[3].output).toMatch(/^content\/ is valid: 2 events/);
    expect(readFileSync(join(clone, 'dist', 'manifest.json'), 'utf8')).toBe(readFileSync(join(site, 'dist', 'manifest.json'), 'utf8'));
    // without the lockfile init warns of, setup-node's npm cache fails before npm ci would
    rmSync(join(clone, 'package-lock.json'));
    expect(() => runWorkflow(clone, WORKFLOW_FILE)).toThrow(/^build step 2 \(actions\/setup-node@v5\): cache: npm needs a lockfile/);
  });

  it('a site below the top of its repository: init says where the workflow goes, and moved there it runs', () => {
    const repo = join(work, 'repository');
    const web = join(repo, 'sites', 'events');
    mkdirSync(web, { recursive: true });
    run('git', [...GIT, 'init', '-q'], repo);
    run(NPM, ['init', '-y'], web);
    copyFileSync(tarball, join(web, basename(tarball)));
    run(NPM, ['install', `./${basename(tarball)}`], web);
    const r = spawnSync('npx', ['aula', 'init'], { cwd: web, encoding: 'utf8', timeout: 180_000 });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toBe(`aula: warning: the site is in the git repository ../.., below its top: GitHub runs only the workflows in ../../${WORKFLOW_FILE}; move ${WORKFLOW_FILE} there (its steps run in sites/events/)\n`);
    mkdirSync(join(repo, '.github', 'workflows'), { recursive: true });
    renameSync(join(web, WORKFLOW_FILE), join(repo, WORKFLOW_FILE));
    const clone = join(work, 'repository-clone');
    commitAndClone(repo, clone);
    const steps = runWorkflow(clone, WORKFLOW_FILE);
    expect(steps.at(-1)!.output).toBe('skipped: sites/events/dist/ would be uploaded as dist');
    expect(existsSync(join(clone, 'sites', 'events', 'dist', 'manifest.json'))).toBe(true);
  });

  it.each(pages.slice(1))('%s', async (page) => {
    await walk(blocksFor('site', [page]));
  });

  it("docs/api.md's JavaScript example runs as build.mjs where a .js file is CommonJS", () => {
    // (npm 11 writes it; without it a .js file is CommonJS too)
    expect(JSON.parse(readFileSync(join(site, 'package.json'), 'utf8')).type ?? 'commonjs').toBe('commonjs');
    const [example] = blocksFor('js-api');
    writeFileSync(join(site, 'build.mjs'), example.text);
    const lines = run(process.execPath, ['build.mjs'], site).stdout.trim().split('\n');
    expect(lines[0]).toMatch(/^built \d+ events$/);
    expect(lines[1]).toMatch(/^200 \d+$/);
    expect(lines[2]).toMatch(/^http:\/\/127\.0\.0\.1:\d+ answers \d+ events$/);
    // as the docs say: the same file as .js is a syntax error there
    writeFileSync(join(site, 'build.js'), example.text);
    const asJs = spawnSync(process.execPath, ['build.js'], { cwd: site, encoding: 'utf8', timeout: 180_000 });
    expect(asJs.status).not.toBe(0);
    expect(asJs.stderr).toContain('SyntaxError');
  });

  it("docs/operating.md's command for a process manager stops on a SIGTERM sent to it alone; through npx it would not", async () => {
    const start = (command: string, args: string[], detached = false) => {
      const child = spawn(command, args, { cwd: site, stdio: ['ignore', 'pipe', 'pipe'], detached });
      let output = '';
      child.stdout!.on('data', (d) => (output += d));
      child.stderr!.on('data', (d) => (output += d));
      return { line: `${command} ${args.join(' ')}`, child, output: () => output };
    };
    const exit = (child: ChildProcess) => new Promise<[number | null, string | null]>((ok) => child.once('exit', (code, signal) => ok([code, signal])));
    const [block] = blocksFor('process-manager');
    const port = await freePort();
    const [command, ...args] = block.text.trim().replace('--port 8000', `--port ${port}`).split(/\s+/);
    const direct = start(command, args);
    await answers(port, direct);
    const exited = exit(direct.child);
    direct.child.kill('SIGTERM');
    expect(await exited).toEqual([0, null]);
    // what the page warns of: npm exits, and aula, started by npm's sh, answers on
    const other = await freePort();
    const viaNpx = start('npx', ['aula', ...args.slice(0, -2), '--port', String(other)], true);
    try {
      await answers(other, viaNpx);
      const npmExited = exit(viaNpx.child);
      viaNpx.child.kill('SIGTERM');
      await npmExited;
      expect((await fetch(`http://127.0.0.1:${other}/readyz`)).status).toBe(200);
    } finally {
      // its process group: npm's sh and aula with it
      process.kill(-viaNpx.child.pid!, 'SIGKILL');
    }
  });

  it("docs/api.md's CommonJS example runs as check.cjs", () => {
    const [example] = blocksFor('cjs-api');
    const name = /^\/\/ (\S+\.cjs)$/m.exec(example.text)![1];
    writeFileSync(join(site, name), example.text);
    expect(run(process.execPath, [name], site).stdout).toBe('content is valid\n');
  });
});
