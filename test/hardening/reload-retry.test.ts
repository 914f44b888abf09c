// Reload races (issue 10.7): a dist whose manifest arrives before its data files (a copy, an
// rsync, a deploy that does not rename a whole tree) is picked up once the files are complete,
// without SIGHUP; meanwhile the old data keeps answering and readiness is false.
import { cpSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FIXTURE_FILES } from '../fixture-content.ts';
import { buildOk, EVENTUALLY, removeDir, request, serve, tempDir, writeContent } from '../helpers.ts';

const roots: string[] = [];
afterAll(() => roots.forEach(removeDir));
const sleep = (ms: number) => new Promise((ok) => setTimeout(ok, ms));

describe('a reload that finds the dist incomplete', () => {
  it('keeps the old data, is not ready, and picks up the new data once its files arrive 1.2 s after the manifest', async () => {
    const root = tempDir('aula-reload-');
    roots.push(root);
    const content = writeContent(join(root, 'content'), FIXTURE_FILES);
    const dist = join(root, 'dist');
    await buildOk({ content, out: dist, precompress: false });
    writeContent(content, { 'events/2025/vortrag.md': FIXTURE_FILES['events/2025/vortrag.md'].replace('title: Vortrag über Herzgesundheit', 'title: Später') });
    const next = join(root, 'next');
    await buildOk({ content, out: next, precompress: false });

    const logged: string[] = [];
    const running = await serve(dist, { log: (line) => logged.push(line) });
    const title = async () => (await request(`${running.url}/v1/cms/event/42/?fields=title`)).json().title;
    try {
      expect(await title()).toBe('Vortrag über Herzgesundheit');
      expect(running.ready).toBe(true);
      // the manifest first, as a plain copy would write it …
      writeFileSync(join(dist, 'manifest.json'), readFileSync(join(next, 'manifest.json')));
      const written = Date.now();
      // (the manifest watcher's next poll)
      await expect.poll(() => running.ready, EVENTUALLY).toBe(false);
      expect(await title()).toBe('Vortrag über Herzgesundheit');
      // … the data files 1.2 s later, a slow copy: the retries meanwhile find the dist incomplete
      await sleep(written + 1_200 - Date.now());
      for (const dir of ['data', 'autocomplete']) {
        for (const name of readdirSync(join(next, dir))) cpSync(join(next, dir, name), join(dist, dir, name), { recursive: true });
      }
      await expect.poll(title, EVENTUALLY).toBe('Später');
      expect(running.ready).toBe(true);
      expect(logged.filter((l) => l.startsWith('kept serving the previous data')).length).toBeGreaterThanOrEqual(1);
      expect(logged.at(-1)).toBe(`reloaded ${dist}/`);
    } finally {
      await running.close();
    }
  });
});
