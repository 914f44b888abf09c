// `aula dev` end to end: real files edited in a temp content folder, a real server answering
// throughout, no request failing while builds come and go.
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { localUrl, startDev, type DevServer } from '../src/dev/dev.ts';
import { FIXTURE_FILES } from './fixture-content.ts';
import { removeDir, request, tempDir, writeContent } from './helpers.ts';

const EVENT = 'events/2025/vortrag.md';
const ORIGINAL_TITLE = 'Vortrag über Herzgesundheit';

let cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const step of cleanup.reverse()) await step();
  cleanup = [];
});

async function devOn(files: Record<string, string>) {
  const root = tempDir('aula-dev-');
  cleanup.push(async () => removeDir(root));
  const content = writeContent(join(root, 'content'), files);
  const logs: string[] = [];
  const dev: DevServer = await startDev({ content, out: join(root, 'dist'), port: 0, host: '127.0.0.1', log: (l) => logs.push(l), debounceMs: 100 });
  cleanup.push(() => dev.close());
  const edit = (rel: string, change: (text: string) => string) => writeFileSync(join(content, rel), change(readFileSync(join(content, rel), 'utf8')));
  return { root, content, logs, dev, edit };
}

/** Probes until `ok`; the limit is a safety net (a busy machine may take many times as long), not a bound. */
async function eventually<T>(what: string, probe: () => Promise<T>, ok: (value: T) => boolean, ms = 100_000): Promise<T> {
  const deadline = Date.now() + ms;
  let last: T = await probe();
  while (!ok(last)) {
    if (Date.now() > deadline) throw new Error(`${what}: still ${JSON.stringify(last)} after ${ms} ms`);
    await new Promise((r) => setTimeout(r, 50));
    last = await probe();
  }
  return last;
}

describe('aula dev', () => {
  it('rebuilds on edits, keeps the last good build on broken content, and never fails a request', async () => {
    const { content, logs, dev, edit } = await devOn(FIXTURE_FILES);
    const title = async () => (await request(`${dev.url}/v1/cms/event/42/?fields=title`)).json().title as string;
    expect(await title()).toBe(ORIGINAL_TITLE);

    // requests all the while, bounded in time whatever happens to the assertions below
    let failures: string[] = [];
    let requests = 0;
    let loading = true;
    const stopAt = Date.now() + 300_000;
    const load = (async () => {
      while (loading && Date.now() < stopAt) {
        const answers = await Promise.all(
          ['/v1/cms/event/', '/v1/cms/event/42/', '/v1/cms/event/?title__icontains=e'].map((p) =>
            request(`${dev.url}${p}`).then((a) => (a.status === 200 ? null : `${p}: ${a.status}`), (e: Error) => `${p}: ${e.message}`),
          ),
        );
        requests += answers.length;
        failures = failures.concat(answers.filter((a): a is string => a !== null));
      }
    })();

    try {
      // an editor's save: the scratch files of an atomic save beside the file it saves (JetBrains',
      // gedit's, a `write then rename` tool's), none of which is content
      const scratch = ['events/2025/vortrag.md___jb_tmp___', 'events/2025/.goutputstream-X1Y2Z3', 'events/2025/vortrag.md.new'];
      for (const file of scratch) writeFileSync(join(content, file), 'x');
      edit(EVENT, (t) => t.replace(`title: ${ORIGINAL_TITLE}`, 'title: Herz und Kreislauf'));
      await eventually('title after the edit', title, (t) => t === 'Herz und Kreislauf');
      const changed = logs.filter((l) => l.startsWith('changed: '));
      expect(changed.some((l) => l.includes(EVENT)), logs.join('\n')).toBe(true);
      // named only if content (a batch of scratch files alone is counted, not named)
      for (const line of changed) expect(line === `changed: ${EVENT}` || /^changed: \d+ files? that (?:is|are) not content$/.test(line), line).toBe(true);

      // broken: the title changes too, which must not reach the server
      edit(EVENT, (t) => t.replace('title: Herz und Kreislauf', 'title: Kaputt').replace('allday: false', 'allday: vielleicht'));
      const problem = await eventually('a problem in the log', async () => logs.find((l) => l.startsWith(`${EVENT}:`)), (l) => l !== undefined);
      expect(problem).toMatch(new RegExp(`^${EVENT}:6:\\d+ allday: `));
      expect(logs.some((l) => /still serving the last good build/.test(l))).toBe(true);
      expect(await title()).toBe('Herz und Kreislauf');

      edit(EVENT, (t) => t.replace('title: Kaputt', 'title: Repariert').replace('allday: vielleicht', 'allday: false'));
      await eventually('title after the fix', title, (t) => t === 'Repariert');

      // a new file in a new folder is seen too
      writeContent(content, {
        'events/2026/neu/fest.yaml': 'id: 77\ntitle: Neu\nstart: 2026-07-01T10:00\nend: 2026-07-01T12:00\nlast_modified: 2026-05-20T12:00:00Z\n',
      });
      await eventually('the new event', async () => (await request(`${dev.url}/v1/cms/event/77/`)).status, (s) => s === 200);
    } finally {
      loading = false;
      await load;
    }
    expect(failures).toEqual([]);
    expect(requests).toBeGreaterThan(30);
  });
});

describe('aula dev on content that never built', () => {
  it('prints the problems as check does, waits for a fix, then serves', async () => {
    const root = tempDir('aula-dev-');
    cleanup.push(async () => removeDir(root));
    const broken = FIXTURE_FILES[EVENT].replace('allday: false', 'allday: vielleicht');
    const content = writeContent(join(root, 'content'), { ...FIXTURE_FILES, [EVENT]: broken, 'event/extra.yaml': 'id: 77\n' });
    const logs: string[] = [];
    const dev = await startDev({ content, out: join(root, 'dist'), port: 0, host: '127.0.0.1', log: (l) => logs.push(l), debounceMs: 100 });
    cleanup.push(() => dev.close());
    expect(logs.some((l) => l.startsWith(`${EVENT}:6:`))).toBe(true);
    expect(logs.some((l) => /waiting for a fix/.test(l))).toBe(true);
    // as check and build tell it
    expect(logs).toContain('warning: event/ is not read (did you mean events/?)');
    expect(dev.url).toBe('');
    writeFileSync(join(content, EVENT), FIXTURE_FILES[EVENT]);
    const url = await dev.serving;
    expect(dev.url).toBe(url);
    expect((await request(`${url}/v1/cms/event/42/?fields=title`)).json().title).toBe(ORIGINAL_TITLE);
  });
});

describe('aula dev refuses at once, in one line, before any build', () => {
  it('a content folder that is not there, and a port in use', async () => {
    const root = tempDir('aula-dev-');
    cleanup.push(async () => removeDir(root));
    const logs: string[] = [];
    const missing = join(root, 'nothing-here');
    await expect(startDev({ content: missing, out: join(root, 'dist'), port: 0, host: '127.0.0.1', log: (l) => logs.push(l) })).rejects.toThrow(`--content ${missing}: no such folder`);
    const taken = createServer();
    await new Promise<void>((ok) => taken.listen(0, '127.0.0.1', ok));
    cleanup.push(() => new Promise((closed) => taken.close(() => closed())));
    const { port } = taken.address() as AddressInfo;
    const content = writeContent(join(root, 'content'), FIXTURE_FILES);
    await expect(startDev({ content, out: join(root, 'dist'), port, host: '127.0.0.1', log: (l) => logs.push(l) })).rejects.toThrow(`cannot listen on 127.0.0.1:${port}: the port is already in use (EADDRINUSE)`);
    // nothing was built or said
    expect(logs).toEqual([]);
  });
});

describe('localUrl', () => {
  it('names the address clients use', () => {
    expect(localUrl('127.0.0.1', 8000)).toBe('http://127.0.0.1:8000');
    expect(localUrl('0.0.0.0', 8000)).toBe('http://localhost:8000');
    expect(localUrl('::1', 8000)).toBe('http://[::1]:8000');
  });
});
