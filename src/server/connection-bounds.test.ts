import { createServer, type Server } from 'node:http';
import { connect } from 'node:net';
import type { AddressInfo, Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { connectionBounds, MAX_ANSWERING } from './connection-bounds.ts';

let server: Server | undefined;
afterEach(() => new Promise<void>((ok) => (server ? server.close(() => ok()) : ok())));

/** A real server whose every answer is 4 MB, counting the answers it computes. */
async function bigAnswers() {
  const counter = { computed: 0 };
  const body = Buffer.alloc(4 * 1024 * 1024, 0x61);
  const bounds = connectionBounds((_req, res) => {
    counter.computed++;
    res.writeHead(200, { 'Content-Length': String(body.length) });
    res.end(body);
  });
  server = createServer((req, res) => bounds.accept(req, res));
  server.on('connection', (socket: Socket) => bounds.track(socket));
  await new Promise<void>((ok) => server!.listen(0, '127.0.0.1', ok));
  return { bounds, counter, port: (server.address() as AddressInfo).port };
}

const sleep = (ms: number) => new Promise((ok) => setTimeout(ok, ms));

describe('connectionBounds', () => {
  it('computes at most a few answers for a client that pipelines and does not read, and forgets it on close', async () => {
    const { bounds, counter, port } = await bigAnswers();
    const socket = connect(port, '127.0.0.1');
    socket.pause();
    await new Promise((ok) => socket.once('connect', ok));
    socket.write('GET /a HTTP/1.1\r\nHost: x\r\n\r\n'.repeat(100));
    await sleep(300);
    expect(counter.computed).toBeGreaterThan(0);
    expect(counter.computed).toBeLessThanOrEqual(MAX_ANSWERING + 1);
    expect(bounds.size).toBe(1);
    socket.destroy();
    await sleep(200);
    expect(bounds.size).toBe(0);
    expect(counter.computed).toBeLessThanOrEqual(MAX_ANSWERING + 1);
  });

  it('answers every pipelined request, in order, to a client that reads', async () => {
    const { port } = await bigAnswers();
    const socket = connect(port, '127.0.0.1');
    await new Promise((ok) => socket.once('connect', ok));
    socket.write('GET /a HTTP/1.1\r\nHost: x\r\n\r\n'.repeat(20));
    let received = 0;
    let statusLines = 0;
    await new Promise<void>((ok) =>
      socket.on('data', (d: Buffer) => {
        received += d.length;
        statusLines += d.toString('latin1').split('HTTP/1.1 200').length - 1;
        if (received > 20 * 4 * 1024 * 1024) ok();
      }),
    );
    await sleep(100);
    expect(statusLines).toBe(20);
    socket.destroy();
  }, 30_000);
});
