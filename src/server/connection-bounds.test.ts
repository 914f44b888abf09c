import { createServer, type Server } from 'node:http';
import { connect } from 'node:net';
import type { AddressInfo, Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { EVENTUALLY } from '../../test/helpers.ts';
import { connectionBounds, HEADER_FIELD_BYTES, MAX_ANSWERING, MAX_WAITING } from './connection-bounds.ts';

let server: Server | undefined;
afterEach(() => new Promise<void>((ok) => (server ? server.close(() => ok()) : ok())));

/** A real server whose every answer is 4 MB, counting the answers it computes; `sockets`: its end of each connection. */
async function bigAnswers(held?: number, later = false) {
  const counter = { computed: 0 };
  const sockets: Socket[] = [];
  const body = Buffer.alloc(4 * 1024 * 1024, 0x61);
  const bounds = connectionBounds((_req, res) => {
    counter.computed++;
    const answer = () => {
      res.writeHead(200, { 'Content-Length': String(body.length) });
      res.end(body);
    };
    // `later`: as the server answers an expensive request (queued) or a large compressed one (off the loop)
    if (later) setImmediate(answer);
    else answer();
  }, held === undefined ? undefined : { answering: MAX_ANSWERING, waiting: MAX_WAITING, held });
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

  it('cuts the connections holding the most unsent bytes when many clients stop reading, and answers one that reads', async () => {
    const most = 24 * 1024 * 1024;
    const { bounds, sockets, port } = await bigAnswers(most);
    const clients: Socket[] = [];
    const highest = { held: 0 };
    // (a paused client sees no close: the server's end of each connection says it was cut)
    const cut = () => sockets.filter((s) => s.destroyed).length;
    for (let i = 0; i < 8; i++) {
      const socket = connect(port, '127.0.0.1');
      socket.pause();
      socket.on('error', () => {});
      await new Promise((ok) => socket.once('connect', ok));
      socket.write('GET /a HTTP/1.1\r\nHost: x\r\n\r\n'.repeat(MAX_ANSWERING));
      clients.push(socket);
    }
    // eight connections pinning four 4 MB answers each would hold up to 128 MB (less what the
    // kernel's buffers take): some are cut, and what stays is within the bound
    await expect.poll(() => {
      highest.held = Math.max(highest.held, bounds.held);
      return cut();
    }, EVENTUALLY).toBeGreaterThan(0);
    expect(bounds.held).toBeLessThanOrEqual(most);
    expect(highest.held).toBeLessThanOrEqual(most);
    // a client that reads is answered in full beside them
    const reader = connect(port, '127.0.0.1');
    await new Promise((ok) => reader.once('connect', ok));
    reader.write('GET /a HTTP/1.1\r\nHost: x\r\n\r\n');
    let received = 0;
    await new Promise<void>((ok) => reader.on('data', (d: Buffer) => (received += d.length) > 4 * 1024 * 1024 && ok()));
    reader.destroy();
    for (const socket of clients) socket.destroy();
    expect(sockets.length).toBe(9);
  });

  it('bounds answers written after the handler returned, when they are written', async () => {
    // four 4 MB answers pipelined on one connection that does not read: every one is started (held
    // nothing yet) before any is written, and no later request comes to look at them again
    const most = 8 * 1024 * 1024;
    const { counter, sockets, port } = await bigAnswers(most, true);
    const socket = connect(port, '127.0.0.1');
    socket.pause();
    socket.on('error', () => {});
    await new Promise((ok) => socket.once('connect', ok));
    socket.write('GET /a HTTP/1.1\r\nHost: x\r\n\r\n'.repeat(MAX_ANSWERING));
    await expect.poll(() => sockets.length === 1 && sockets[0].destroyed, EVENTUALLY).toBe(true);
    expect(counter.computed).toBe(MAX_ANSWERING);
    socket.destroy();
  });

  it('counts a waiting request by its header fields, not only by their characters', async () => {
    // answers that never end: the fifth request waits
    const kept: unknown[] = [];
    const bounds = connectionBounds((_req, res) => void kept.push(res));
    server = createServer((req, res) => bounds.accept(req, res));
    server.on('connection', (socket: Socket) => bounds.track(socket));
    await new Promise<void>((ok) => server!.listen(0, '127.0.0.1', ok));
    const socket = connect((server.address() as AddressInfo).port, '127.0.0.1');
    socket.on('error', () => {});
    await new Promise((ok) => socket.once('connect', ok));
    // 1,000 headers of 2 characters and no value: 5 KB on the wire, ~55 KB of node's heap while it waits
    const headers = Array.from({ length: 1000 }, (_, i) => `${String.fromCharCode(97 + (i % 26))}${String.fromCharCode(97 + (Math.floor(i / 26) % 26))}:\r\n`).join('');
    socket.write('GET / HTTP/1.1\r\nHost: x\r\n\r\n'.repeat(MAX_ANSWERING) + `GET /w HTTP/1.1\r\nHost: x\r\n${headers}\r\n`);
    await expect.poll(() => bounds.held, EVENTUALLY).toBeGreaterThan(0);
    expect(bounds.held).toBeGreaterThanOrEqual(1000 * (2 * HEADER_FIELD_BYTES + 2));
    expect(HEADER_FIELD_BYTES).toBeGreaterThanOrEqual(27); // half of the ~55 bytes a header measured
    socket.destroy();
  });

  it('counts requests waiting on connections that do not read in the bound, and cuts the connection waiting most', async () => {
    // answers of 23 KB: the kernel takes the first few score of a connection's answers, then four
    // wait unsent (92 KB at most, 1.5 MB over all: under the bound) and the rest of its thousand
    // requests wait; what these connections pin is their waiting requests
    const most = 4 * 1024 * 1024;
    const body = Buffer.alloc(23 * 1024, 0x61);
    const sockets: Socket[] = [];
    const bounds = connectionBounds((_req, res) => {
      res.writeHead(200, { 'Content-Length': String(body.length) });
      res.end(body);
    }, { answering: MAX_ANSWERING, waiting: MAX_WAITING, held: most });
    // (no keep-alive timeout: only the bound cuts a connection here)
    server = createServer({ keepAliveTimeout: 0 }, (req, res) => bounds.accept(req, res));
    server.on('connection', (socket: Socket) => {
      bounds.track(socket);
      sockets.push(socket);
    });
    await new Promise<void>((ok) => server!.listen(0, '127.0.0.1', ok));
    const port = (server.address() as AddressInfo).port;
    const highest = { held: 0 };
    const clients: Socket[] = [];
    // 16 connections × ~1,000 requests waiting × ≥ 2 KB each: 32 MB counted without a cut
    for (let i = 0; i < 16; i++) {
      const socket = connect(port, '127.0.0.1');
      socket.pause();
      socket.on('error', () => {});
      await new Promise((ok) => socket.once('connect', ok));
      socket.write('GET /a HTTP/1.1\r\nHost: x\r\n\r\n'.repeat(1000));
      clients.push(socket);
      highest.held = Math.max(highest.held, bounds.held);
    }
    await expect.poll(() => {
      highest.held = Math.max(highest.held, bounds.held);
      return bounds.cut >= 8;
    }, EVENTUALLY).toBe(true);
    // (a paused client sees no close: the server's end of each connection says it was cut)
    expect(sockets.filter((s) => s.destroyed).length).toBe(bounds.cut);
    expect(highest.held).toBeLessThanOrEqual(most);
    expect(bounds.held).toBeLessThanOrEqual(most);
    for (const socket of clients) socket.destroy();
  });
});
