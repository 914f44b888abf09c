// The server as a process: reloading a replaced dist/, draining on SIGTERM, workers, and
// refusing a corrupt dist/ with a clear message instead of crash-looping.
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startAula } from './aula-cli.ts';
import { FIXTURE_FILES } from './fixture-content.ts';
import { buildOk, EVENTUALLY, firstPart, removeDir, request, serve, tempDir, writeContent } from './helpers.ts';

const roots: string[] = [];
afterAll(() => roots.forEach(removeDir));

async function fixture() {
  const root = tempDir();
  roots.push(root);
  const content = writeContent(join(root, 'content'), FIXTURE_FILES);
  const dist = join(root, 'dist');
  await buildOk({ content, out: dist });
  return { root, content, dist };
}

/** Starts `aula serve` as a child process and resolves with its URL once it listens. */
async function spawnServe(args: string[]) {
  const serve = startAula(['serve', '--port', '0', ...args]);
  const url = await serve.origin;
  return { child: serve.child, url, exited: serve.exited.then((r) => r.code) };
}

const titleOf = async (url: string) => (await request(`${url}/v1/cms/event/42/?fields=title`)).json().title;

describe('reloading', () => {
  it('swaps in a rebuilt dist/ without dropping a request', async () => {
    const { content, dist } = await fixture();
    const running = await serve(dist);
    try {
      expect(await titleOf(running.url)).toBe('Vortrag über Herzgesundheit');
      let failures = 0;
      let requests = 0;
      let loading = true;
      const load = (async () => {
        while (loading) {
          const answers = await Promise.all(Array.from({ length: 8 }, () => request(`${running.url}/v1/cms/event/?limit=3`).catch(() => null)));
          for (const a of answers) {
            requests++;
            if (!a || a.status !== 200) failures++;
          }
        }
      })();
      for (let i = 1; i <= 3; i++) {
        writeContent(content, { 'events/2025/vortrag.md': FIXTURE_FILES['events/2025/vortrag.md'].replace('title: Vortrag über Herzgesundheit', `title: Neu ${i}`) });
        await buildOk({ content, out: dist });
        await expect.poll(() => titleOf(running.url), EVENTUALLY).toBe(`Neu ${i}`);
      }
      loading = false;
      await load;
      expect(requests).toBeGreaterThan(20);
      expect(failures).toBe(0);
    } finally {
      await running.close();
    }
  });

  it('keeps serving the last good data when the new dist/ is broken', async () => {
    const { dist } = await fixture();
    const running = await serve(dist, { watch: false });
    try {
      rmSync(join(dist, 'data/columns/start.ordered.bin'));
      expect(await running.reload()).toBe(false);
      expect(await titleOf(running.url)).toBe('Vortrag über Herzgesundheit');
    } finally {
      await running.close();
    }
  });
});

describe('aula serve process', () => {
  it('reloads on SIGHUP and exits 0 on SIGTERM', async () => {
    const { content, dist } = await fixture();
    const { child, url, exited } = await spawnServe(['--dist', dist]);
    expect(await titleOf(url)).toBe('Vortrag über Herzgesundheit');
    writeContent(content, { 'events/2025/vortrag.md': FIXTURE_FILES['events/2025/vortrag.md'].replace('title: Vortrag über Herzgesundheit', 'title: Per HUP') });
    await buildOk({ content, out: dist });
    child.kill('SIGHUP');
    await expect.poll(() => titleOf(url), EVENTUALLY).toBe('Per HUP');
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  });

  it('runs N workers sharing the port', async () => {
    const { dist } = await fixture();
    const { child, url, exited } = await spawnServe(['--dist', dist, '--workers', '2']);
    const answers = await Promise.all(Array.from({ length: 20 }, () => request(`${url}/v1/cms/event/`)));
    expect(answers.every((a) => a.status === 200)).toBe(true);
    // each worker started with huge pages asked of glibc (util/huge-pages.ts)
    const workers = readdirSync(`/proc/${child.pid}/task`).flatMap((t) => readFileSync(`/proc/${child.pid}/task/${t}/children`, 'utf8').split(' ').filter(Boolean));
    expect(workers.map((pid) => readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0').find((v) => v.startsWith('GLIBC_TUNABLES=')))).toEqual(['GLIBC_TUNABLES=glibc.malloc.hugetlb=1', 'GLIBC_TUNABLES=glibc.malloc.hugetlb=1']);
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  });

  it('starts a worker in place of one that dies, naming the signal that ended it, and says where it serves once', async () => {
    const { dist } = await fixture();
    const serve = startAula(['serve', '--port', '0', '--dist', dist, '--workers', '2']);
    try {
      await serve.origin;
      const pid = serve.child.pid!;
      const [victim] = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).map(Number);
      process.kill(victim, 'SIGKILL');
      await serve.waitFor(new RegExp(`^aula: worker ${victim} exited \\(SIGKILL\\); starting another$`, 'm'));
      // both workers reload on SIGHUP, the new one once it listens: then it has said so
      serve.child.kill('SIGHUP');
      await serve.waitFor(/(?:reloaded [^\n]*\n[^]*){2}/);
      expect((await request(`${await serve.origin}/v1/cms/event/`)).status).toBe(200);
    } finally {
      const { out, code } = await serve.stop();
      expect(code).toBe(0);
      expect(out.match(/^aula serving /gm)).toHaveLength(1);
    }
  });

  it('refuses a corrupt dist/ with a clear error and a non-zero exit', async () => {
    const { dist } = await fixture();
    const part = firstPart(dist);
    rmSync(join(dist, `data/events/${part}.offsets.bin`));
    for (const workers of ['1', '2']) {
      await expect(spawnServe(['--dist', dist, '--workers', workers])).rejects.toThrow(new RegExp(`ended \\(1\\) before printing.*events/${part}\\.offsets\\.bin: missing`, 's'));
    }
  });
});
