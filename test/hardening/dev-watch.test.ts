// `aula dev` as a real process on a free 127.0.0.1 port: it notices what editors and file
// managers do by renaming (atomic saves, moving a file out of the folder or into it), and broken
// content at start makes it wait for the fix instead of exiting.
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startAula } from '../aula-cli.ts';
import { FIXTURE_FILES } from '../fixture-content.ts';
import { EVENTUALLY, freePort, removeDir, request, tempDir, writeContent } from '../helpers.ts';

const EVENT = 'events/2025/vortrag.md';

let cleanup: (() => Promise<unknown> | void)[] = [];
afterEach(async () => {
  for (const step of cleanup.reverse()) await step();
  cleanup = [];
});

/** `aula dev` on a port known before it listens (broken content at start: it listens only once fixed). */
async function startDevProcess(files: Record<string, string>, root = tempDir('aula-devproc-')) {
  cleanup.push(() => removeDir(root));
  const content = writeContent(join(root, 'content'), files);
  const port = await freePort();
  const dev = startAula(['dev', '--content', content, '--out', join(root, 'dev-dist'), '--port', String(port), '--host', '127.0.0.1']);
  cleanup.push(() => dev.stop());
  return { root, content, url: `http://127.0.0.1:${port}`, dev, output: () => `${dev.out}${dev.err}` };
}

const status = (url: string) => request(url).then((a) => a.status, () => 0);

describe('aula dev, a real process', () => {
  it('notices an atomic save, a later move out of the folder, and a move into it', async () => {
    const dev = await startDevProcess(FIXTURE_FILES);
    await dev.dev.waitFor(/serving on/);
    // its watcher is in place: an edit from now on is seen
    await dev.dev.waitFor(/watching .* for changes/);
    const event42 = `${dev.url}/v1/cms/event/42/?fields=title`;
    expect(await status(event42)).toBe(200);

    // atomic save: a temporary file renamed over the original
    const path = join(dev.content, EVENT);
    writeFileSync(`${path}.tmp-save`, readFileSync(path, 'utf8').replace(/^title: .*$/m, 'title: Atomar gespeichert'));
    renameSync(`${path}.tmp-save`, path);
    await expect.poll(async () => (await request(event42)).text, EVENTUALLY).toContain('Atomar gespeichert');

    // the same file moved out of the content folder: the event is gone
    renameSync(path, join(dev.root, 'moved-away.md'));
    await expect.poll(() => status(event42), EVENTUALLY).toBe(404);

    // and moved back in (a rename into the folder, as a download or a file manager does)
    renameSync(join(dev.root, 'moved-away.md'), join(dev.content, 'events', 'back.md'));
    await expect.poll(() => status(event42), EVENTUALLY).toBe(200);
    expect(dev.dev.child.exitCode).toBe(null);
  });

  it('with broken content at start, prints the problems and waits; serves once the content is fixed', async () => {
    const broken = FIXTURE_FILES[EVENT].replace('allday: false', 'allday: vielleicht');
    const dev = await startDevProcess({ ...FIXTURE_FILES, [EVENT]: broken });
    await dev.dev.waitFor(/waiting for a fix/);
    await dev.dev.waitFor(/watching .* for changes/);
    expect(dev.output()).toMatch(new RegExp(`^aula: ${EVENT}:6:\\d+ allday: `, 'm'));
    expect(await status(`${dev.url}/v1/cms/event/`)).toBe(0); // nothing listens yet

    // the same process, still running, serves the fix
    writeFileSync(join(dev.content, EVENT), FIXTURE_FILES[EVENT]);
    await dev.dev.waitFor(/serving on http:\/\/127\.0\.0\.1:\d+\/v1\/cms\/event\//);
    expect(await status(`${dev.url}/v1/cms/event/42/`)).toBe(200);
  });

  it('with broken content at start and an --out an earlier run left, says it serves that until the content builds', async () => {
    const root = tempDir('aula-devproc-');
    const first = await startDevProcess(FIXTURE_FILES, root);
    await first.dev.waitFor(/wrote /);
    await cleanup.pop()!(); // stops the first run (its folder is removed with the second's)
    const broken = FIXTURE_FILES[EVENT].replace('allday: false', 'allday: vielleicht');
    const dev = await startDevProcess({ ...FIXTURE_FILES, [EVENT]: broken }, root);
    await dev.dev.waitFor(/^aula: serving .*dev-dist\/ as an earlier run left it until .*content\/ builds$/m);
    await expect.poll(() => status(`${dev.url}/v1/cms/event/42/`), EVENTUALLY).toBe(200);
    // its links name this run's port, not the earlier run's (each run takes a free port)
    const page = (await request(`${dev.url}/v1/cms/event/?limit=1`)).json() as { next: string };
    expect(page.next).toBe(`${dev.url}/v1/cms/event/?limit=1&offset=1`);
    // and so do its documents, which the earlier run wrote with its own
    const schema = (await request(`${dev.url}/openapi.json`)).json() as { servers: { url: string }[] };
    expect(schema.servers).toEqual([{ url: dev.url }]);
  });

  it('--port 0: the links name the port it listens on (they named site.yaml\'s base URL)', async () => {
    const root = tempDir('aula-devproc-');
    cleanup.push(() => removeDir(root));
    const content = writeContent(join(root, 'content'), FIXTURE_FILES);
    const dev = startAula(['dev', '--content', content, '--out', join(root, 'dev-dist'), '--port', '0']);
    cleanup.push(() => dev.stop());
    const origin = await dev.origin;
    expect(origin).not.toBe('http://127.0.0.1:8000');
    const page = (await request(`${origin}/v1/cms/event/?limit=1`)).json() as { next: string };
    expect(page.next).toBe(`${origin}/v1/cms/event/?limit=1&offset=1`);
  });
});
