// Pipelining without reading (issue 10.2): a client sends many pipelined requests for large
// answers and closes without reading one. The server must neither keep the closed connection's
// answers nor compute answers nobody will read: its RSS stays where it was.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildOk, removeDir, request, SAMPLE_CONTENT, tempDir } from '../helpers.ts';

const BIN = join(import.meta.dirname, '..', '..', 'bin', 'aula.js');

let root: string;
let child: ChildProcess;
let url: string;

beforeAll(async () => {
  root = tempDir('aula-pipelining-');
  const dist = join(root, 'dist');
  await buildOk({ content: SAMPLE_CONTENT, out: dist, precompress: false });
  child = spawn(process.execPath, [BIN, 'serve', '--dist', dist, '--port', '0', '--quiet'], { stdio: ['ignore', 'pipe', 'pipe'] });
  url = await new Promise<string>((ok, fail) => {
    let out = '';
    child.stdout!.on('data', (d) => {
      out += d;
      const m = /on (http:\/\/[^/\s]+)\//.exec(out);
      if (m) ok(m[1]);
    });
    child.once('exit', (code) => fail(new Error(`serve exited ${code}`)));
  });
}, 60_000);

afterAll(() => {
  child?.kill('SIGKILL');
  removeDir(root);
});

const rssMb = () => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))![1]) / 1024;
const sleep = (ms: number) => new Promise((ok) => setTimeout(ok, ms));

/** One connection: `count` pipelined requests in one write, then closed without reading. */
function pipelineAndLeave(round: number, count: number): Promise<void> {
  const { hostname, port } = new URL(url);
  return new Promise((ok, fail) => {
    const socket = connect(Number(port), hostname, () => {
      let text = '';
      for (let n = 0; n < count; n++) text += `GET /v1/cms/event/?limit=1000&n=${round}-${n} HTTP/1.1\r\nHost: ${hostname}\r\n\r\n`;
      socket.write(text);
      // long enough for the server to parse everything sent; then gone without reading
      setTimeout(() => {
        socket.destroy();
        ok();
      }, 500);
    });
    socket.pause();
    socket.on('error', fail);
  });
}

describe('pipelined requests from a client that never reads', () => {
  it('leave the RSS within 50 MB of where it started, and the server still answers', async () => {
    // a warmed-up server: the first answers build the lazily made parts of the data
    for (let i = 0; i < 3; i++) expect((await request(`${url}/v1/cms/event/?limit=1000&warm=${i}`)).status).toBe(200);
    const big = (await request(`${url}/v1/cms/event/?limit=1000`)).text.length;
    // the attack is only meaningful with large answers: 200 of them are far beyond 50 MB
    expect(big * 200).toBeGreaterThan(80 * 1024 * 1024);
    await sleep(1_000);
    const before = rssMb();
    for (let round = 0; round < 5; round++) await pipelineAndLeave(round, 200);
    await sleep(3_000);
    const after = rssMb();
    expect(after - before, `RSS ${before.toFixed(0)} MB → ${after.toFixed(0)} MB`).toBeLessThan(50);
    const answer = await request(`${url}/v1/cms/event/?limit=2`);
    expect(answer.status).toBe(200);
    expect(answer.json().results).toHaveLength(2);
  }, 60_000);
});
