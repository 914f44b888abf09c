// `aula dev`'s public files (events.ics, the media, openapi.json, autocomplete/) are those of the
// build the API answers from, also while dist/ still holds the previous one: a real dev server on
// 127.0.0.1 over real files. The test holds the out folder's build lock, as a running build
// would: the dist writer waits for it, so what is answered meanwhile cannot have come from a
// written dist/.
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startDev, type DevServer } from '../src/dev/dev.ts';
import { lockPath } from '../src/pipeline/out-folder/lock.ts';
import { browserModule } from '../src/store/write/browser-modules.ts';
import { FIXTURE_FILES } from './fixture-content.ts';
import { EVENTUALLY, removeDir, request, tempDir, writeContent } from './helpers.ts';

let cleanup: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const step of cleanup.reverse()) await step();
  cleanup = [];
});

const calname = (ics: string) => /^X-WR-CALNAME:(.*)$/m.exec(ics)?.[1]?.trim();

async function bytes(url: string): Promise<{ status: number; body: Buffer; headers: Headers }> {
  const res = await fetch(url, { headers: { 'accept-encoding': 'identity' } });
  return { status: res.status, body: Buffer.from(await res.arrayBuffer()), headers: res.headers };
}

async function started(): Promise<{ dev: DevServer; content: string; out: string; logs: string[] }> {
  const root = tempDir('aula-dev-public-');
  cleanup.push(() => removeDir(root));
  const content = writeContent(join(root, 'content'), { ...FIXTURE_FILES, 'site.yaml': `${FIXTURE_FILES['site.yaml']}title: Alter Kalender\n` });
  const out = join(root, 'dist');
  const logs: string[] = [];
  const dev = await startDev({ content, out, port: 0, host: '127.0.0.1', log: (l) => logs.push(l), debounceMs: 50 });
  cleanup.push(() => dev.close());
  // dist/ holds the first build
  await dev.settled();
  expect(calname(readFileSync(join(out, 'events.ics'), 'utf8'))).toBe('Alter Kalender');
  // from here the dist writer waits for this lock: dist/ stays the first build's until it is let go of
  const lock = lockPath(out);
  writeFileSync(lock, `${process.pid}\n`);
  cleanup.push(() => rmSync(lock, { force: true }));
  return { dev, content, out, logs };
}

const sizeOf12 = async (url: string) => (await request(`${url}/v1/cms/event/42/?fields=media`)).json().media.find((m: { size: number; url: string }) => m.url.endsWith('/cms/media/12/'))?.size as number;

describe('aula dev public files', () => {
  it('answers events.ics, a media file and openapi.json of the build the API serves, before dist/ is written', async () => {
    const { dev, content, out, logs } = await started();
    const picture = 'PNGDATA, now with more bytes';
    writeFileSync(join(content, 'site.yaml'), `${FIXTURE_FILES['site.yaml']}title: Neuer Kalender\n`);
    writeFileSync(join(content, 'media/bild.png'), picture);
    // the event: the API answers the edit (both files of it)
    await expect
      .poll(async () => [calname((await request(`${dev.url}/v1/cms/event/?format=ics`)).text), await sizeOf12(dev.url)], EVENTUALLY)
      .toEqual(['Neuer Kalender', picture.length]);
    // dist/ is still the first build's …
    expect(calname(readFileSync(join(out, 'events.ics'), 'utf8'))).toBe('Alter Kalender');
    expect(logs.filter((l) => l.startsWith('wrote '))).toHaveLength(1);
    // … and every public route answers the build the API does
    const api = (await request(`${dev.url}/v1/cms/event/?format=ics`)).text;
    const ics = await request(`${dev.url}/events.ics`);
    expect(ics.status).toBe(200);
    expect(ics.text).toBe(api);
    const media = await bytes(`${dev.url}/cms/media/12/`);
    expect([media.status, media.headers.get('content-length'), media.body.toString()]).toEqual([200, String(picture.length), picture]);
    const openapi = await request(`${dev.url}/openapi.json`);
    expect(openapi.json()).toEqual((await request(`${dev.url}/v1/schema/`)).json());
    // the directory did not change: its files are dist/'s, and this build's
    const index = await request(`${dev.url}/autocomplete/index.json`);
    expect(index.text).toBe(readFileSync(join(out, 'autocomplete/index.json'), 'utf8'));
    expect((await request(`${dev.url}/autocomplete/minisearch.json`)).status).toBe(200);

    // once written, dist/ holds the same bytes, and they are answered from there
    rmSync(lockPath(out));
    await dev.settled();
    expect(readFileSync(join(out, 'events.ics'), 'utf8')).toBe(api);
    expect(readFileSync(join(out, 'openapi.json'), 'utf8')).toBe(openapi.text);
    expect((await request(`${dev.url}/events.ics`)).text).toBe(api);
    expect((await bytes(`${dev.url}/cms/media/12/`)).body.toString()).toBe(picture);
  });

  it('answers what it cannot make in memory 503 until it is written, never the last build\'s', async () => {
    const { dev, content, out } = await started();
    const people = join(content, 'directory/people.yaml');
    writeFileSync(people, readFileSync(people, 'utf8').replace('Anna', 'Annemarie'));
    await expect.poll(async () => (await request(`${dev.url}/v1/api/autocomplete/?q=annemarie`)).text, EVENTUALLY).toContain('Annemarie');
    // the browser's index is made with the build; MiniSearch's index is the writer's
    expect((await request(`${dev.url}/autocomplete/index.json`)).text).toContain('Annemarie');
    expect(readFileSync(join(out, 'autocomplete/minisearch.json'), 'utf8').toLowerCase()).not.toContain('annemarie');
    const waiting = await request(`${dev.url}/autocomplete/minisearch.json`);
    expect([waiting.status, waiting.headers.get('retry-after'), waiting.headers.get('cache-control')]).toEqual([503, '1', 'no-store']);
    expect(waiting.json().detail).toMatch(/retry/);
    // MiniSearch's options module is the same in every build (bundled, not made of the directory)
    const options = await request(`${dev.url}/autocomplete/minisearch-options.js`);
    expect([options.status, options.text]).toEqual([200, await browserModule('minisearchOptions')]);

    rmSync(lockPath(out));
    await dev.settled();
    expect(existsSync(lockPath(out))).toBe(false);
    const written = await request(`${dev.url}/autocomplete/minisearch.json`);
    expect([written.status, written.text.toLowerCase().includes('annemarie')]).toEqual([200, true]);
  });
});
