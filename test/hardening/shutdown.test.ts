// SIGTERM with a request in flight: `aula serve` stops accepting, finishes the response it is
// sending (a page far larger than the kernel's socket buffers, to a client that is not reading),
// and exits 0 once it is out (its 9 s grace for busy connections is not reached here). With one
// process and with workers.
import { connect } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAula } from '../aula-cli.ts';
import { buildOk, EVENTUALLY, removeDir, tempDir, writeContent } from '../helpers.ts';
import { FIXTURE_FILES } from '../fixture-content.ts';
const EVENTS = 20;
const BODY_BYTES = 800_000;

let root: string;
let dist: string;

beforeAll(async () => {
  root = tempDir('aula-drain-');
  // 20 events of 0.8 MB each: the first page is a ~16 MB answer, within a request's work limit (a
  // page past it is refused, 400 "Too expensive": a few bytes, and nothing left in flight)
  const events = Array.from({ length: EVENTS }, (_, i) => ({
    id: 1_000 + i,
    title: `Event ${i}`,
    start: `2025-05-${String(i + 1).padStart(2, '0')}T10:00:00+02:00`,
    end: `2025-05-${String(i + 1).padStart(2, '0')}T11:00:00+02:00`,
    teaser: 'large',
    body: `<p>${'x'.repeat(BODY_BYTES)}</p>`,
    last_modified: '2025-04-01T10:00:00+02:00',
  }));
  const content = writeContent(join(root, 'content'), {
    'site.yaml': FIXTURE_FILES['site.yaml'].replace(/page_size: 2\nmax_page_size: 3/, 'page_size: 20\nmax_page_size: 20'),
    // a file each: 16 MB is more than one content file may hold
    ...Object.fromEntries(events.map((event) => [`events/large-${event.id}.json`, JSON.stringify([event])])),
  });
  dist = join(root, 'dist');
  await buildOk({ content, out: dist, precompress: false });
});
afterAll(() => removeDir(root));

const refused = (port: number) =>
  new Promise<boolean>((ok) => {
    const s = connect(port, '127.0.0.1');
    s.on('connect', () => {
      s.destroy();
      ok(false);
    });
    s.on('error', () => ok(true));
  });

describe('SIGTERM with a request in flight', () => {
  for (const workers of [1, 2]) {
    it(`finishes the response, refuses new connections, exits 0 (${workers} worker${workers > 1 ? 's' : ''})`, async () => {
      const serve = startAula(['serve', '--dist', dist, '--port', '0', '--workers', String(workers)]);
      try {
        const port = Number(new URL(await serve.origin).port);
        const socket = connect(port, '127.0.0.1');
        await new Promise((ok) => socket.once('connect', ok));
        const chunks: Buffer[] = [];
        socket.on('data', (d) => chunks.push(d));
        socket.write('GET /v1/cms/event/ HTTP/1.1\r\nHost: x\r\nAccept-Encoding: identity\r\n\r\n');
        // its first bytes have come: the answer is on its way, and stops there while this client does not read
        await new Promise((ok) => socket.once('data', ok));
        socket.pause();

        serve.child.kill('SIGTERM');
        // no longer accepting …
        await expect.poll(() => refused(port), EVENTUALLY).toBe(true);
        // … but still running: the answer has not all been handed over yet
        expect(serve.child.exitCode, serve.err).toBe(null);

        // now read it, all of it
        const closed = new Promise((ok) => socket.on('close', ok));
        socket.resume();
        await closed;
        const received = Buffer.concat(chunks);
        const split = received.indexOf('\r\n\r\n');
        const head = received.subarray(0, split).toString('latin1');
        const body = received.subarray(split + 4);
        expect(head).toMatch(/^HTTP\/1\.1 200 /);
        const length = Number(/content-length: (\d+)/i.exec(head)![1]);
        expect(length).toBeGreaterThan(EVENTS * BODY_BYTES);
        expect(body.length).toBe(length);
        expect(JSON.parse(body.toString('utf8')).results).toHaveLength(EVENTS);

        expect((await serve.exited).code).toBe(0);
      } finally {
        await serve.stop('SIGKILL');
      }
    });
  }
});
