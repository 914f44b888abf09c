// `aula serve --dist <URL>` and the origin's redirects: followed only while they stay below the
// dist's URL (same scheme, host and port, the same path prefix), at most a few, never round in a
// loop. Anything else — another host (127.0.0.2 beside 127.0.0.1: both loopback, so a redirect
// there is what a redirect to an internal host would be), another path, https to http — is
// refused: the other host is never asked, the old build keeps answering, /readyz says why.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, symlinkSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { join, normalize } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DistError } from '../src/store/format/manifest.ts';
import { fetchRemoteDist, MAX_REDIRECTS, redirectTarget, remoteBase } from '../src/store/read/remote-source.ts';
import { startAula } from './aula-cli.ts';
import { FIXTURE_FILES } from './fixture-content.ts';
import { buildOk, removeDir, request, serve, tempDir, writeContent } from './helpers.ts';


type Answer = (path: string, req: IncomingMessage, res: ServerResponse) => boolean;

/** An origin serving `root`'s files at their paths; `answer` may answer a request itself first. */
function origin(root: string) {
  const asked: string[] = [];
  let answer: Answer | null = null;
  const handler = (req: IncomingMessage, res: ServerResponse) => {
    const path = new URL(req.url!, 'http://x').pathname;
    asked.push(path);
    if (answer?.(path, req, res)) return;
    const rel = normalize(decodeURIComponent(path)).replace(/^\/+/, '');
    try {
      res.writeHead(200).end(readFileSync(join(root, rel)));
    } catch {
      res.writeHead(404).end();
    }
  };
  return { handler, asked, set answer(a: Answer | null) { answer = a; } };
}

const listen = (server: Server, host = '127.0.0.1', port = 0) =>
  new Promise<number>((ok, fail) => {
    server.once('error', fail);
    server.listen(port, host, () => ok((server.address() as AddressInfo).port));
  });
const close = (server: Server) => new Promise<void>((ok) => server.close(() => ok()));
const redirect = (res: ServerResponse, location: string, status = 302) => (res.writeHead(status, { Location: location }).end(), true);

/** Waits for what a poll brings about; the limit is a safety net, not a bound the test relies on. */
async function until(what: string, condition: () => Promise<boolean>, ms = 100_000): Promise<void> {
  const started = Date.now();
  while (!(await condition())) {
    if (Date.now() - started > ms) throw new Error(`${what}: not within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('redirectTarget: where a redirect from below the dist URL may lead', () => {
  const base = remoteBase('https://cdn.example/site/dist/');
  const from = new URL('https://cdn.example/site/dist/manifest.json');
  const why = (location: string, at = from) => {
    const to = redirectTarget(base, at, location);
    return typeof to === 'string' ? to : to.href;
  };

  it('follows a redirect that stays below the dist URL, relative or absolute', () => {
    expect(why('builds/7/manifest.json')).toBe('https://cdn.example/site/dist/builds/7/manifest.json');
    expect(why('/site/dist/v2/manifest.json?sig=abc')).toBe('https://cdn.example/site/dist/v2/manifest.json?sig=abc');
    expect(why('https://cdn.example:443/site/dist/manifest.json')).toBe('https://cdn.example/site/dist/manifest.json');
  });

  it('refuses https to http, another host, port or scheme, another path, credentials, encoded separators', () => {
    expect(why('http://cdn.example/site/dist/manifest.json')).toMatch(/^refused a redirect to http:\/\/cdn\.example\/site\/dist\/manifest\.json \(from https to http\); a remote dist is read only from below https:\/\/cdn\.example\/site\/dist\/$/);
    // from https to http even where the dist URL itself is http (a redirect to https and back)
    expect(why('http://cdn.example/site/dist/x', new URL('https://cdn.example/site/dist/m'))).toContain('(from https to http)');
    expect(why('https://internal.example/site/dist/manifest.json')).toContain('(another origin)');
    expect(why('https://cdn.example:8443/site/dist/manifest.json')).toContain('(another origin)');
    expect(why('file:///etc/passwd')).toContain('(another scheme, file)');
    expect(why('/site/admin/manifest.json')).toContain('(outside the path of the dist)');
    expect(why('/site/dist')).toContain('(outside the path of the dist)');
    expect(why('/site/dist/../admin/x')).toContain('(outside the path of the dist)');
    expect(why('/site/dist/%2e%2e/admin/x')).toContain('(outside the path of the dist)');
    expect(why('/site/dist/..%2Fadmin/x')).toContain('(an encoded / or \\ in the path)');
    const withPassword = why('https://user:secret@cdn.example/site/dist/manifest.json');
    expect(withPassword).toContain('(a user name or password in the URL)');
    expect(withPassword).not.toContain('secret');
    expect(why('http://[::1')).toBe('refused a redirect to "http://[::1", which is not a URL');
  });

  it('shows a long or odd Location cut short and escaped', () => {
    expect(why(`https://x.example/${'a'.repeat(5_000)}`).length).toBeLessThan(400);
    expect(why('http://[\u001b')).toBe('refused a redirect to "http://[\\u001b", which is not a URL');
  });
});

describe('fetchRemoteDist and the origin’s redirects', () => {
  let root: string;
  let at: ReturnType<typeof origin>;
  let other: ReturnType<typeof origin>;
  let server: Server;
  let otherServer: Server;
  let port: number;
  let base: URL;

  beforeAll(async () => {
    root = tempDir('aula-redirect-');
    const content = writeContent(join(root, 'content'), FIXTURE_FILES);
    await buildOk({ content, out: join(root, 'dist'), precompress: false });
    at = origin(root);
    other = origin(root);
    server = createServer(at.handler);
    port = await listen(server);
    // the same port on another loopback address: only the host differs
    otherServer = createServer(other.handler);
    await listen(otherServer, '127.0.0.2', port);
    base = remoteBase(`http://127.0.0.1:${port}/dist/`);
  });

  afterAll(async () => {
    if (server) await close(server);
    if (otherServer) await close(otherServer);
    if (root) removeDir(root);
  });

  const failure = () => fetchRemoteDist(base).then(() => null, (e: unknown) => e as Error);

  it('follows redirects within the dist’s path: 301, 302, 303, 307 and 308, two hops', async () => {
    // every file of the dist, redirected to where the "current build" is, through one hop more
    // for the manifest
    at.answer = (path, _req, res) => {
      if (path === '/dist/manifest.json') return redirect(res, '/dist/current/manifest.json', 301);
      if (path.startsWith('/dist/current/')) return redirect(res, `/dist/builds/1/${path.slice('/dist/current/'.length)}`, 307);
      if (path.startsWith('/dist/builds/1/')) return false;
      if (path.startsWith('/dist/')) return redirect(res, `/dist/builds/1/${path.slice('/dist/'.length)}`, [302, 303, 308][path.length % 3]);
      return false;
    };
    // the origin's folder for the build the redirects lead to
    mkdirSync(join(root, 'dist', 'builds'));
    symlinkSync('..', join(root, 'dist', 'builds', '1'));
    try {
      const fetched = await fetchRemoteDist(base);
      expect(fetched).not.toBe('unchanged');
      expect(at.asked).toContain('/dist/builds/1/manifest.json');
      expect(at.asked).toContain('/dist/builds/1/data/columns/start.ordered.bin');
    } finally {
      at.answer = null;
      removeDir(join(root, 'dist', 'builds'));
    }
  });

  it('refuses a redirect to another host, port, path or scheme: nothing is asked of it', async () => {
    const cases: [string, string, RegExp][] = [
      ['dist/manifest.json', `http://127.0.0.2:${port}/dist/manifest.json`, /\(another origin\)/],
      ['dist/data/categories.json', `http://127.0.0.2:${port}/dist/data/categories.json`, /\(another origin\)/],
      ['dist/manifest.json', `http://localhost:${port}/dist/manifest.json`, /\(another origin\)/],
      ['dist/manifest.json', '/admin/manifest.json', /\(outside the path of the dist\)/],
      ['dist/manifest.json', '/dist/../admin/manifest.json', /\(outside the path of the dist\)/],
      ['dist/data/columns/start.ordered.bin', '/dist/..%2fadmin', /\(an encoded \/ or \\ in the path\)/],
      ['dist/manifest.json', 'ftp://127.0.0.1/dist/manifest.json', /\(another scheme, ftp\)/],
    ];
    for (const [file, location, why] of cases) {
      const asked = at.asked.length;
      at.answer = (path, _req, res) => path === `/${file}` && redirect(res, location);
      try {
        const error = await failure();
        expect(error, location).toBeInstanceOf(DistError);
        expect(error!.name, location).not.toBe('OriginUnavailable');
        expect(error!.message, location).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:${port}/${file.replace(/\./g, '\\.')}: refused a redirect to .* ${why.source}; a remote dist is read only from below http://127\\.0\\.0\\.1:${port}/dist/`));
        // only the origin's own paths below the dist were asked for
        expect(at.asked.slice(asked).every((p) => p.startsWith('/dist/')), location).toBe(true);
      } finally {
        at.answer = null;
      }
    }
    expect(other.asked).toEqual([]);
  });

  it('refuses a redirect loop, and more than MAX_REDIRECTS redirects', async () => {
    at.answer = (path, _req, res) => {
      if (path === '/dist/manifest.json') return redirect(res, '/dist/a/manifest.json');
      if (path === '/dist/a/manifest.json') return redirect(res, '/dist/manifest.json');
      return false;
    };
    try {
      expect((await failure())?.message).toBe(`http://127.0.0.1:${port}/dist/manifest.json: refused a redirect to http://127.0.0.1:${port}/dist/manifest.json (a loop: it was asked for already)`);
      const asked = at.asked.length;
      at.answer = (path, _req, res) => {
        const hop = /^\/dist\/hop(\d+)$/.exec(path);
        if (path === '/dist/manifest.json') return redirect(res, '/dist/hop1');
        return hop !== null && redirect(res, `/dist/hop${Number(hop[1]) + 1}`);
      };
      expect((await failure())?.message).toBe(`http://127.0.0.1:${port}/dist/manifest.json: refused a redirect to http://127.0.0.1:${port}/dist/hop${MAX_REDIRECTS + 1} (more than ${MAX_REDIRECTS} redirects)`);
      expect(at.asked.length - asked).toBe(MAX_REDIRECTS + 1);
    } finally {
      at.answer = null;
    }
  });

  it('a replica keeps serving the old build, says why on /readyz and in one log line, and recovers', async () => {
    const logs: string[] = [];
    const replica = await serve(`http://127.0.0.1:${port}/dist/`, { pollMs: 50, log: (line) => logs.push(line) });
    try {
      const count = (await request(`${replica.url}/v1/cms/event/?limit=1`)).json().count;
      at.answer = (path, _req, res) => path === '/dist/manifest.json' && redirect(res, `http://127.0.0.2:${port}/internal/\u00e4dmin?x=1`);
      await until('/readyz says 503', async () => (await request(`${replica.url}/readyz`)).status === 503);
      const polls = at.asked.filter((p) => p === '/dist/manifest.json').length;
      await until('two more polls', async () => at.asked.filter((p) => p === '/dist/manifest.json').length >= polls + 2);
      const ready = (await request(`${replica.url}/readyz`)).json();
      const problem = `http://127.0.0.1:${port}/dist/manifest.json: refused a redirect to http://127.0.0.2:${port}/internal/%C3%A4dmin?x=1 (another origin); a remote dist is read only from below http://127.0.0.1:${port}/dist/`;
      expect(ready).toMatchObject({ ready: false, problem });
      expect((await request(`${replica.url}/v1/cms/event/?limit=1`)).json().count).toBe(count);
      // one line, however many polls met the same refusal
      expect(logs.filter((l) => l.includes('refused a redirect'))).toEqual([`kept serving the previous data: ${problem} (retrying on every poll until the build is complete)`]);
      expect(other.asked).toEqual([]);
      at.answer = null;
      await until('/readyz says 200 again', async () => (await request(`${replica.url}/readyz`)).status === 200);
      expect((await request(`${replica.url}/readyz`)).json().problem).toBeUndefined();
    } finally {
      at.answer = null;
      await replica.close();
    }
  });
});

// A real TLS origin with a certificate made for the test (openssl), trusted by a child `aula
// serve` through NODE_EXTRA_CA_CERTS: its redirect to the same host over http is refused.
const hasOpenssl = spawnSync('openssl', ['version']).status === 0;
if (!hasOpenssl && process.env.CI) {
  it('openssl is installed (CI has it)', () => {
    throw new Error('openssl is not installed; the TLS origin of this test needs it');
  });
}

describe.skipIf(!hasOpenssl)('aula serve --dist https://…: an https origin redirecting to http', () => {
  let root: string;
  let tls: Server;
  let plain: Server;
  let plainAsked: string[];

  beforeAll(async () => {
    root = tempDir('aula-redirect-tls-');
    const made = spawnSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '2', '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1', '-keyout', join(root, 'key.pem'), '-out', join(root, 'cert.pem')], { encoding: 'utf8' });
    if (made.status !== 0) throw new Error(`openssl: ${made.stderr}`);
    const content = writeContent(join(root, 'content'), FIXTURE_FILES);
    await buildOk({ content, out: join(root, 'dist'), precompress: false });
    const http = origin(root);
    plainAsked = http.asked;
    plain = createServer(http.handler);
    const plainPort = await listen(plain);
    const secure = origin(root);
    secure.answer = (path, _req, res) => path === '/dist/manifest.json' && redirect(res, `http://127.0.0.1:${plainPort}/dist/manifest.json`);
    tls = createHttpsServer({ key: readFileSync(join(root, 'key.pem')), cert: readFileSync(join(root, 'cert.pem')) }, secure.handler);
    await listen(tls);
  });

  afterAll(async () => {
    if (tls) await close(tls);
    if (plain) await close(plain);
    if (root) removeDir(root);
  });

  it('is refused at start: one line, exit 1, nothing asked over http', async () => {
    const url = `https://127.0.0.1:${(tls.address() as AddressInfo).port}/dist/`;
    // (a replica that followed the redirect would serve on: the runner's safety net stops it)
    const { code, err } = await startAula(['serve', '--dist', url, '--port', '0'], { env: { ...process.env, NODE_EXTRA_CA_CERTS: join(root, 'cert.pem') } }).exited;
    expect([code, err.trim().split('\n')]).toEqual([1, [expect.stringMatching(new RegExp(`^aula: ${url.replace(/\./g, '\\.')}manifest\\.json: refused a redirect to http://127\\.0\\.0\\.1:\\d+/dist/manifest\\.json \\(from https to http\\); a remote dist is read only from below ${url.replace(/\./g, '\\.')}$`))]]);
    expect(plainAsked).toEqual([]);
  });
});
