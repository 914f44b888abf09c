// `aula dev` as a real process on a free 127.0.0.1 port: it notices what editors and file
// managers do by renaming (atomic saves, moving a file out of the folder or into it), and broken
// content at start makes it wait for the fix instead of exiting.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FIXTURE_FILES } from '../fixture-content.ts';
import { freePort, listeningOrigin, removeDir, request, tempDir, writeContent } from '../helpers.ts';

const BIN = join(import.meta.dirname, '..', '..', 'bin', 'aula.js');
const EVENT = 'events/2025/vortrag.md';

let cleanup: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const step of cleanup.reverse()) await step();
  cleanup = [];
});


async function startDevProcess(files: Record<string, string>, root = tempDir('aula-devproc-')) {
  cleanup.push(() => removeDir(root));
  const content = writeContent(join(root, 'content'), files);
  const port = await freePort();
  const child: ChildProcess = spawn(
    process.execPath,
    [BIN, 'dev', '--content', content, '--out', join(root, 'dev-dist'), '--port', String(port), '--host', '127.0.0.1'],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  let exited: number | null | undefined;
  child.on('exit', (code) => (exited = code));
  cleanup.push(
    () =>
      new Promise<void>((ok) => {
        if (exited !== undefined) return ok();
        child.once('exit', () => ok());
        child.kill('SIGTERM');
      }),
  );
  return { root, content, url: `http://127.0.0.1:${port}`, output: () => output, exited: () => exited };
}

async function eventually(what: string, check: () => Promise<boolean> | boolean, ms = 15_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const status = (url: string) => request(url).then((a) => a.status, () => 0);

describe('aula dev, a real process', () => {
  it('notices an atomic save, a later move out of the folder, and a move into it', async () => {
    const dev = await startDevProcess(FIXTURE_FILES);
    await eventually('serving', () => dev.output().includes('serving on'));
    const event42 = `${dev.url}/v1/cms/event/42/?fields=title`;
    expect(await status(event42)).toBe(200);

    // atomic save: a temporary file renamed over the original
    const path = join(dev.content, EVENT);
    writeFileSync(`${path}.tmp-save`, readFileSync(path, 'utf8').replace(/^title: .*$/m, 'title: Atomar gespeichert'));
    renameSync(`${path}.tmp-save`, path);
    await eventually('the saved title', async () => (await request(event42)).text.includes('Atomar gespeichert'));

    // the same file moved out of the content folder: the event is gone
    renameSync(path, join(dev.root, 'moved-away.md'));
    await eventually('event 42 gone', async () => (await status(event42)) === 404);

    // and moved back in (a rename into the folder, as a download or a file manager does)
    renameSync(join(dev.root, 'moved-away.md'), join(dev.content, 'events', 'back.md'));
    await eventually('event 42 back', async () => (await status(event42)) === 200);
    expect(dev.exited()).toBeUndefined();
  }, 60_000);

  it('with broken content at start, prints the problems and waits; serves once the content is fixed', async () => {
    const broken = FIXTURE_FILES[EVENT].replace('allday: false', 'allday: vielleicht');
    const dev = await startDevProcess({ ...FIXTURE_FILES, [EVENT]: broken });
    await eventually('the problem printed', () => dev.output().includes('waiting for a fix'));
    expect(dev.output()).toMatch(new RegExp(`^aula: ${EVENT}:6:\\d+ allday: `, 'm'));
    await new Promise((r) => setTimeout(r, 500));
    expect(dev.exited()).toBeUndefined();
    expect(await status(`${dev.url}/v1/cms/event/`)).toBe(0); // nothing listens yet

    writeFileSync(join(dev.content, EVENT), FIXTURE_FILES[EVENT]);
    await eventually('serving after the fix', async () => (await status(`${dev.url}/v1/cms/event/42/`)) === 200);
    expect(dev.output()).toMatch(/serving on http:\/\/127\.0\.0\.1:\d+\/v1\/cms\/event\//);
  }, 60_000);

  it('with broken content at start and an --out an earlier run left, says it serves that until the content builds', async () => {
    const root = tempDir('aula-devproc-');
    const first = await startDevProcess(FIXTURE_FILES, root);
    await eventually('written', () => first.output().includes('wrote '));
    await cleanup.pop()!(); // stops the first run (its folder is removed with the second's)
    const broken = FIXTURE_FILES[EVENT].replace('allday: false', 'allday: vielleicht');
    const dev = await startDevProcess({ ...FIXTURE_FILES, [EVENT]: broken }, root);
    await eventually('serving the earlier build', async () => (await status(`${dev.url}/v1/cms/event/42/`)) === 200);
    expect(dev.output()).toMatch(/^aula: serving .*dev-dist\/ as an earlier run left it until .*content\/ builds$/m);
  }, 60_000);

  it('--port 0: the links name the port it listens on (they named site.yaml\'s base URL)', async () => {
    const root = tempDir('aula-devproc-');
    cleanup.push(() => removeDir(root));
    const content = writeContent(join(root, 'content'), FIXTURE_FILES);
    const child = spawn(process.execPath, [BIN, 'dev', '--content', content, '--out', join(root, 'dev-dist'), '--port', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
    cleanup.push(() => new Promise<void>((ok) => (child.exitCode !== null ? ok() : (child.once('exit', () => ok()), child.kill('SIGTERM')))));
    const origin = await listeningOrigin(child, 'aula dev');
    expect(origin).not.toBe('http://127.0.0.1:8000');
    const page = (await request(`${origin}/v1/cms/event/?limit=1`)).json() as { next: string };
    expect(page.next).toBe(`${origin}/v1/cms/event/?limit=1&offset=1`);
  }, 60_000);
});
