// The server as operators expect it (issue 12.5): an API root, CORS when asked for, an access
// log, health and readiness, and one-line errors for what goes wrong at start.
import { createServer } from 'node:net';
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accessLogger } from '../src/server/access-log.ts';
import type { RunningServer } from '../src/server/http.ts';
import { aula, startAula } from './aula-cli.ts';
import { FIXTURE_FILES } from './fixture-content.ts';
import { buildOk, EVENTUALLY, freePort, removeDir, request, serve, tempDir, writeContent } from './helpers.ts';
const BASE = 'https://events.example.at/api';
let root: string;
let content: string;
let dist: string;
let plain: RunningServer;

beforeAll(async () => {
  root = tempDir('aula-operators-');
  content = writeContent(join(root, 'content'), FIXTURE_FILES);
  dist = join(root, 'dist');
  await buildOk({ content, out: dist, precompress: false });
  plain = await serve(dist);
});
afterAll(async () => {
  await plain?.close();
  removeDir(root);
});

describe('the API root', () => {
  it('lists the endpoints at / and /v1/ as JSON, like DRF’s DefaultRouter', async () => {
    for (const path of ['/', '/v1/']) {
      const answer = await request(`${plain.url}${path}`);
      expect(answer.status).toBe(200);
      expect(answer.headers.get('content-type')).toBe('application/json');
      expect(answer.json()).toEqual({ event: `${BASE}/v1/cms/event/`, autocomplete: `${BASE}/v1/api/autocomplete/`, schema: `${BASE}/v1/schema/` });
    }
    // the base URL's own prefix is accepted too, as for every route
    expect((await request(`${plain.url}/api/v1/`)).status).toBe(200);
  });

  it('is an HTML page for a browser, with the links', async () => {
    const page = await request(`${plain.url}/`, { headers: { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' } });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(page.text).toContain('Api Root');
    expect(page.text).toContain(`${BASE}/v1/cms/event/`);
  });
});

describe('health and readiness', () => {
  it('/healthz is 200; /readyz is 200, 503 while a reload fails, 200 again once it succeeds', async () => {
    const running = await serve(dist, { watch: false });
    try {
      const health = await request(`${running.url}/healthz`);
      expect(health.status).toBe(200);
      expect(health.json()).toEqual({ status: 'ok' });
      expect(health.headers.get('cache-control')).toBe('no-store');
      expect((await request(`${running.url}/readyz`)).json()).toMatchObject({ ready: true });
      const manifest = readFileSync(join(dist, 'manifest.json'));
      writeFileSync(join(dist, 'manifest.json'), '{"format":1');
      try {
        expect(await running.reload()).toBe(false);
        const behind = await request(`${running.url}/readyz`);
        expect(behind.status).toBe(503);
        expect(behind.json()).toMatchObject({ ready: false });
        // still serving
        expect((await request(`${running.url}/v1/cms/event/42/`)).status).toBe(200);
        expect((await request(`${running.url}/healthz`)).status).toBe(200);
      } finally {
        writeFileSync(join(dist, 'manifest.json'), manifest);
      }
      await expect.poll(async () => (await request(`${running.url}/readyz`)).status, EVENTUALLY).toBe(200);
    } finally {
      await running.close();
    }
  });
});

describe('CORS', () => {
  it('is off by default: no Access-Control header, no Vary: Origin', async () => {
    const answer = await request(`${plain.url}/v1/cms/event/`, { headers: { origin: 'https://site.example' } });
    expect([...answer.headers.keys()].filter((k) => k.startsWith('access-control'))).toEqual([]);
    expect(answer.headers.get('vary')).toBe('Accept');
  });

  it('with a list: allowed origins get Allow-Origin, every answer varies on Origin, bodies unchanged', async () => {
    const running = await serve(dist, { cors: ['https://site.example', 'http://localhost:3000'] });
    try {
      const reference = await request(`${plain.url}/v1/cms/event/?limit=1`);
      const allowed = await request(`${running.url}/v1/cms/event/?limit=1`, { headers: { origin: 'http://localhost:3000' } });
      expect(allowed.headers.get('access-control-allow-origin')).toBe('http://localhost:3000');
      expect(allowed.headers.get('access-control-expose-headers')).toContain('X-Ignored-Parameters');
      expect(allowed.headers.get('access-control-expose-headers')).toContain('X-Aula-Build');
      expect(allowed.headers.get('vary')).toBe('Accept, Origin');
      expect(allowed.text).toBe(reference.text);
      // the public files too: a page on another origin imports autocomplete.js as a module
      for (const file of ['/autocomplete/autocomplete.js', '/openapi.json']) {
        const got = await request(`${running.url}${file}`, { headers: { origin: 'http://localhost:3000' } });
        expect(got.status, file).toBe(200);
        expect(got.headers.get('access-control-allow-origin'), file).toBe('http://localhost:3000');
        expect(got.headers.get('vary'), file).toContain('Origin');
      }
      const other = await request(`${running.url}/v1/cms/event/?limit=1`, { headers: { origin: 'https://evil.example' } });
      expect(other.headers.get('access-control-allow-origin')).toBeNull();
      expect(other.headers.get('vary')).toBe('Accept, Origin');
      const preflight = await request(`${running.url}/v1/cms/event/`, {
        method: 'OPTIONS',
        headers: { origin: 'https://site.example', 'access-control-request-method': 'GET', 'access-control-request-headers': 'if-none-match' },
      });
      expect(preflight.status).toBe(204);
      expect(preflight.text).toBe('');
      expect(preflight.headers.get('access-control-allow-origin')).toBe('https://site.example');
      expect(preflight.headers.get('access-control-allow-methods')).toBe('GET, HEAD, OPTIONS');
      expect(preflight.headers.get('access-control-allow-headers')).toBe('if-none-match');
      expect(preflight.headers.get('access-control-max-age')).toBe('86400');
      expect(preflight.headers.get('vary')).toContain('Origin');
      // a plain OPTIONS is still DRF's metadata
      expect((await request(`${running.url}/v1/cms/event/`, { method: 'OPTIONS' })).json().name).toBe('Event List');
      // a preflight from elsewhere gets no permission
      const refused = await request(`${running.url}/v1/cms/event/`, { method: 'OPTIONS', headers: { origin: 'https://evil.example', 'access-control-request-method': 'GET' } });
      expect(refused.headers.get('access-control-allow-origin')).toBeNull();
    } finally {
      await running.close();
    }
  });

  it('with *: any origin, no Vary: Origin, also on compressed answers', async () => {
    const running = await serve(dist, { cors: '*' });
    try {
      const answer = await request(`${running.url}/v1/cms/event/`, { headers: { origin: 'https://any.example', 'accept-encoding': 'gzip' } });
      expect(answer.headers.get('access-control-allow-origin')).toBe('*');
      expect(answer.headers.get('vary')).toBe('Accept, Accept-Encoding');
      const preflight = await request(`${running.url}/v1/schema/`, { method: 'OPTIONS', headers: { origin: 'null', 'access-control-request-method': 'GET' } });
      expect(preflight.status).toBe(204);
      expect(preflight.headers.get('access-control-allow-origin')).toBe('*');
    } finally {
      await running.close();
    }
  });
});

describe('the access log', () => {
  it('one line per request: time, method, path, status, bytes, ms; or JSON lines', async () => {
    let written = '';
    const running = await serve(dist, { accessLog: accessLogger('text', (chunk) => (written += chunk)) });
    let json = '';
    const jsonRunning = await serve(dist, { accessLog: accessLogger('json', (chunk) => (json += chunk)) });
    try {
      const answer = await request(`${running.url}/v1/cms/event/?limit=1`);
      await request(`${running.url}/nowhere%0Ainjected`);
      await request(`${jsonRunning.url}/v1/cms/event/42/`, { method: 'HEAD' });
      // written once the answer has gone out, at the next turn of the server's event loop
      await expect.poll(() => [written.split('\n').length - 1, json.split('\n').length - 1], EVENTUALLY).toEqual([2, 1]);
      const lines = written.trim().split('\n');
      expect(lines).toHaveLength(2);
      expect(lines[0]).toMatch(new RegExp(`^\\d{4}-\\d\\d-\\d\\dT[\\d:.]+Z GET /v1/cms/event/\\?limit=1 200 ${Buffer.byteLength(answer.text)} [\\d.]+ms$`));
      expect(lines[1]).toMatch(/ GET \/nowhere%0Ainjected 404 \d+ [\d.]+ms$/);
      const entry = JSON.parse(json.trim());
      expect(entry).toMatchObject({ method: 'HEAD', path: '/v1/cms/event/42/', status: 200, bytes: 0 });
      expect(typeof entry.ms).toBe('number');
      expect(Date.parse(entry.time)).toBeGreaterThan(0);
    } finally {
      await running.close();
      await jsonRunning.close();
    }
  });
});

/** Runs `aula serve` until it prints its URL, makes one request, stops it; returns its output. */
async function serveOnce(args: string[], path = '/v1/cms/event/?limit=1'): Promise<{ stdout: string; stderr: string }> {
  const serve = startAula(['serve', '--dist', dist, '--port', '0', ...args]);
  try {
    await request(`${await serve.origin}${path}`);
  } catch (e) {
    await serve.stop();
    throw e;
  }
  // it drains on SIGTERM: what it logs for the request is out before it exits
  const { code, out, err } = await serve.stop();
  expect(code).toBe(0);
  return { stdout: out, stderr: err };
}

describe('aula serve as a process', () => {
  it('logs each request on stdout; --log json; --quiet logs none; warns when the base URL is elsewhere', async () => {
    const [text, json, quiet, named] = await Promise.all([serveOnce([]), serveOnce(['--log', 'json']), serveOnce(['--quiet']), serveOnce(['--base-url', 'https://events.example.org/api', '--quiet'])]);
    expect(text.stdout).toMatch(/Z GET \/v1\/cms\/event\/\?limit=1 200 \d+ [\d.]+ms\n/);
    expect(JSON.parse(json.stdout.split('\n').find((l) => l.startsWith('{'))!)).toMatchObject({ method: 'GET', status: 200 });
    expect(quiet.stdout).not.toMatch(/GET/);
    expect(text.stderr).toMatch(/^aula: warning: answers link to https:\/\/events\.example\.at \(the base URL\), but this server listens on http:\/\/127\.0\.0\.1:\d+; .*--base-url\n$/);
    // a base URL named by --base-url is where the user asked the links to point: not advised to name one
    expect(named.stderr).toBe('');
  });

  it('no origin warning when --base-url is where it listens', async () => {
    const port = await freePort();
    const serve = startAula(['serve', '--dist', dist, '--port', String(port), '--base-url', `http://127.0.0.1:${port}`]);
    // the address is its last line at start-up: a warning would be out before it
    expect(await serve.origin).toBe(`http://127.0.0.1:${port}`);
    const { code, err } = await serve.stop();
    expect(code).toBe(0);
    expect(err).toBe('');
  });

  it('one clear line and exit 1: port in use (serve and dev), missing dist, bad options', async () => {
    const blocker = createServer();
    await new Promise<void>((ok) => blocker.listen(0, '127.0.0.1', ok));
    const port = (blocker.address() as { port: number }).port;
    try {
      const cases: [string[], RegExp][] = [
        [['serve', '--dist', dist, '--port', String(port)], new RegExp(`^aula: cannot listen on 127\\.0\\.0\\.1:${port}: the port is already in use \\(EADDRINUSE\\)\\n$`)],
        [['dev', '--content', content, '--out', join(root, 'dev-out'), '--port', String(port)], new RegExp(`^aula: cannot listen on 127\\.0\\.0\\.1:${port}: the port is already in use \\(EADDRINUSE\\)\\n$`)],
        [['serve', '--dist', join(root, 'nowhere')], /^aula: .*nowhere\/manifest\.json: missing; rebuild with `aula build`\n$/],
        // a file given as --dist: the cause in words, not node's `ENOTDIR: not a directory, open '…'`
        [['serve', '--dist', join(dist, 'manifest.json')], /^aula: .*manifest\.json\/manifest\.json: a part of the path is a file, not a folder \[ENOTDIR\]; rebuild with `aula build`\n$/],
        [['serve', '--dist', dist, '--port', 'abc'], /^error: option '--port <n>' argument 'abc' is invalid\. expected a port number 0–65535\n$/],
        [['serve', '--dist', dist, '--log', 'xml'], /^error: option '--log <format>' argument 'xml' is invalid\. Allowed choices are text, json\.\n$/],
        [['serve', '--dist', dist, '--cors', 'ftp://x'], /^error: option '--cors <origins>' argument 'ftp:\/\/x' is invalid\. .*\n$/],
        // an empty "$HOST" listened on every interface, an empty "$PORT" on a random port
        [['serve', '--dist', dist, '--host', ''], /^error: option '--host <h>' argument '' is invalid\. expected an address to listen on, e\.g\. 127\.0\.0\.1 .*\n$/],
        [['dev', '--content', content, '--host', ' '], /^error: option '--host <h>' argument ' ' is invalid\. .*\n$/],
        [['serve', '--dist', dist, '--port', ''], /^error: option '--port <n>' argument '' is invalid\. expected a port number 0–65535\n$/],
        // a value Node cannot send made every 200 a 500 with a stack trace per request
        [['serve', '--dist', dist, '--cache-control', 'a\r\nX-Injected: 1'], /^error: option '--cache-control <value>' argument 'a X-Injected: 1' is invalid\. expected a header value: printable characters, no line breaks\n$/],
        [['serve', '--dist', dist, '--cache-control', 'max-age=60 €'], /^error: option '--cache-control <value>' argument 'max-age=60 €' is invalid\. /],
      ];
      for (const [args, message] of cases) {
        const r = aula(args);
        expect(r.code, args.join(' ')).toBe(1);
        expect(r.err, args.join(' ')).toMatch(message);
        // nothing it started goes on after it said it failed (dev used to leave its dist
        // writer's `aula build` running, writing the out folder after the exit)
        expect(processesNaming(root), args.join(' ')).toEqual([]);
      }
      expect(existsSync(join(root, 'dev-out'))).toBe(false);
    } finally {
      blocker.close();
      rmSync(join(root, 'dev-out'), { recursive: true, force: true });
    }
  });
});

/** The processes (Linux's /proc) whose command line names `path`. */
function processesNaming(path: string): string[] {
  const found: string[] = [];
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      const command = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ');
      if (command.includes(path)) found.push(`${pid}: ${command}`);
    } catch {
      // it ended meanwhile
    }
  }
  return found;
}
