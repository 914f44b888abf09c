// The request head is bounded by its bytes: node's maxHeaderSize counts only the target and the
// headers' names and values, so 16,300 empty headers (65 KB) went through it. Over a real socket:
// past 16,384 bytes of request line, header lines and the empty line, a 431 JSON and the
// connection closed; a head of exactly 16,384 bytes answered; bodies and pipelined requests
// unaffected. Whitespace node's parser skips is not counted (src/server/head-size.ts says why).
import { connect } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../src/server/http.ts';
import { MAX_HEAD_BYTES } from '../../src/server/head-size.ts';
import { FIXTURE_FILES } from '../fixture-content.ts';
import { buildOk, removeDir, serve, tempDir, writeContent } from '../helpers.ts';

let root: string;
let server: RunningServer;
let port: number;

beforeAll(async () => {
  root = tempDir('aula-head-');
  const content = writeContent(join(root, 'content'), FIXTURE_FILES);
  await buildOk({ content, out: join(root, 'dist'), precompress: false });
  server = await serve(join(root, 'dist'), { watch: false });
  port = Number(new URL(server.url).port);
});
afterAll(async () => {
  await server?.close(1_000);
  if (root) removeDir(root);
});

interface Result {
  /** the status line of each answer, in order */
  statuses: number[];
  bodies: string[];
  /** the server closed the connection */
  closed: boolean;
  /** bytes written before the connection closed */
  sent: number;
}

/**
 * Sends `parts` (each written once the one before is taken by the kernel) on one connection and
 * reads until the server closes it (every exchange here ends with `Connection: close` or a refusal).
 */
function exchange(parts: Iterable<Buffer | string>): Promise<Result> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    let received = Buffer.alloc(0);
    let sent = 0;
    let done = false;
    const finish = (closed: boolean) => {
      if (done) return;
      done = true;
      socket.destroy();
      const text = received.toString('latin1');
      // (an answer follows the body before it on the same line: JSON bodies end without a newline)
      const statuses = [...text.matchAll(/HTTP\/1\.1 (\d{3}) /g)].map((m) => Number(m[1]));
      const bodies = [...text.matchAll(/\r\n\r\n(\{[^\r\n]*?\})(?=HTTP\/1\.1 |$)/g)].map((m) => m[1]);
      resolve({ statuses, bodies, closed, sent });
    };
    socket.on('data', (d) => (received = Buffer.concat([received, d])));
    socket.on('close', () => finish(true));
    socket.on('end', () => finish(true));
    socket.on('error', () => finish(true));
    socket.once('connect', async () => {
      for (const part of parts) {
        if (done) return;
        sent += part.length;
        if (!socket.write(part)) await new Promise((r) => socket.once('drain', r));
      }
    });
  });
}

const TOO_LARGE = '{"detail":"Request line or header fields too large."}';
// no whitespace after the colons: every byte of these heads counts (head-size.ts)
const start = 'GET /v1/cms/event/?limit=1 HTTP/1.1\r\nHost:x\r\nConnection:close\r\n';

/** A request head of exactly `bytes` bytes, its padding in one header's value. */
function headOf(bytes: number, padding = (n: number) => 'a'.repeat(n)): string {
  const before = `${start}X-Pad:`;
  return `${before}${padding(bytes - before.length - 4)}\r\n\r\n`;
}

describe('the request head is bounded by its bytes on the wire', () => {
  it('16,300 empty headers (65 KB; node counts 16 KB of names): 431 JSON, connection closed', async () => {
    const r = await exchange([`${start}${'a:\r\n'.repeat(16_300)}\r\n`]);
    expect(r).toMatchObject({ statuses: [431], bodies: [TOO_LARGE], closed: true });
  });

  it('whitespace node skips is not counted, and holds nothing: a padded value or empty lines before the request line are answered', async () => {
    for (const head of [`${start}X-Pad:${' '.repeat(20_000)}v\r\n\r\n`, `${'\r\n'.repeat(10_000)}${start}\r\n`]) {
      const r = await exchange([head]);
      expect(r.statuses, JSON.stringify(head.slice(0, 60))).toEqual([200]);
    }
  });

  it('many short headers (2,400 of 7 bytes; node counts 9.6 KB of them): 431', async () => {
    const r = await exchange([`${start}${'X-A:b\r\n'.repeat(2_400)}\r\n`]);
    expect(r).toMatchObject({ statuses: [431], bodies: [TOO_LARGE] });
  });

  it(`a head of exactly ${MAX_HEAD_BYTES} bytes is answered, one byte more is 431, sent whole or in pieces`, async () => {
    expect(headOf(MAX_HEAD_BYTES)).toHaveLength(MAX_HEAD_BYTES);
    expect((await exchange([headOf(MAX_HEAD_BYTES)])).statuses).toEqual([200]);
    expect((await exchange([headOf(MAX_HEAD_BYTES + 1)])).statuses).toEqual([431]);
    const pieces = (text: string) => text.match(/[\s\S]{1,1000}/g)!;
    expect((await exchange(pieces(headOf(MAX_HEAD_BYTES)))).statuses).toEqual([200]);
    expect((await exchange(pieces(headOf(MAX_HEAD_BYTES + 1)))).statuses).toEqual([431]);
    // many headers: each line's separators count
    const lines = (n: number) => `${start}${'X-A:b\r\n'.repeat(n)}\r\n`;
    expect((await exchange([lines(2_000)])).statuses).toEqual([200]);
    expect((await exchange([lines(2_400)])).statuses).toEqual([431]);
  });

  it('a header that never ends is cut at the limit: the server stops reading, however much is sent', async () => {
    const megabyte = Buffer.alloc(1 << 20, 'a');
    const endless = function* () {
      yield `${start}X-Pad: `;
      for (let i = 0; i < 256; i++) yield megabyte;
    };
    const r = await exchange(endless());
    expect(r).toMatchObject({ statuses: [431], closed: true });
    // what the kernel's buffers took before the close was noticed, not the 256 MB
    expect(r.sent).toBeLessThan(64 << 20);
  });

  it('bodies are not heads: 1 MB of Content-Length body, a chunked body with trailers, then requests on the same connection', async () => {
    const get = 'GET /v1/cms/event/?limit=1 HTTP/1.1\r\nHost: x\r\n';
    const body = Buffer.alloc(1 << 20, '\r\n');
    const chunked = `${get}Transfer-Encoding: chunked\r\n\r\n4000;ext=1\r\n${'x'.repeat(0x4000)}\r\n0\r\nX-Trailer: ${'t'.repeat(100)}\r\n\r\n`;
    const r = await exchange([`${get}Content-Length: ${body.length}\r\n\r\n`, body, chunked, `${get}Connection: close\r\n\r\n`]);
    expect(r.statuses).toEqual([200, 200, 200]);
  });

  it('pipelined requests, 500 in one write: each head counted on its own, all answered', async () => {
    const one = 'GET /v1/cms/event/?limit=1&fields=id HTTP/1.1\r\nHost: x\r\n\r\n';
    const r = await exchange([`${one.repeat(499)}${one.replace('\r\n\r\n', '\r\nConnection: close\r\n\r\n')}`]);
    expect(r.statuses).toHaveLength(500);
    expect(new Set(r.statuses)).toEqual(new Set([200]));
  });
});
