// The generated nginx config in a real nginx in front of a real aula server: every page reached
// by following `next` is served from its file and is byte-identical to the server's answer;
// whatever a file cannot answer reaches the server.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { precompress } from '../src/deploy/compress.ts';
import { nginxConfig } from '../src/deploy/routing.ts';
import type { RunningServer } from '../src/server/http.ts';
import type { Manifest } from '../src/store/manifest.ts';
import { buildOk, removeDir, SAMPLE_CONTENT, serve, tempDir } from './helpers.ts';

function findNginx(): string | null {
  for (const candidate of ['/usr/sbin/nginx', '/usr/local/sbin/nginx', '/usr/local/nginx/sbin/nginx']) {
    if (existsSync(candidate)) return candidate;
  }
  const which = spawnSync('sh', ['-c', 'command -v nginx'], { encoding: 'utf8' });
  return which.status === 0 && which.stdout.trim() ? which.stdout.trim() : null;
}

const NGINX = findNginx();
const MISSING = 'nginx not installed: apt-get install nginx-light (or nginx)';

function freePort(): Promise<number> {
  return new Promise((ok, fail) => {
    const probe = createServer();
    probe.once('error', fail);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => ok(port));
    });
  });
}

interface Raw {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** node:http rather than fetch: fetch adds Accept-Encoding and decodes, hiding what was sent. */
function get(url: string, headers: Record<string, string> = {}, method = 'GET'): Promise<Raw> {
  return new Promise((ok, fail) => {
    const req = httpRequest(url, { method, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => ok({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', fail);
    });
    req.on('error', fail);
    req.end();
  });
}

function nginxConf(dir: string, port: number, snippets: { http: string; server: string }): string {
  const indent = (text: string, by: string) => text.replace(/^(?=.)/gm, by);
  return `daemon off;
worker_processes 1;
${process.getuid?.() === 0 ? 'user root;\n' : ''}pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 128; }
http {
    # which answers came from a file: $upstream_addr is empty (logged as -) for them
    log_format aula '$http_x_aula_test upstream=[$upstream_addr] $status';
    access_log ${dir}/access.log aula;
    client_body_temp_path ${dir}/client_body;
    proxy_temp_path ${dir}/proxy;
    fastcgi_temp_path ${dir}/fastcgi;
    uwsgi_temp_path ${dir}/uwsgi;
    scgi_temp_path ${dir}/scgi;
    types { application/json json; }
    default_type application/octet-stream;
${indent(snippets.http, '    ')}
    server {
        listen 127.0.0.1:${port};
        server_name localhost;
${indent(snippets.server, '        ')}
    }
}
`;
}

/** Starts nginx in the foreground and resolves once it answers; rejects with its error log if it dies. */
async function startNginx(dir: string, port: number): Promise<ChildProcess> {
  const child = spawn(NGINX!, ['-p', dir, '-c', join(dir, 'nginx.conf'), '-e', join(dir, 'error.log')], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  let exited = false;
  child.on('exit', () => (exited = true));
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    if (exited) {
      const log = existsSync(join(dir, 'error.log')) ? readFileSync(join(dir, 'error.log'), 'utf8') : '';
      throw new Error(`nginx exited: ${output}${log}`);
    }
    try {
      await get(`http://127.0.0.1:${port}/nginx-ready`);
      return child;
    } catch {
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  child.kill('SIGKILL');
  throw new Error(`nginx did not answer within 10 s: ${output}`);
}

function stopProcess(child: ChildProcess | undefined): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((ok) => {
    const force = setTimeout(() => child.kill('SIGKILL'), 5_000);
    child.once('exit', () => {
      clearTimeout(force);
      ok();
    });
    child.kill('SIGQUIT'); // nginx: graceful shutdown
  });
}

if (!NGINX) {
  if (process.env.CI) {
    it('nginx is installed (CI installs it)', () => {
      throw new Error(`${MISSING}; CI must install it (see .ci/run)`);
    });
  } else {
    console.warn(`test/nginx.test.ts skipped: ${MISSING}`);
    it.skip(`${MISSING}; skipped`, () => {});
  }
} else {
  // '' and a base URL with a path: the locations carry the prefix, the server strips it
  describe.each(['', '/api'])('nginx in front of the aula server (base path %j)', (prefix) => {
    let root: string;
    let dist: string;
    let manifest: Manifest;
    let server: RunningServer;
    let nginx: ChildProcess | undefined;
    let front: string;
    let tag = 0;

    beforeAll(async () => {
      root = tempDir('aula-nginx-');
      dist = join(root, 'dist');
      // a port taken between probing and nginx binding it is retried with another
      for (let attempt = 1; ; attempt++) {
        const port = await freePort();
        front = `http://127.0.0.1:${port}`;
        manifest = (await buildOk({ content: SAMPLE_CONTENT, out: dist, baseUrl: `${front}${prefix}` })).manifest;
        server ??= await serve(dist, { watch: false });
        server.reload();
        writeFileSync(join(root, 'nginx.conf'), nginxConf(root, port, nginxConfig(manifest, { upstream: server.url, root: dist })));
        try {
          nginx = await startNginx(root, port);
          break;
        } catch (e) {
          if (attempt === 3 || !/in use/.test(String(e))) throw e;
        }
      }
    });

    afterAll(async () => {
      await stopProcess(nginx);
      await server?.close();
      if (root) removeDir(root);
    });

    /** A request through nginx, and whether nginx answered it from a file. */
    async function viaNginx(pathAndQuery: string, headers: Record<string, string> = {}, method = 'GET') {
      const id = `t${++tag}`;
      const answer = await get(`${front}${pathAndQuery}`, { ...headers, 'X-Aula-Test': id }, method);
      const logged = async () => {
        for (let i = 0; i < 40; i++) {
          const line = readFileSync(join(root, 'access.log'), 'utf8').split('\n').find((l) => l.startsWith(`${id} `));
          if (line) return line;
          await new Promise((r) => setTimeout(r, 25));
        }
        throw new Error(`no access log line for ${pathAndQuery}`);
      };
      const line = await logged();
      return { ...answer, line, fromFile: line.includes('upstream=[-]') };
    }

    const direct = (pathAndQuery: string, headers: Record<string, string> = {}, method = 'GET') => get(`${server.url}${pathAndQuery}`, headers, method);

    it('serves every page reached by following next from its file, byte-identical to the server', async () => {
      let url: string | null = `${front}${prefix}/v1/cms/event/`;
      let pages = 0;
      while (url) {
        const path: string = url.slice(front.length);
        const fromNginx = await viaNginx(path);
        const fromServer = await direct(path);
        expect(fromNginx.status, path).toBe(200);
        expect(fromNginx.fromFile, `${path} should come from its file: ${fromNginx.line}`).toBe(true);
        expect(fromNginx.body.equals(fromServer.body), `${path} differs from the server's answer`).toBe(true);
        url = JSON.parse(fromNginx.body.toString('utf8')).next;
        pages++;
      }
      expect(pages).toBe(manifest.counts.event_list_pages);
      expect(pages).toBeGreaterThan(2);
    });

    it('serves `?limit=<page size>` and `previous` links from the file too', async () => {
      const L = manifest.event_list.limit;
      for (const path of [`${prefix}/v1/cms/event/?limit=${L}`, `${prefix}/v1/cms/event/?limit=${L}&offset=${2 * L}`]) {
        const fromNginx = await viaNginx(path);
        expect(fromNginx.fromFile, path).toBe(true);
        expect(fromNginx.body.equals((await direct(path)).body), path).toBe(true);
        const previous = JSON.parse(fromNginx.body.toString('utf8')).previous;
        if (previous) expect((await viaNginx(previous.slice(front.length))).fromFile, previous).toBe(true);
      }
    });

    it('sends the headers the server sends with the same answer', async () => {
      const fromNginx = await viaNginx(`${prefix}/v1/cms/event/`);
      const fromServer = await direct(`${prefix}/v1/cms/event/`);
      for (const name of ['content-type', 'allow', 'x-frame-options', 'x-content-type-options', 'referrer-policy', 'cache-control']) {
        expect(fromNginx.headers[name], name).toBe(fromServer.headers[name]);
      }
      // gzip_vary makes nginx name Accept-Encoding on every static answer (its .gz twin exists);
      // the server names it only on answers it compressed. Both vary on Accept.
      const tokens = (v: unknown) => String(v).split(',').map((t) => t.trim()).filter((t) => t !== 'Accept-Encoding').sort();
      expect(tokens(fromNginx.headers.vary)).toEqual(tokens(fromServer.headers.vary));
      expect(tokens(fromNginx.headers.vary)).toEqual(['Accept']);
    });

    it('passes everything a file cannot answer to the server, unchanged', async () => {
      const L = manifest.event_list.limit;
      const id = JSON.parse((await direct('/v1/cms/event/')).body.toString('utf8')).results[0].id;
      const cases: [string, Record<string, string>][] = [
        [`${prefix}/v1/cms/event/?title__icontains=a&limit=${L}&offset=${L}`, {}],
        [`${prefix}/v1/cms/event/?limit=${L}&offset=${L}&title__icontains=a`, {}],
        [`${prefix}/v1/cms/event/?title__icontains=a`, {}],
        [`${prefix}/v1/cms/event/${id}/`, {}],
        [`${prefix}/v1/cms/event/?limit=${L}&offset=7`, {}], // not on a page boundary: no file
        [`${prefix}/v1/cms/event/?limit=${L}&offset=0`, {}],
        [`${prefix}/v1/cms/event/?offset=${L}&limit=${L}`, {}],
        [`${prefix}/v1/cms/event/?LIMIT=${L}`, {}],
        [`${prefix}/v1/cms/event/?limit=${L}&offset=${L}&format=json`, {}],
        [`${prefix}/v1/cms/event/`, { Accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' }],
        [`${prefix}/v1/cms/event/`, { Accept: 'application/json;q=0.5, text/html' }],
        [`${prefix}/v1/cms/event/`, { Accept: 'image/png' }],
        [`${prefix}/v1/cms/event`, {}], // the server's slash redirect
        [`${prefix}/v1/api/autocomplete/?q=a`, {}],
      ];
      for (const [path, headers] of cases) {
        const fromNginx = await viaNginx(path, headers);
        const fromServer = await direct(path, headers);
        expect(fromNginx.fromFile, `${path} ${JSON.stringify(headers)} should reach the server`).toBe(false);
        expect(fromNginx.status, path).toBe(fromServer.status);
        expect(fromNginx.body.equals(fromServer.body), `${path} differs from the server's answer`).toBe(true);
      }
      const options = await viaNginx(`${prefix}/v1/cms/event/`, {}, 'OPTIONS');
      expect(options.fromFile).toBe(false);
      expect(options.body.equals((await direct(`${prefix}/v1/cms/event/`, {}, 'OPTIONS')).body)).toBe(true);
    });

    it('answers JSON-accepting clients from the file', async () => {
      for (const accept of ['application/json', '*/*', 'application/json, text/plain, */*', '']) {
        const answer = await viaNginx(`${prefix}/v1/cms/event/`, accept ? { Accept: accept } : {});
        expect(answer.fromFile, accept).toBe(true);
      }
    });

    it('sends the pre-compressed page to clients that accept gzip', async () => {
      const L = manifest.event_list.limit;
      const files = new Map<string, Uint8Array>();
      for (const rel of [manifest.event_list.first, manifest.event_list.further.replace('{offset}', String(L))]) {
        if (!existsSync(join(dist, `${rel}.gz`))) files.set(rel, readFileSync(join(dist, rel)));
      }
      for (const [rel, bytes] of await precompress(files)) writeFileSync(join(dist, rel), bytes);

      for (const path of [`${prefix}/v1/cms/event/`, `${prefix}/v1/cms/event/?limit=${L}&offset=${L}`]) {
        const plain = await viaNginx(path);
        const gz = await viaNginx(path, { 'Accept-Encoding': 'gzip' });
        expect(gz.fromFile).toBe(true);
        expect(gz.headers['content-encoding']).toBe('gzip');
        expect(gz.headers.vary).toMatch(/Accept-Encoding/);
        expect(gz.body.length).toBeLessThan(plain.body.length / 3);
        expect(gunzipSync(gz.body).equals(plain.body)).toBe(true);
        expect(plain.headers['content-encoding']).toBeUndefined();
      }
    });
  });
}
