// Page bodies are read into reusable buffers that go back to their pool once written
// (store/read/page-buffers.ts). Here: under pipelining and a client that reads late, so that
// writes finish asynchronously and answers wait queued, every body is still its own page, and
// an answer kept by the cache stays intact while its pooled original is reused.
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { servedSample } from '../../test/helpers.ts';

let site: Awaited<ReturnType<typeof servedSample>>;
/** the same dist with an answer cache of three entries: kept pages are dropped while still being written */
let small: Awaited<ReturnType<typeof servedSample>>;
beforeAll(async () => {
  site = await servedSample();
  small = await servedSample({ cacheLimits: { entries: 3, bytes: 4 * 1024 * 1024 } });
});
afterAll(async () => {
  await site?.close();
  await small?.close();
});

/** Sends the requests pipelined on one connection, reads nothing for `lateMs`, then parses the answers' bodies. */
function pipelined(paths: string[], lateMs: number, url = site.url): Promise<Buffer[]> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    const parts: Buffer[] = [];
    socket.on('error', reject);
    socket.once('connect', () => {
      socket.pause();
      socket.write(paths.map((p, i) => `GET ${p} HTTP/1.1\r\nHost: x\r\n${i === paths.length - 1 ? 'Connection: close\r\n' : ''}\r\n`).join(''));
      setTimeout(() => socket.resume(), lateMs);
    });
    socket.on('data', (d: Buffer) => parts.push(d));
    socket.on('end', () => {
      const all = Buffer.concat(parts);
      const bodies: Buffer[] = [];
      let at = 0;
      while (at < all.length) {
        const headEnd = all.indexOf('\r\n\r\n', at);
        const head = all.subarray(at, headEnd).toString('latin1');
        const length = Number(/content-length: (\d+)/i.exec(head)?.[1]);
        bodies.push(all.subarray(headEnd + 4, headEnd + 4 + length));
        at = headEnd + 4 + length;
      }
      resolve(bodies);
    });
  });
}

describe('pooled page bodies', () => {
  it('are each their own page under pipelining and a client that reads late', async () => {
    const paths = Array.from({ length: 40 }, (_, i) => `/v1/cms/event/?limit=${10 + (i % 7)}&offset=${(i * 13) % 180}`);
    // the second and third ask of the same page: the cache admits a copy of it
    paths.push(paths[3], paths[3]);
    const expected = new Map<string, string>();
    for (const p of new Set(paths)) expected.set(p, (await site.get(p)).text);
    for (const late of [0, 150]) {
      const bodies = await pipelined(paths, late);
      expect(bodies.length).toBe(paths.length);
      bodies.forEach((body, i) => expect(body.toString('utf8'), paths[i]).toBe(expected.get(paths[i])));
    }
    // the cached page, after many pooled pages have come and gone since it was admitted
    expect((await site.get(paths[3])).text).toBe(expected.get(paths[3]));
  });

  it('keep spliced pages (expand, fields) and single events (their row read onto a pooled block) intact', async () => {
    const paths: string[] = [];
    for (let i = 0; i < 36; i++) {
      const offset = (i * 17) % 150;
      paths.push(
        [`/v1/cms/event/?expand=categories&limit=12&offset=${offset}`, `/v1/cms/event/?fields=id,title,categories&expand=categories&offset=${offset}`, `/v1/cms/event/?omit=body&register=true&offset=${offset % 20}`][i % 3],
      );
    }
    const list = JSON.parse((await site.get('/v1/cms/event/?limit=40')).text) as { results: { id: number }[] };
    for (const { id } of list.results) paths.push(`/v1/cms/event/${id}/`, `/v1/cms/event/${id}/?expand=categories`);
    const expected = new Map<string, string>();
    for (const p of new Set(paths)) expected.set(p, (await site.get(p)).text);
    // a spliced page holds every event whole, categories expanded to objects
    const spliced = JSON.parse(expected.get(paths[0])!) as { results: { categories: unknown[] }[] };
    expect(spliced.results.length).toBeGreaterThan(0);
    expect(spliced.results.some((e) => e.categories.length > 0 && typeof e.categories[0] === 'object')).toBe(true);
    for (const late of [0, 150]) {
      const bodies = await pipelined(paths, late);
      expect(bodies.length).toBe(paths.length);
      bodies.forEach((body, i) => expect(body.toString('utf8'), paths[i]).toBe(expected.get(paths[i])));
    }
  });

  it('keep cached pages intact when the cache drops them while their writes are still under way', async () => {
    // six pages, each asked for again and again: admitted, written from the cache, and dropped by
    // a cache of three while queued behind a client that reads late; their blocks must not be
    // lent to the pages read meanwhile
    const hot = Array.from({ length: 6 }, (_, i) => `/v1/cms/event/?limit=${15 + i}&offset=${i * 9}`);
    const paths: string[] = [];
    for (let i = 0; i < 60; i++) paths.push(hot[i % hot.length], hot[(i * 5) % hot.length], `/v1/cms/event/?limit=12&offset=${(i * 7) % 150}`);
    const expected = new Map<string, string>();
    for (const p of new Set(paths)) expected.set(p, (await small.get(p)).text);
    for (const late of [0, 150]) {
      const [a, b] = await Promise.all([pipelined(paths, late, small.url), pipelined([...paths].reverse(), late, small.url)]);
      a.forEach((body, i) => expect(body.toString('utf8'), paths[i]).toBe(expected.get(paths[i])));
      b.forEach((body, i) => expect(body.toString('utf8'), paths[paths.length - 1 - i]).toBe(expected.get(paths[paths.length - 1 - i])));
    }
    for (const p of hot) expect((await small.get(p)).text).toBe(expected.get(p));
  });
});
