import { createServer, type Server } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { EVENTUALLY } from '../../test/helpers.ts';
import type { Api } from '../api/core.ts';
import type { ApiResponse } from '../api/respond.ts';
import { charge } from '../query/work-budget.ts';
import type { AccessEntry } from './access-log.ts';
import { cheapFirst, MAX_YIELDS } from './cheap-first.ts';
import { connectionBounds } from './connection-bounds.ts';
import { MAX_PARTS, pathShape, requestCosts, requestShapes } from './request-costs.ts';
import { requestHandler } from './request-handler.ts';

let server: Server | undefined;
const clients: Socket[] = [];
afterEach(async () => {
  for (const client of clients.splice(0)) client.destroy();
  await new Promise<void>((ok) => (server ? server.close(() => ok()) : ok()));
  server = undefined;
});

/**
 * A real server over a stand-in core: `/e` charges 50,000,000 units (work the core counts, not
 * time), everything else 10; each answer's body is its request target. `answered`: the targets
 * in the order the server answered them (its access log); `onAnswer` runs as each is logged.
 */
async function serve(onAnswer: (target: string) => void = () => {}, keeps = false) {
  const answered: string[] = [];
  /** with `keeps`, the answers made so far, which the stand-in core keeps as the real one caches */
  const kept = new Map<string, ApiResponse>();
  const api: Api = (request) => {
    charge(request.path === '/e' ? 50_000_000 : 10, 'work');
    const body = `${request.path}?${request.query}`;
    const response = { status: 200, headers: { 'Content-Type': 'text/plain', 'Content-Length': String(body.length) }, body };
    if (keeps) kept.set(body, response);
    return response;
  };
  if (keeps) api.kept = (request) => kept.get(`${request.path}?${request.query}`);
  const handle = requestHandler(() => api, {
    accessLog: (entry: AccessEntry) => {
      answered.push(entry.target);
      onAnswer(entry.target);
    },
  });
  const bounds = connectionBounds(handle);
  server = createServer((req, res) => bounds.accept(req, res));
  server.on('connection', (socket: Socket) => bounds.track(socket));
  await new Promise<void>((ok) => server!.listen(0, '127.0.0.1', ok));
  const port = (server.address() as AddressInfo).port;
  const open = async () => {
    const socket = connect(port, '127.0.0.1');
    clients.push(socket);
    let text = '';
    socket.setEncoding('latin1').on('data', (chunk: string) => (text += chunk));
    await new Promise((ok) => socket.once('connect', ok));
    /** the bodies of the answers received so far, in the order they arrived */
    const bodies = () => [...text.matchAll(/\r\n\r\n([^\r\n]*?)(?=HTTP\/1\.1 |$)/g)].map((m) => m[1]);
    return { socket, bodies };
  };
  return { answered, open };
}

const get = (target: string) => `GET ${target} HTTP/1.1\r\nHost: x\r\n\r\n`;

describe('cheap requests first', () => {
  it('answers a cheap request pipelined behind expensive ones first, and sends the answers in request order', async () => {
    const { answered, open } = await serve();
    const client = await open();
    // the first request of a shape teaches its cost: answered at once
    client.socket.write(get('/e?n=0'));
    await expect.poll(() => client.bodies().length, EVENTUALLY).toBe(1);
    client.socket.write(get('/e?n=1') + get('/e?n=2') + get('/c?n=3'));
    await expect.poll(() => client.bodies().length, EVENTUALLY).toBe(4);
    expect(answered).toEqual(['/e?n=0', '/c?n=3', '/e?n=1', '/e?n=2']);
    expect(client.bodies()).toEqual(['/e?n=0', '/e?n=1', '/e?n=2', '/c?n=3']);
  });

  it('answers a cheap request that arrives while expensive ones wait before the next expensive one', async () => {
    let cheapClient: Socket | undefined;
    const { answered, open } = await serve((target) => {
      // sent while the other two expensive requests are waiting: it arrives before the next turn
      if (target === '/e?n=1') cheapClient!.write(get('/c?n=9'));
    });
    const attacker = await open();
    const cheap = await open();
    cheapClient = cheap.socket;
    attacker.socket.write(get('/e?n=0'));
    await expect.poll(() => attacker.bodies().length, EVENTUALLY).toBe(1);
    attacker.socket.write(get('/e?n=1') + get('/e?n=2') + get('/e?n=3'));
    await expect.poll(() => attacker.bodies().length + cheap.bodies().length, EVENTUALLY).toBe(5);
    expect(answered).toEqual(['/e?n=0', '/e?n=1', '/c?n=9', '/e?n=2', '/e?n=3']);
    expect(cheap.bodies()).toEqual(['/c?n=9']);
  });
});

describe('an answer the core keeps', () => {
  it('is sent as it is read, ahead of expensive ones waiting, and leaves its shape expensive', async () => {
    const { answered, open } = await serve(undefined, true);
    const client = await open();
    client.socket.write(get('/e?n=0'));
    await expect.poll(() => client.bodies().length, EVENTUALLY).toBe(1);
    // /e?n=0 again: kept, so sent before /e?n=1, which waits its turn as an expensive shape
    client.socket.write(get('/e?n=1') + get('/e?n=0') + get('/e?n=0') + get('/e?n=0'));
    await expect.poll(() => client.bodies().length, EVENTUALLY).toBe(5);
    expect(answered).toEqual(['/e?n=0', '/e?n=0', '/e?n=0', '/e?n=0', '/e?n=1']);
    expect(client.bodies()).toEqual(['/e?n=0', '/e?n=1', '/e?n=0', '/e?n=0', '/e?n=0']);
    // the kept answers counted nothing against the shape: a new one still waits behind a cheap one
    client.socket.write(get('/e?n=2') + get('/c?n=3'));
    await expect.poll(() => client.bodies().length, EVENTUALLY).toBe(7);
    expect(answered.slice(5)).toEqual(['/c?n=3', '/e?n=2']);
  });
});

describe('a queued request whose connection closes', () => {
  it('is not answered, and is logged with status 499 when its turn comes', async () => {
    const log: AccessEntry[] = [];
    const api: Api = (request) => {
      charge(50_000_000, 'work');
      return { status: 200, headers: { 'Content-Type': 'text/plain', 'Content-Length': '2' }, body: 'ok' };
    };
    // a queue whose turns the test runs itself
    const waiting: (() => number)[] = [];
    const expensive = { later: (answer: () => number) => void waiting.push(answer), connected: () => {}, waiting: 0 };
    const closed: Promise<void>[] = [];
    const handle = requestHandler(() => api, { accessLog: (entry) => log.push(entry), expensive });
    server = createServer((req, res) => {
      closed.push(new Promise((ok) => res.once('close', () => ok())));
      handle(req, res);
    });
    await new Promise<void>((ok) => server!.listen(0, '127.0.0.1', ok));
    const port = (server.address() as AddressInfo).port;
    const send = async (target: string) => {
      const socket = connect(port, '127.0.0.1');
      clients.push(socket);
      await new Promise((ok) => socket.once('connect', ok));
      socket.write(get(target));
      return socket;
    };
    // the first teaches the shape's cost; the second is queued
    const first = await send('/e?n=0');
    let firstAnswer = '';
    first.setEncoding('latin1').on('data', (chunk: string) => (firstAnswer += chunk));
    await expect.poll(() => firstAnswer, EVENTUALLY).toContain('\r\n\r\nok');
    const second = await send('/e?n=1');
    await expect.poll(() => waiting.length, EVENTUALLY).toBe(1);
    second.destroy();
    await closed[1];
    expect(waiting[0]()).toBe(0);
    expect(log.map((e) => [e.target, e.status])).toEqual([['/e?n=0', 200], ['/e?n=1', 499]]);
  });
});

describe('cheapFirst', () => {
  const turn = () => new Promise((ok) => setImmediate(ok));

  it('answers one request near the work limit per turn, in the order queued', async () => {
    const queue = cheapFirst();
    const done: number[] = [];
    for (const n of [1, 2, 3]) queue.later(() => (done.push(n), 20_000_000));
    expect(done).toEqual([]);
    await turn();
    expect(done).toEqual([1]);
    await turn();
    await turn();
    expect(done).toEqual([1, 2, 3]);
    expect(queue.waiting).toBe(0);
  });

  it('answers as many queued requests in a turn as fit in its units, at least one', async () => {
    const queue = cheapFirst(MAX_YIELDS, 1_000);
    const done: number[] = [];
    // 400 + 400 + 400 reach 1,000 with the third: the fourth waits a turn
    for (const n of [1, 2, 3, 4, 5]) queue.later(() => (done.push(n), 400));
    await turn();
    expect(done).toEqual([1, 2, 3]);
    expect(queue.waiting).toBe(2);
    await turn();
    expect(done).toEqual([1, 2, 3, 4, 5]);
    // an answer counting more than a turn's units alone is still made, one per turn
    queue.later(() => (done.push(6), 5_000));
    queue.later(() => (done.push(7), 5_000));
    await turn();
    expect(done.slice(5)).toEqual([6]);
    await turn();
    expect(done.slice(5)).toEqual([6, 7]);
  });

  it('leaves the rest of the queue for the next turn when an answer throws', async () => {
    const queue = cheapFirst();
    const done: number[] = [];
    const thrown: unknown[] = [];
    // the throw surfaces as an uncaught exception of the immediate: caught here, not by the runner
    const runners = process.listeners('uncaughtException');
    process.removeAllListeners('uncaughtException');
    process.on('uncaughtException', (e) => thrown.push(e));
    try {
      queue.later(() => {
        throw new Error('answer failed');
      });
      queue.later(() => (done.push(2), 0));
      await expect.poll(() => thrown.length, EVENTUALLY).toBe(1);
      await expect.poll(() => done, EVENTUALLY).toEqual([2]);
      expect(queue.waiting).toBe(0);
    } finally {
      process.removeAllListeners('uncaughtException');
      for (const l of runners) process.on('uncaughtException', l);
    }
  });

  it('waits a turn while connections are accepted, at most its number of turns in a row', async () => {
    const queue = cheapFirst(3);
    const done: number[] = [];
    queue.later(() => (done.push(1), 0));
    queue.connected();
    await turn();
    expect(done).toEqual([]);
    // no connection in that turn: answered in the next
    await turn();
    expect(done).toEqual([1]);
    queue.later(() => (done.push(2), 0));
    for (let i = 0; i < 3; i++) {
      queue.connected();
      await turn();
    }
    expect(done).toEqual([1]);
    // a fourth turn with a connection: answered anyway
    queue.connected();
    await turn();
    expect(done).toEqual([1, 2]);
  });
});

describe('requestCosts', () => {
  const shape = (key: string, ...parts: string[]) => ({ key, parts });

  it('counts an unknown shape as cheap, learns an expensive one, and keeps it over a few kept answers', () => {
    const costs = requestCosts({ shapes: 8, expensiveUnits: 1000 });
    expect(costs.expensive(shape('a'))).toBe(false);
    costs.record(shape('a'), 5000);
    expect(costs.expensive(shape('a'))).toBe(true);
    costs.record(shape('a'), 0);
    costs.record(shape('a'), 0);
    expect(costs.expensive(shape('a'))).toBe(true);
    costs.record(shape('a'), 0);
    expect(costs.expensive(shape('a'))).toBe(false);
  });

  it('is not made expensive by one costlier answer among cheap ones, and is by a few of them', () => {
    const costs = requestCosts({ shapes: 8, expensiveUnits: 1000 });
    for (let i = 0; i < 5; i++) costs.record(shape('a'), 300);
    costs.record(shape('a'), 3000);
    expect(costs.expensive(shape('a'))).toBe(false);
    costs.record(shape('a'), 300);
    expect(costs.expensive(shape('a'))).toBe(false);
    costs.record(shape('a'), 3000);
    costs.record(shape('a'), 3000);
    expect(costs.expensive(shape('a'))).toBe(true);
    // far costlier at once: expensive after one
    costs.record(shape('b'), 300);
    costs.record(shape('b'), 100_000);
    expect(costs.expensive(shape('b'))).toBe(true);
  });

  it('judges a shape not seen yet by its names: a new combination of an expensive name is expensive', () => {
    const costs = requestCosts({ shapes: 16, expensiveUnits: 1000 });
    costs.record(shape('regex', '~regex'), 5000);
    costs.record(shape('title', '~title'), 10);
    expect(costs.expensive(shape('regex+title', '~regex', '~title'))).toBe(true);
    expect(costs.expensive(shape('title+limit', '~title', '~limit'))).toBe(false);
    // once answered cheaply, the combination is judged by its own cost
    costs.record(shape('regex+title', '~regex', '~title'), 10);
    expect(costs.expensive(shape('regex+title', '~regex', '~title'))).toBe(false);
  });

  it('remembers a bounded number of shapes, forgetting the least recently answered', () => {
    const costs = requestCosts({ shapes: 3, expensiveUnits: 1000 });
    for (const key of ['a', 'b', 'c']) costs.record(shape(key), 5000);
    costs.record(shape('a'), 5000);
    costs.record(shape('d'), 5000);
    expect(costs.size).toBe(3);
    expect(['a', 'b', 'c', 'd'].map((key) => costs.expensive(shape(key)))).toEqual([true, false, true, true]);
  });
});

describe('requestShapes', () => {
  const shapes = requestShapes({ names: 8 });
  const shape = (target: string, accept?: string) => shapes.shapeOf('GET', target.split('?')[0], target.split('?')[1] ?? '', accept).key;
  shapes.learn('teaser__iregex=a&teaser__icontains=b&limit=1&format=json&_v=1', 200, '_v');

  it('is the path, the parameter names the API takes, the representation and the size of a page: not the values', () => {
    expect(shape('/v1/cms/event/?teaser__iregex=a')).toBe(shape('/v1/cms/event/?teaser__iregex=%5Cd'));
    expect(shape('/v1/cms/event/?teaser__iregex=a')).not.toBe(shape('/v1/cms/event/?teaser__icontains=a'));
    expect(shape('/v1/cms/event/?limit=1')).not.toBe(shape('/v1/cms/event/?limit=1000'));
    expect(shape('/v1/cms/event/?limit=1')).not.toBe(shape('/v1/cms/event/?limit=1', 'text/html'));
    expect(shape('/v1/cms/event/?format=json')).not.toBe(shape('/v1/cms/event/?format=ics'));
  });

  it('holds the id of an event, or any segment of digits, as one: every detail is one shape', () => {
    expect(shape('/v1/cms/event/12/')).toBe(shape('/v1/cms/event/345678/'));
    expect(shape('/v1/cms/event/12/')).toBe('GET /v1/cms/event/#/ 0 ');
    expect(shape('/v1/cms/event/12?format=json')).toBe(shape('/v1/cms/event/9?format=json'));
    expect(pathShape('/v1/cms/event/12a/')).toBe('/v1/cms/event/12a/');
    expect(pathShape('/v1/1/2')).toBe('/v1/#/#');
    expect(pathShape('/v1/cms/event/')).toBe('/v1/cms/event/');
    expect(pathShape('/')).toBe('/');
    // twenty thousand details are one entry of the costs, not thousands pushing the others out
    const costs = requestCosts();
    for (let id = 0; id < 20_000; id++) costs.record(shapes.shapeOf('GET', `/v1/cms/event/${id}/`, '', undefined), 10);
    expect(costs.size).toBe(1);
  });

  it('leaves out the names the API ignores, so varying them makes no new shape', () => {
    expect(shape('/v1/cms/event/?teaser__iregex=a&_v=1')).toBe(shape('/v1/cms/event/?_v=2&teaser__iregex=a&x1=3'));
    // a list the core cut short teaches nothing; a route it does not know (404) neither
    shapes.learn('x2=1', 200, 'y, ...');
    shapes.learn('x3=1', 404, undefined);
    expect(shape('/v1/cms/event/?x2=1&x3=1')).toBe(shape('/v1/cms/event/'));
    expect(shape(`/v1/cms/event/?${'x'.repeat(10_000)}=1`).length).toBeLessThanOrEqual(512);
  });

  it('reads names and the format as the core does: an escaped or `+` spelling is the same shape', () => {
    expect(shape('/v1/cms/event/?teaser%5F%5Firegex=a')).toBe(shape('/v1/cms/event/?teaser__iregex=a'));
    expect(shape('/v1/cms/event/?format=%69cs')).toBe(shape('/v1/cms/event/?format=ics'));
    expect(shape('/v1/cms/event/?teaser%5F%5Firegex=a')).not.toBe(shape('/v1/cms/event/'));
  });

  it('judges and records at most MAX_PARTS names of one request on their own', () => {
    const many = requestShapes({ names: 100 });
    const names = Array.from({ length: 100 }, (_, i) => `n${i}`);
    many.learn(names.map((n) => `${n}=1`).join('&'), 200, undefined);
    expect(many.shapeOf('GET', '/v1/cms/event/', names.map((n) => `${n}=1`).join('&'), undefined).parts).toHaveLength(MAX_PARTS);
  });

  it('learns a bounded number of names', () => {
    for (let i = 0; i < 20; i++) shapes.learn(`n${i}=1`, 200, undefined);
    expect(shapes.knownNames).toBe(8);
  });
});
