// docs/deploying.md's replicas block (an nginx `upstream` of aula replicas with passive health checks),
// verbatim but for its placeholders, in a real nginx in front of two real `aula serve`
// processes: one is killed with SIGKILL under load and no request fails; the survivor answers
// the very bytes the killed one did.
import type { ChildProcess } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAula } from './aula-cli.ts';
import { buildOk, removeDir, SAMPLE_CONTENT, tempDir } from './helpers.ts';
import { findNginx, freePort, get, NGINX_MISSING, nginxTest, startNginx, stopProcess } from './nginx-process.ts';
import { blocksFor } from './docs/doc-blocks.ts';

const NGINX = findNginx();

/** docs/deploying.md's block with an `upstream aula` group of replicas (`<!-- test: nginx-replicas -->`). */
function replicasConf(dist: string, port: number, replicaPorts: number[]): string {
  const block = blocksFor('nginx-replicas').map((b) => b.text).find((b) => /^events \{/m.test(b) && /upstream aula \{/.test(b));
  if (!block) throw new Error('the docs have no complete ```nginx block with `upstream aula {` marked <!-- test: nginx-replicas -->');
  for (const placeholder of ['/srv/site/dist', 'listen 8080;', 'server 127.0.0.1:8001 ', 'server 127.0.0.1:8002 ', 'proxy_next_upstream error timeout http_502 http_503;']) {
    expect(block).toContain(placeholder);
  }
  return block
    .replaceAll('/srv/site/dist', dist)
    .replace('listen 8080;', `listen 127.0.0.1:${port};`)
    .replace('server 127.0.0.1:8001 ', `server 127.0.0.1:${replicaPorts[0]} `)
    .replace('server 127.0.0.1:8002 ', `server 127.0.0.1:${replicaPorts[1]} `);
}

/** `aula serve` as its own process (a SIGKILL must kill a real server, not a test's object), once it is ready. */
async function startReplica(dist: string, port: number): Promise<ChildProcess> {
  const replica = startAula(['serve', '--dist', dist, '--port', String(port), '--quiet']);
  try {
    await replica.origin;
    // (the address is the last line of its start-up; /readyz says it has its data)
    expect((await get(`http://127.0.0.1:${port}/readyz`)).status).toBe(200);
  } catch (e) {
    await replica.stop('SIGKILL');
    throw e;
  }
  return replica.child;
}

if (!NGINX) {
  if (process.env.CI) {
    it('nginx is installed (CI installs it)', () => {
      throw new Error(`${NGINX_MISSING}; CI must install it (see .ci/run)`);
    });
  } else {
    console.warn(`test/replicas.test.ts skipped: ${NGINX_MISSING}`);
    it.skip(`${NGINX_MISSING}; skipped`, () => {});
  }
} else {
  describe('two aula replicas behind nginx', () => {
    let root: string;
    let dist: string;
    let front: string;
    let nginx: ChildProcess | undefined;
    const replicas: ChildProcess[] = [];
    const replicaUrls: string[] = [];

    beforeAll(async () => {
      root = tempDir('aula-replicas-');
      dist = join(root, 'dist');
      mkdirSync(join(root, 'logs'));
      const [port, a, b] = [await freePort(), await freePort(), await freePort()];
      front = `http://127.0.0.1:${port}`;
      await buildOk({ content: SAMPLE_CONTENT, out: dist, baseUrl: front });
      for (const p of [a, b]) {
        replicas.push(await startReplica(dist, p));
        replicaUrls.push(`http://127.0.0.1:${p}`);
      }
      writeFileSync(join(root, 'nginx.conf'), replicasConf(dist, port, [a, b]));
      const refused = nginxTest(NGINX!, root);
      expect(refused, `nginx -t: ${refused}`).toBeNull();
      nginx = await startNginx(NGINX!, root, port);
    });

    afterAll(async () => {
      await stopProcess(nginx);
      for (const r of replicas) await stopProcess(r, 'SIGTERM');
      if (root) removeDir(root);
    });

    // the static page (from the file), filtered lists, a detail, autocomplete, ics: all but the first reach a replica
    const PATHS = [
      '/v1/cms/event/',
      '/v1/cms/event/?title__icontains=a',
      '/v1/cms/event/?limit=5&offset=3&expand=categories',
      '/v1/cms/event/?start__gte=2025-01-01T00:00:00Z&fields=id,title',
      '/v1/api/autocomplete/?q=m',
      '/v1/cms/event/?format=ics',
      '/v1/',
    ];

    it('balances over both replicas, which answer byte-identical pages', async () => {
      for (const path of PATHS) {
        const [one, two, via] = [await get(`${replicaUrls[0]}${path}`), await get(`${replicaUrls[1]}${path}`), await get(`${front}${path}`)];
        expect(one.status, path).toBe(200);
        expect(one.body.equals(two.body), `${path}: the replicas differ`).toBe(true);
        expect(one.headers.etag, path).toBe(two.headers.etag);
        expect(via.body.equals(one.body), `${path}: nginx's answer differs`).toBe(true);
        // an answer from a replica names the build; a static page from its file names none (nginx
        // reads its include files once, so they hold nothing of one build)
        expect(via.headers['x-aula-build'], path).toBe(via.headers['last-modified'] === undefined ? one.headers['x-aula-build'] : undefined);
        expect(two.headers['x-aula-build'], path).toBe(one.headers['x-aula-build']);
      }
      expect((await get(`${front}/v1/cms/event/`)).headers['last-modified'], 'the first page comes from its file').toBeDefined();
      // the content-hashed autocomplete files come from dist/ with their year-long policy
      const hashed = readdirSync(join(dist, 'autocomplete')).filter((n) => /\.[0-9a-f]{12}\.(js|json)$/.test(n));
      expect(hashed).toHaveLength(2);
      for (const name of hashed) {
        const answer = await get(`${front}/autocomplete/${name}`);
        expect(answer.status, name).toBe(200);
        expect(answer.headers['cache-control'], name).toBe('public, max-age=31536000, immutable');
        expect(answer.body.equals(readFileSync(join(dist, 'autocomplete', name))), name).toBe(true);
      }
    });

    it('loses no request when a replica is killed with SIGKILL under load', async () => {
      const before = new Map<string, Buffer>();
      for (const path of PATHS) before.set(path, (await get(`${replicaUrls[0]}${path}`)).body);
      const failures: string[] = [];
      let sent = 0;
      let killedAt = -1;
      let answeredAfterKill = 0;
      const worker = async () => {
        while (sent < 3_000) {
          const i = sent++;
          if (i === 1_000) {
            replicas[0].kill('SIGKILL');
            killedAt = i;
          }
          const path = PATHS[i % PATHS.length];
          try {
            const answer = await get(`${front}${path}`);
            if (answer.status !== 200) failures.push(`${path} → ${answer.status} ${answer.body.toString('utf8').slice(0, 120)}`);
            else if (!answer.body.equals(before.get(path)!)) failures.push(`${path} → different bytes`);
            else if (killedAt >= 0) answeredAfterKill++;
          } catch (e) {
            failures.push(`${path} → ${(e as Error).message}`);
          }
        }
      };
      await Promise.all(Array.from({ length: 8 }, worker));
      expect(failures).toEqual([]);
      expect(killedAt).toBe(1_000);
      expect(answeredAfterKill).toBeGreaterThan(1_900);
      await new Promise<void>((ok) => (replicas[0].exitCode !== null || replicas[0].signalCode !== null ? ok() : replicas[0].once('exit', () => ok())));
      expect(replicas[0].signalCode).toBe('SIGKILL');
      // the killed replica is gone; the survivor answers every page with the very bytes
      await expect(get(`${replicaUrls[0]}/healthz`)).rejects.toThrow(/ECONNREFUSED/);
      for (const path of PATHS) {
        const survivor = await get(`${replicaUrls[1]}${path}`);
        expect(survivor.body.equals(before.get(path)!), path).toBe(true);
        expect((await get(`${front}${path}`)).body.equals(before.get(path)!), path).toBe(true);
      }
    });
  });
}
