// Requests the server refuses early (oversized request line/headers, slow clients), bodies on GET,
// Host / X-Forwarded-* headers that must not change any URL, and path traversal — over a raw
// socket, so that no client library normalizes what is sent.
import fc from 'fast-check';
import { connect } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../src/server/http.ts';
import { loadDataset } from '../../src/query/dataset.ts';
import { copyOfSampleDist, firstPart, removeDir, sampleDist, serve, tempDir } from '../helpers.ts';

interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

interface Exchange {
  responses: RawResponse[];
  /** whether the server closed the connection (rather than the timeout ending the exchange) */
  closed: boolean;
  /** ms from connecting until the server closed the connection, or the exchange ended */
  ms: number;
}

/** Parses complete HTTP/1.1 responses from the front of `buf`; returns them and the rest. `bodiless(i)`: response i answers a HEAD. */
function parseResponses(buf: Buffer, first: number, bodiless: (i: number) => boolean): [RawResponse[], Buffer] {
  const out: RawResponse[] = [];
  for (;;) {
    const end = buf.indexOf('\r\n\r\n');
    if (end === -1) return [out, buf];
    const [statusLine, ...lines] = buf.subarray(0, end).toString('latin1').split('\r\n');
    const headers: Record<string, string> = {};
    for (const line of lines) {
      const colon = line.indexOf(':');
      headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
    }
    let rest = buf.subarray(end + 4);
    let body: Buffer;
    if (headers['transfer-encoding'] === 'chunked') {
      const chunks: Buffer[] = [];
      for (;;) {
        const eol = rest.indexOf('\r\n');
        if (eol === -1) return [out, buf];
        const size = parseInt(rest.subarray(0, eol).toString(), 16);
        if (rest.length < eol + 2 + size + 2) return [out, buf];
        chunks.push(rest.subarray(eol + 2, eol + 2 + size));
        rest = rest.subarray(eol + 2 + size + 2);
        if (size === 0) break;
      }
      body = Buffer.concat(chunks);
    } else {
      const length = bodiless(first + out.length) ? 0 : Number(headers['content-length'] ?? 0);
      if (rest.length < length) return [out, buf];
      body = rest.subarray(0, length);
      rest = rest.subarray(length);
    }
    out.push({ status: Number(statusLine.split(' ')[1]), headers, body: body.toString('utf8') });
    buf = rest;
  }
}

/**
 * Sends `parts` in order (a number is a pause in ms) over one connection and collects responses
 * until `responses` have arrived, the server closes, or `timeoutMs` passes (a safety net: every
 * exchange here ends by itself).
 */
function exchange(
  port: number,
  parts: (string | Buffer | number)[],
  { responses = 1, timeoutMs = 100_000, heads = [] as number[] } = {},
): Promise<Exchange> {
  return new Promise((resolve) => {
    const started = performance.now();
    const socket = connect(port, '127.0.0.1');
    let buf: Buffer = Buffer.alloc(0);
    const got: RawResponse[] = [];
    let done = false;
    const finish = (closed: boolean) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.destroy();
      resolve({ responses: got, closed, ms: performance.now() - started });
    };
    const timer = setTimeout(() => finish(false), timeoutMs);
    socket.on('data', (d) => {
      buf = Buffer.concat([buf, d]);
      const [parsed, rest] = parseResponses(buf, got.length, (i) => heads.includes(i));
      got.push(...parsed);
      buf = rest;
      if (got.length >= responses && responses > 0) finish(false);
    });
    socket.on('close', () => finish(true));
    socket.on('error', () => {});
    socket.once('connect', async () => {
      for (const part of parts) {
        if (done) return;
        if (typeof part === 'number') await new Promise((r) => setTimeout(r, part));
        else socket.write(part);
      }
    });
  });
}

const request = (target: string, headers: Record<string, string> = {}) =>
  `GET ${target} HTTP/1.1\r\n${Object.entries({ Host: 'localhost', Connection: 'close', ...headers })
    .map(([k, v]) => `${k}: ${v}\r\n`)
    .join('')}\r\n`;

async function once(port: number, target: string, headers: Record<string, string> = {}): Promise<RawResponse> {
  const { responses } = await exchange(port, [request(target, headers)]);
  expect(responses, target).toHaveLength(1);
  return responses[0];
}

let root: string;
let dist: string;
let server: RunningServer;
let port: number;

beforeAll(async () => {
  root = tempDir('aula-limits-');
  // (a copy: a test deletes it)
  dist = copyOfSampleDist(join(root, 'dist'));
  server = await serve(dist, { watch: false });
  port = Number(new URL(server.url).port);
});
afterAll(async () => {
  await server?.close(1_000);
  removeDir(root);
});

const TOO_LARGE = { detail: 'Request line or header fields too large.' };

describe('requests refused before they reach the core', () => {
  it('an oversized request line → 431 JSON, connection closed (node counts the line into the 16 KB header limit)', async () => {
    for (const size of [17_000, 40_000, 200_000]) {
      const { responses, closed } = await exchange(port, [request(`/v1/cms/event/?title=${'x'.repeat(size)}`)]);
      expect(responses, String(size)).toHaveLength(1);
      expect(responses[0].status).toBe(431);
      expect(responses[0].headers['content-type']).toBe('application/json');
      expect(responses[0].headers.connection).toBe('close');
      expect(JSON.parse(responses[0].body)).toEqual(TOO_LARGE);
      expect(closed || responses.length === 1).toBe(true);
    }
    // just under the limit: answered by the core
    const fits = await once(port, `/v1/cms/event/?limit=1&fields=id&title__icontains=${'x'.repeat(15_000)}`);
    expect(fits.status).toBe(200);
  });

  it('oversized header fields → 431 JSON: one huge header, or many small ones', async () => {
    for (const headers of [
      { 'X-Big': 'y'.repeat(20_000) },
      Object.fromEntries(Array.from({ length: 1_500 }, (_, i) => [`X-H${i}`, 'abcdefghij'])),
      { Cookie: 'c='.repeat(9_000) },
    ]) {
      const r = await once(port, '/v1/cms/event/', headers);
      expect(r.status).toBe(431);
      expect(JSON.parse(r.body)).toEqual(TOO_LARGE);
    }
  });

  it('a malformed request → 400 JSON', async () => {
    for (const raw of ['BLAH\r\n\r\n', 'GET /v1/cms/event/\0 HTTP/1.1\r\nHost: x\r\n\r\n', 'GET / HTTP/9.9\r\nHost: x\r\n\r\n', 'G@T / HTTP/1.1\r\n\r\n']) {
      const { responses } = await exchange(port, [raw]);
      expect(responses, JSON.stringify(raw)).toHaveLength(1);
      expect(responses[0].status).toBe(400);
      expect(JSON.parse(responses[0].body)).toEqual({ detail: 'Bad request.' });
    }
  });

  it('the default server sets header, request and keep-alive timeouts', () => {
    expect(server.server.headersTimeout).toBe(10_000);
    expect(server.server.requestTimeout).toBe(30_000);
    expect(server.server.keepAliveTimeout).toBe(5_000);
    expect((server.server as unknown as { maxHeaderSize: number }).maxHeaderSize).toBe(16 * 1024);
  });
});

describe('slow clients', () => {
  let slow: RunningServer;
  let slowPort: number;
  const HEADERS_MS = 300;
  const REQUEST_MS = 800;
  beforeAll(async () => {
    slow = await serve(dist, { watch: false, headersTimeoutMs: HEADERS_MS, requestTimeoutMs: REQUEST_MS });
    slowPort = Number(new URL(slow.url).port);
  });
  afterAll(() => slow?.close(1_000));

  it('a partial request line, then nothing: 408 JSON and closed within headersTimeout', async () => {
    // the server's own bound, which node enforces (checking every headersTimeout/4 here): how
    // soon after it the connection closes depends on how busy the machine is
    expect([slow.server.headersTimeout, slow.server.requestTimeout]).toEqual([HEADERS_MS, REQUEST_MS]);
    for (const parts of [['GET /v1/cms/ev'], [], ['GET /v1/cms/event/ HTTP/1.1\r\nHost: x\r\n'], ['G', 100, 'E', 100, 'T', 100, ' /', 100, 'v']]) {
      const { responses, closed, ms } = await exchange(slowPort, parts, { responses: 0 });
      expect(closed, JSON.stringify(parts)).toBe(true);
      // not before it
      expect(ms).toBeGreaterThanOrEqual(HEADERS_MS - 20);
      expect(responses.map((r) => r.status)).toEqual([408]);
      expect(JSON.parse(responses[0].body)).toEqual({ detail: 'Request timeout.' });
    }
  });

  it('a body that never finishes: the answer is sent, then the connection closed at requestTimeout, no stray 408', async () => {
    const head = 'GET /v1/cms/event/?limit=1&fields=id HTTP/1.1\r\nHost: x\r\nContent-Length: 100000\r\n\r\n';
    const { responses, closed, ms } = await exchange(slowPort, [head, 'abc', 200, 'def'], { responses: 0 });
    expect(closed).toBe(true);
    expect(ms).toBeGreaterThanOrEqual(REQUEST_MS - 20);
    expect(responses.map((r) => r.status)).toEqual([200]);
  });

  it('a client that keeps sending in time is not cut off', async () => {
    // pauses well within the bound however busy the machine: the same server with more time
    const patient = await serve(dist, { watch: false, headersTimeoutMs: HEADERS_MS * 100, requestTimeoutMs: REQUEST_MS * 100 });
    try {
      const parts = ['GET /v1/cms/event/?limit=1&fields=id HTTP/1.1\r\n', 150, 'Host: x\r\n', 100, 'Connection: close\r\n\r\n'];
      const { responses } = await exchange(Number(new URL(patient.url).port), parts);
      expect(responses.map((r) => r.status)).toEqual([200]);
    } finally {
      await patient.close(1_000);
    }
  });
});

describe('bodies on GET', () => {
  it('are ignored: a normal 200, and the connection serves a second request', async () => {
    const body = Buffer.alloc(1024 * 1024, 'b');
    const first = `GET /v1/cms/event/?limit=1&fields=id HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`;
    const second = request('/v1/cms/event/?limit=2&fields=id');
    const { responses } = await exchange(port, [first, body, second], { responses: 2 });
    expect(responses.map((r) => r.status)).toEqual([200, 200]);
    expect(JSON.parse(responses[0].body).results).toHaveLength(1);
    expect(JSON.parse(responses[1].body).results).toHaveLength(2);
  });

  it('also chunked, and also on HEAD and OPTIONS', async () => {
    const chunked = 'GET /v1/cms/event/?limit=1&fields=id HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n3\r\nabc\r\n0\r\n\r\n';
    const head = 'HEAD /v1/cms/event/ HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nhello';
    const options = 'OPTIONS /v1/cms/event/ HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\n{}';
    const { responses } = await exchange(port, [chunked, head, options, request('/v1/cms/event/?limit=1&fields=id')], { responses: 4, heads: [1] });
    expect(responses.map((r) => r.status)).toEqual([200, 200, 200, 200]);
    expect(responses[1].body).toBe('');
    expect(JSON.parse(responses[2].body).name).toBe('Event List');
    expect(JSON.parse(responses[3].body).results).toHaveLength(1);
  });
});

describe('Host and X-Forwarded-* never change a URL in a response', () => {
  const PATHS: [string, Record<string, string>][] = [
    ['/v1/cms/event/?limit=2&offset=4', {}],
    ['/v1/cms/event/?limit=2&offset=4', { Accept: 'text/html' }],
    ['/v1/api/autocomplete/?q=a&limit=1&offset=1', {}],
    ['/v1/schema/', {}],
    ['/v1/cms/event?limit=1', {}],
    ['/v1/cms/event/?format=ics&limit=1', {}],
  ];
  const FORWARDING = ['X-Forwarded-Host', 'X-Forwarded-Proto', 'X-Forwarded-Port', 'X-Forwarded-Prefix', 'X-Forwarded-For', 'X-Forwarded-Server',
    'Forwarded', 'X-Original-URL', 'X-Rewrite-URL', 'X-Original-Host', 'X-Host', 'X-Forwarded-Scheme', 'X-Url-Scheme', 'Front-End-Https'];
  const visible = fc.string({ unit: fc.integer({ min: 0x21, max: 0x7e }).map((c) => String.fromCharCode(c)), minLength: 1, maxLength: 40 });
  const hostValue = fc.oneof(
    visible,
    fc.constantFrom('evil.example', 'evil.example:666', 'attacker.test/x?', '127.0.0.1:1', '[::1]:9', 'https://evil.example', 'for=1.2.3.4;host=evil;proto=https',
      '/admin', 'x"><script>alert(1)</script>', 'https', 'http', '443', 'on', 'evil.example, other.example'),
  );
  let pristine: RawResponse[];
  let withDetail: [string, Record<string, string>][];

  beforeAll(async () => {
    const id = loadDataset(dist).events.table.columns.id[0];
    withDetail = [...PATHS, [`/v1/cms/event/${id}/`, {}]];
    pristine = [];
    for (const [path, headers] of withDetail) pristine.push(await once(port, path, headers));
  });

  const same = (a: RawResponse, b: RawResponse) => {
    expect(a.status).toBe(b.status);
    expect(a.body).toBe(b.body);
    expect(a.headers.etag).toBe(b.headers.etag);
    expect(a.headers.location).toBe(b.headers.location);
  };

  it('property: random Host and forwarding headers give byte-identical answers', async () => {
    const headerSet = fc.tuple(hostValue, fc.uniqueArray(fc.tuple(fc.constantFrom(...FORWARDING), hostValue), { maxLength: 5, selector: ([k]) => k }));
    await fc.assert(
      fc.asyncProperty(headerSet, async ([host, forwarding]) => {
        for (let i = 0; i < withDetail.length; i++) {
          const [path, headers] = withDetail[i];
          const r = await once(port, path, { ...headers, Host: host, ...Object.fromEntries(forwarding) });
          same(r, pristine[i]);
          if (host.length >= 6 && !pristine[i].body.includes(host)) expect(r.body).not.toContain(host);
        }
      }),
      { numRuns: 60 },
    );
  });

  it('an absolute-form request target does not either', async () => {
    for (let i = 0; i < withDetail.length; i++) {
      const [path, headers] = withDetail[i];
      same(await once(port, `http://evil.example:81${path}`, headers), pristine[i]);
      same(await once(port, `https://evil.example${path}`, { ...headers, Host: 'evil.example' }), pristine[i]);
    }
  });

  it('links use the configured base URL, not the address the server listens on', () => {
    const page = JSON.parse(pristine[0].body);
    expect(page.next).toMatch(/^http:\/\/127\.0\.0\.1:8000\/v1\/cms\/event\/\?/);
    expect(server.url).not.toBe('http://127.0.0.1:8000');
  });
});

describe('path traversal', () => {
  const TRAVERSALS = [
    '/..%2fmanifest.json', '/%2e%2e/manifest.json', '/%2e%2e%2fmanifest.json', '/v1/cms/event/..%2f..%2fmanifest.json',
    '/v1/cms/event/..%2f..%2f..%2fmanifest.json', '/v1/cms/event/%2e%2e%2f%2e%2e%2f%2e%2e%2fmanifest.json', '/v1/cms/event/%252e%252e%252fmanifest.json',
    '/v1/cms/event/..%252f..%252fmanifest.json', '/v1/cms/event/../../../manifest.json', '/v1/cms/event/..\\..\\..\\manifest.json',
    '/v1/cms/event/%c0%ae%c0%ae/', '/v1/cms/event/%2e%2e/', '/v1/cms/event/../', '/v1/cms/event/.%2e/', '/v1/cms/event/42/..%2f..%2f..%2fmanifest.json',
    '/v1/api/autocomplete/..%2f..%2f..%2fautocomplete%2findex.json', '/v1/api/autocomplete/../../../autocomplete/index.json',
    // (/events.ics, /openapi.json and /autocomplete/* are public files: test/nginx.test.ts serves them)
    '/manifest.json', `/data/events/${firstPart(sampleDist())}.jsonl`, '/data/columns/title.text.bin', '/data/media-files.json', '/autocomplete/index.json.x',
    '/v1/cms/event/index.json', '/v1/cms/event/offset/20.json', '/events.ics.gz', '/_redirects', '/deploy/nginx.conf', '/deploy/nginx-server.conf',
    '/v1/cms/event/%00/', '/v1/cms/event/%2f/', '//etc/passwd', '/..%2f..%2f..%2f..%2fetc%2fpasswd', '/v1/cms/event/%2e%2e%5c%2e%2e%5cmanifest.json',
    '/v1/schema/..%2f..%2fmanifest.json', '/v1/cms/event/.%252e/.%252e/manifest.json', '/%2e%2e/%2e%2e/%2e%2e/%2e%2e/etc/passwd',
  ];
  const LEAKS = ['"built_at"', '"base_url"', 'aula-autocomplete', 'root:', '"counts"', 'proxy_pass'];

  async function check() {
    for (const target of TRAVERSALS) {
      const r = await once(port, target);
      expect(r.status, target).toBe(404);
      expect(r.headers['content-type'], target).toBe('application/json');
      expect(JSON.parse(r.body), target).toEqual({ detail: 'Not found.' });
      for (const leak of LEAKS) expect(r.body, target).not.toContain(leak);
    }
  }

  it('every traversal → 404 JSON, nothing of dist/ leaks', check);

  it('the server reads no file after start: with dist/ deleted it answers exactly as before', async () => {
    const id = loadDataset(dist).events.table.columns.id[0];
    const targets = ['/v1/cms/event/?limit=3&offset=3', `/v1/cms/event/${id}/`, '/v1/api/autocomplete/?q=mar', '/v1/schema/', '/v1/cms/event/?format=ics'];
    const before = await Promise.all(targets.map((t) => once(port, t)));
    removeDir(dist);
    const after = await Promise.all(targets.map((t) => once(port, t)));
    for (let i = 0; i < targets.length; i++) {
      expect(after[i].status, targets[i]).toBe(200);
      expect(after[i].body, targets[i]).toBe(before[i].body);
    }
    await check();
  });
});
