// The `/readyz` answer docs/deploying.md shows for a replica whose origin redirects off the dist
// (`<!-- test: readyz-remote -->`), from a real `aula serve --dist <URL>` over the starter site
// `aula init` writes: the origin serves the build, then sends the manifest to another host. The
// page's https://cdn.example.org is the origin here (127.0.0.1), its https://login.example.org
// a server on 127.0.0.2 — another host on this machine, which must never be asked.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, normalize } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { init } from '../../src/cli/init/init.ts';
import { buildOk, listeningOrigin, removeDir, tempDir } from '../helpers.ts';
import { at, blocksFor, ROOT } from './doc-blocks.ts';

const BIN = join(ROOT, 'bin', 'aula.js');

let work: string;
let origin: Server;
let other: Server;
let replica: ChildProcess | undefined;
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
}, 120_000);

afterAll(async () => {
  replica?.kill('SIGKILL');
  await Promise.all([origin, other].map((s) => new Promise((ok) => (s?.listening ? s.close(ok) : ok(undefined)))));
  if (work) removeDir(work);
});

describe("docs/deploying.md: /readyz of a replica whose origin redirects elsewhere", () => {
  it.each(blocksFor('readyz-remote').map((b) => [at(b), b] as const))('%s is what the replica answers', async (_, block) => {
    const port = (origin.address() as AddressInfo).port;
    const here = (text: string) => text.replaceAll('https://cdn.example.org', `http://127.0.0.1:${port}`).replaceAll('https://login.example.org', `http://127.0.0.2:${port}`);
    const shown = JSON.parse(block.text);
    replica = spawn(process.execPath, [BIN, 'serve', '--dist', `http://127.0.0.1:${port}/site/dist/`, '--poll', '100ms', '--port', '0', '--quiet'], { stdio: ['ignore', 'pipe', 'pipe'] });
    const url = await listeningOrigin(replica, 'aula serve --dist');
    expect((await fetch(`${url}/readyz`)).status).toBe(200);
    // the redirect the page shows, as this machine's hosts
    redirectTo = here(/refused a redirect to (\S+) /.exec(shown.problem)![1]);
    let answer: Response;
    for (let tries = 0; (answer = await fetch(`${url}/readyz`)).status !== 503; tries++) {
      if (tries > 600) throw new Error('/readyz did not turn 503 within 600 polls');
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(await answer.json()).toEqual(JSON.parse(here(block.text)));
    // the old build keeps answering, and the other host was never asked
    expect((await fetch(`${url}/v1/cms/event/`)).status).toBe(200);
    expect(otherAsked).toEqual([]);
  });
});
