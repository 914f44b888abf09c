// Pipelining without reading (issue 10.2): a client sends many pipelined requests for large
// answers and closes without reading one. The server must neither keep the closed connection's
// answers nor compute answers nobody will read: its RSS stays where it was.
import { readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { settled } from '../../bench/processes.ts';
import { startAula, type AulaProcess } from '../aula-cli.ts';
import { request, sampleDist } from '../helpers.ts';

let serve: AulaProcess;
let url: string;

beforeAll(async () => {
  serve = startAula(['serve', '--dist', sampleDist(), '--port', '0', '--quiet']);
  url = await serve.origin;
});

afterAll(() => serve?.stop('SIGKILL'));

const rssMb = () => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${serve.child.pid}/status`, 'utf8'))![1]) / 1024;
/**
 * Until the server has done all it will do with what it was sent (its CPU quiet for half a
 * second: the measure is its work, which a busy machine slows but does not fake).
 */
async function idle(): Promise<void> {
  expect(await settled(serve.child.pid!, 500, 300_000)).toBe(true);
}

/** One connection: `count` pipelined requests in one write, then closed without reading. */
async function pipelineAndLeave(round: number, count: number): Promise<void> {
  const { hostname, port } = new URL(url);
  const socket = connect(Number(port), hostname);
  socket.pause();
  await new Promise((ok, fail) => {
    socket.once('connect', ok);
    socket.once('error', fail);
  });
  let text = '';
  for (let n = 0; n < count; n++) text += `GET /v1/cms/event/?limit=1000&n=${round}-${n} HTTP/1.1\r\nHost: ${hostname}\r\n\r\n`;
  await new Promise((written) => socket.write(text, written));
  // the server has parsed everything sent; then gone without reading
  await idle();
  socket.destroy();
}

describe('pipelined requests from a client that never reads', () => {
  it('leave the RSS within 50 MB of where it started, and the server still answers', async () => {
    // a warmed-up server: the first answers build the lazily made parts of the data
    for (let i = 0; i < 3; i++) expect((await request(`${url}/v1/cms/event/?limit=1000&warm=${i}`)).status).toBe(200);
    const big = (await request(`${url}/v1/cms/event/?limit=1000`)).text.length;
    // the attack is only meaningful with large answers: 200 of them are far beyond 50 MB
    expect(big * 200).toBeGreaterThan(80 * 1024 * 1024);
    await idle();
    const before = rssMb();
    for (let round = 0; round < 5; round++) await pipelineAndLeave(round, 200);
    await idle();
    const after = rssMb();
    expect(after - before, `RSS ${before.toFixed(0)} MB → ${after.toFixed(0)} MB`).toBeLessThan(50);
    const answer = await request(`${url}/v1/cms/event/?limit=2`);
    expect(answer.status).toBe(200);
    expect(answer.json().results).toHaveLength(2);
  });
});
