import { createServer, type Server } from 'node:http';
import { connect } from 'node:net';
import type { AddressInfo, Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { EVENTUALLY } from '../../test/helpers.ts';
import { connectionBounds, MAX_ANSWERING } from './connection-bounds.ts';

let server: Server | undefined;
afterEach(() => new Promise<void>((ok) => (server ? server.close(() => ok()) : ok())));

/** A real server whose every answer is 4 MB, counting the answers it computes; `sockets`: its end of each connection. */
async function bigAnswers() {
  const counter = { computed: 0 };
  const sockets: Socket[] = [];
  const body = Buffer.alloc(4 * 1024 * 1024, 0x61);
  const bounds = connectionBounds((_req, res) => {
    counter.computed++;
    res.writeHead(200, { 'Content-Length': String(body.length) });
    res.end(body);
  });
  server = createServer((req, res) => bounds.accept(req, res));
  server.on('connection', (socket: Socket) => {
    bounds.track(socket);
    sockets.push(socket);
  });
  await new Promise<void>((ok) => server!.listen(0, '127.0.0.1', ok));
  return { bounds, counter, sockets, port: (server.address() as AddressInfo).port };
}

describe('connectionBounds', () => {
  it('computes at most a few answers for a client that pipelines and does not read, and forgets it on close', async () => {
    const { bounds, counter, sockets, port } = await bigAnswers();
    const socket = connect(port, '127.0.0.1');
    socket.pause();
    await new Promise((ok) => socket.once('connect', ok));
    socket.write('GET /a HTTP/1.1\r\nHost: x\r\n\r\n'.repeat(100));
    // the server has read the requests and stopped reading more: the rest wait uncomputed
    await expect.poll(() => sockets.length === 1 && sockets[0].isPaused() && counter.computed >= MAX_ANSWERING, EVENTUALLY).toBe(true);
    const [serverSide] = sockets;
    expect(bounds.busy(serverSide)).toBe(true);
    expect(counter.computed).toBeLessThanOrEqual(MAX_ANSWERING + 1);
    expect(bounds.size).toBe(1);
    // its 'close' listener runs after the bounds' own
    const closed = new Promise((ok) => serverSide.once('close', ok));
    socket.destroy();
    await closed;
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
    // the end of the chunk before, so a status line split between two chunks is counted too
    let carry = '';
    await new Promise<void>((ok) =>
      socket.on('data', (d: Buffer) => {
        received += d.length;
        const text = carry + d.toString('latin1');
        statusLines += text.split('HTTP/1.1 200').length - 1;
        carry = text.slice(-11);
        // every answer's head comes before its body: all 20 bodies in, all 20 heads are
        if (received > 20 * 4 * 1024 * 1024) ok();
      }),
    );
    expect(statusLines).toBe(20);
    socket.destroy();
  });
});
