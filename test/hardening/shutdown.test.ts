// SIGTERM with a request in flight: `aula serve` stops accepting, finishes the response it is
// sending (a page far larger than the kernel's socket buffers, to a client that is not reading),
// and exits 0 within 10 s. With one process and with workers.
import { spawn } from 'node:child_process';
import { connect } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildOk, removeDir, tempDir, writeContent } from '../helpers.ts';
import { FIXTURE_FILES } from '../fixture-content.ts';

const BIN = join(import.meta.dirname, '..', '..', 'bin', 'aula.js');
const EVENTS = 20;
const BODY_BYTES = 1_200_000;

let root: string;
let dist: string;

beforeAll(async () => {
  root = tempDir('aula-drain-');
  // 20 events of 1.2 MB each: the first page is a ~24 MB answer
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
    // a file each: 24 MB is more than one content file may hold
    ...Object.fromEntries(events.map((event) => [`events/large-${event.id}.json`, JSON.stringify([event])])),
  });
  dist = join(root, 'dist');
  await buildOk({ content, out: dist, precompress: false });
}, 60_000);
afterAll(() => removeDir(root));

function spawnServe(workers: number) {
  const child = spawn(process.execPath, [BIN, 'serve', '--dist', dist, '--port', '0', '--workers', String(workers)], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (d) => (stderr += d));
  let exitedAt = 0;
  const exited = new Promise<number | null>((ok) =>
    child.on('exit', (code) => {
      exitedAt = Date.now();
      ok(code);
    }),
  );
  const url = new Promise<string>((ok, fail) => {
    let out = '';
    child.stdout!.on('data', (d) => {
      out += d;
      const m = /on (http:\/\/[^/\s]+)\//.exec(out);
      if (m) ok(m[1]);
    });
    void exited.then((code) => fail(new Error(`serve exited ${code}: ${stderr}`)));
  });
  return { child, url, exited, exitedAt: () => exitedAt, stderr: () => stderr };
}

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
    it(`finishes the response, refuses new connections, exits 0 within 10 s (${workers} worker${workers > 1 ? 's' : ''})`, async () => {
      const serve = spawnServe(workers);
      const port = Number(new URL(await serve.url).port);
      const socket = connect(port, '127.0.0.1');
      await new Promise((ok) => socket.once('connect', ok));
      socket.pause(); // a client that does not read: the answer waits in the server
      socket.write('GET /v1/cms/event/ HTTP/1.1\r\nHost: x\r\nAccept-Encoding: identity\r\n\r\n');
      await new Promise((r) => setTimeout(r, 500));

      const termAt = Date.now();
      serve.child.kill('SIGTERM');
      await new Promise((r) => setTimeout(r, 700));
      // still running: the answer has not been handed over yet …
      expect(serve.exitedAt(), serve.stderr()).toBe(0);
      // … but no longer accepting
      expect(await refused(port)).toBe(true);

      // now read it, all of it
      const chunks: Buffer[] = [];
      socket.on('data', (d) => chunks.push(d));
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

      expect(await serve.exited).toBe(0);
      expect(serve.exitedAt() - termAt).toBeLessThan(10_000);
    }, 30_000);
  }
});
