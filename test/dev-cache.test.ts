// `aula dev` with the build cache: the first build parses every file (the cache holds no parses); a
// rebuild after one edit parses that one file (the rest is kept in memory), renders its one row,
// and serves it.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startDev } from '../src/dev/dev.ts';
import { FIXTURE_FILES } from './fixture-content.ts';
import { removeDir, request, tempDir, writeContent } from './helpers.ts';

let cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const step of cleanup.reverse()) await step();
  cleanup = [];
});

describe('aula dev with a build cache', () => {
  it('parses every file at start, only the edited file on a rebuild, renders its row, and serves the edit', async () => {
    const root = tempDir('aula-dev-cache-');
    cleanup.push(async () => removeDir(root));
    const content = writeContent(join(root, 'content'), FIXTURE_FILES);
    const logs: string[] = [];
    const dev = await startDev({ content, out: join(root, 'dist'), port: 0, host: '127.0.0.1', cache: join(root, 'cache'), log: (l) => logs.push(l), debounceMs: 50 });
    cleanup.push(() => dev.close());
    const files = Object.keys(FIXTURE_FILES).filter((f) => !f.startsWith('media/')).length;
    expect(logs.find((l) => l.startsWith('built'))).toContain(`(${files} files parsed; `);

    const rel = join(content, 'events/2025/vortrag.md');
    writeFileSync(rel, readFileSync(rel, 'utf8').replace('Vortrag über Herzgesundheit', 'Vortrag über Nierengesundheit'));
    // a safety net, not a bound: a busy machine may take many times as long
    const deadline = Date.now() + 100_000;
    let title = '';
    while (Date.now() < deadline && title !== 'Vortrag über Nierengesundheit') {
      await new Promise((r) => setTimeout(r, 50));
      title = (await request(`${dev.url}/v1/cms/event/42/?fields=title`)).json().title;
    }
    expect(title).toBe('Vortrag über Nierengesundheit');
    expect(logs.filter((l) => l.startsWith('built'))[1]).toContain(`(1 file parsed, ${files - 1} kept in memory; 1 row rendered)`);
  });
});
