// The `/readyz` answer docs/deploying.md shows for a replica whose origin redirects off the dist
// (`<!-- test: readyz-remote -->`), from a real `aula serve --dist <URL>` over the starter site
// `aula init` writes: the origin serves the build, then sends the manifest to another host. The
// page's https://cdn.example.org is the origin here (127.0.0.1), its https://login.example.org
// a server on 127.0.0.2 — another host on this machine, which must never be asked.
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, normalize } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { init } from '../../src/cli/init/init.ts';
import { startAula, type AulaProcess } from '../aula-cli.ts';
import { buildOk, EVENTUALLY, removeDir, tempDir } from '../helpers.ts';
import { at, blocksFor } from './doc-blocks.ts';

let work: string;
let origin: Server;
let other: Server;
let replica: AulaProcess | undefined;
/** where the origin sends the manifest instead of answering it, when set */
let redirectTo: string | null = null;
const otherAsked: string[] = [];

const listen = (server: Server, host: string, port = 0) =>
  new Promise<number>((ok, fail) => {
    server.once('error', fail);
    server.listen(port, host, () => ok((server.address() as AddressInfo).port));
  });

beforeAll(async () => {
  work = tempDir('aula-doc-readyz-');
  const site = join(work, 'site');
  init(site);
  await buildOk({ content: join(site, 'content'), out: join(site, 'dist'), precompress: false });
  origin = createServer((req, res) => {
    const path = new URL(req.url!, 'http://x').pathname;
    if (path === '/site/dist/manifest.json' && redirectTo !== null) return void res.writeHead(302, { Location: redirectTo }).end();
    try {
      res.writeHead(200).end(readFileSync(join(work, normalize(decodeURIComponent(path)).replace(/^([/\\]|\.\.[/\\])+/, ''))));
    } catch {
      res.writeHead(404).end();
    }
  });
  other = createServer((req, res) => {
    otherAsked.push(req.url!);
    res.writeHead(200).end('{}');
  });
  await listen(other, '127.0.0.2', await listen(origin, '127.0.0.1'));
});

afterAll(async () => {
  await replica?.stop('SIGKILL');
  await Promise.all([origin, other].map((s) => new Promise((ok) => (s?.listening ? s.close(ok) : ok(undefined)))));
  if (work) removeDir(work);
});

describe("docs/deploying.md: /readyz of a replica whose origin redirects elsewhere", () => {
  it.each(blocksFor('readyz-remote').map((b) => [at(b), b] as const))('%s is what the replica answers', async (_, block) => {
    const port = (origin.address() as AddressInfo).port;
    const here = (text: string) => text.replaceAll('https://cdn.example.org', `http://127.0.0.1:${port}`).replaceAll('https://login.example.org', `http://127.0.0.2:${port}`);
    const shown = JSON.parse(block.text);
    replica = startAula(['serve', '--dist', `http://127.0.0.1:${port}/site/dist/`, '--poll', '100ms', '--port', '0', '--quiet']);
    const url = await replica.origin;
    expect((await fetch(`${url}/readyz`)).status).toBe(200);
    // the redirect the page shows, as this machine's hosts
    redirectTo = here(/refused a redirect to (\S+) /.exec(shown.problem)![1]);
    // (its next poll of the origin)
    await expect.poll(async () => (await fetch(`${url}/readyz`)).status, EVENTUALLY).toBe(503);
    const answer = await fetch(`${url}/readyz`);
    expect(answer.status).toBe(503);
    expect(await answer.json()).toEqual(JSON.parse(here(block.text)));
    // the old build keeps answering, and the other host was never asked
    expect((await fetch(`${url}/v1/cms/event/`)).status).toBe(200);
    expect(otherAsked).toEqual([]);
  });
});
