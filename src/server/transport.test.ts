import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BodyChunks } from '../api/body.ts';
import { json } from '../api/respond.ts';
import { endWith, flatHeaders, MOST_COMPRESSED_BYTES, MOST_COMPRESSING_BYTES, OFF_THREAD_BYTES, transportForm } from './transport.ts';

// bigger than the smallest body worth compressing (1 KiB)
const pieces = ['{"count":3,"results":[', '{"title":"Ä „x“ 🎉"}', ',', '', `{"title":"${'b'.repeat(3000)}"}`, ']}'].map((s) => Buffer.from(s));
const whole = Buffer.concat(pieces);
const answer = json(200, new BodyChunks(pieces), { 'Content-Length': String(whole.length) });

let server: Server;
let url: string;
beforeAll(async () => {
  server = createServer(async (req, res) => {
    const { headers, body } = await transportForm(answer, req.headers['accept-encoding']);
    res.writeHead(200, flatHeaders(headers));
    const written = endWith(res, body);
    if (written !== (body?.length ?? 0)) throw new Error('endWith miscounted');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

function get(headers: Record<string, string>): Promise<{ headers: Record<string, unknown>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    request(url, { headers }, (res) => {
      const parts: Buffer[] = [];
      res.on('data', (d: Buffer) => parts.push(d));
      res.on('end', () => resolve({ headers: res.headers, body: Buffer.concat(parts) }));
    })
      .on('error', reject)
      .end();
  });
}

describe('chunked bodies on the wire', () => {
  it('writes the chunks as one body with the precomputed length, not chunked', async () => {
    const r = await get({ 'accept-encoding': 'identity' });
    expect(r.body.equals(whole)).toBe(true);
    expect(r.headers['content-length']).toBe(String(whole.length));
    expect(r.headers['transfer-encoding']).toBeUndefined();
  });

  it('compresses the joined chunks when a coding is negotiated, with its own length', async () => {
    const r = await get({ 'accept-encoding': 'gzip' });
    expect(r.headers['content-encoding']).toBe('gzip');
    expect(r.headers['content-length']).toBe(String(r.body.length));
    expect(gunzipSync(r.body).equals(whole)).toBe(true);
  });

  it('BodyChunks reads as one body: length, text, joined', () => {
    const body = new BodyChunks(pieces);
    expect(body.length).toBe(whole.length);
    expect(body.toString()).toBe(whole.toString());
    expect(body.joined().equals(whole)).toBe(true);
    expect(new BodyChunks([]).length).toBe(0);
  });
});

describe('large answers', () => {
  const big = Buffer.from(JSON.stringify({ results: Array.from({ length: 4000 }, (_, i) => ({ id: i, title: `Vortrag ${i} über Ärzte` })) }));

  it('are compressed off the event loop, once per coding, to bytes that decode to the answer', async () => {
    expect(big.length).toBeGreaterThan(OFF_THREAD_BYTES);
    const large = json(200, big);
    const first = transportForm(large, 'br');
    expect(first).toBeInstanceOf(Promise);
    const again = transportForm(large, 'br, gzip');
    const [a, b] = await Promise.all([first, again]);
    expect(a.body).toBe(b.body);
    expect(a.headers['Content-Encoding']).toBe('br');
    expect(brotliDecompressSync(a.body as Buffer).equals(big)).toBe(true);
    // once compressed, the form is at hand
    const later = transportForm(large, 'br');
    expect(later).not.toBeInstanceOf(Promise);
    expect((later as { body: Buffer }).body).toBe(a.body);
    const zipped = await transportForm(large, 'gzip');
    expect(gunzipSync(zipped.body as Buffer).equals(big)).toBe(true);
  });

  it('are sent as they are to a client that accepts no coding, at once', () => {
    const form = transportForm(json(200, big), undefined);
    expect(form).not.toBeInstanceOf(Promise);
  });

  it('are sent as they are past MOST_COMPRESSED_BYTES, whatever the client accepts, at once', () => {
    const huge = Buffer.alloc(MOST_COMPRESSED_BYTES + 1, 'a');
    for (const accept of ['br', 'gzip', 'br, gzip;q=0.5']) {
      const form = transportForm(json(200, huge), accept);
      expect(form).not.toBeInstanceOf(Promise);
      expect((form as { headers: Record<string, string> }).headers['Content-Encoding']).toBeUndefined();
      expect((form as { body: Buffer }).body).toBe(huge);
    }
    // counted in bytes: a text of fewer characters than the bound but more bytes
    const text = 'ü'.repeat(MOST_COMPRESSED_BYTES / 2 + 1);
    const form = transportForm(json(200, text), 'gzip');
    expect(form).not.toBeInstanceOf(Promise);
    expect((form as { headers: Record<string, string> }).headers['Content-Encoding']).toBeUndefined();
  });

  it('are sent as they are while MOST_COMPRESSING_BYTES are being compressed, and compressed again once those are done', async () => {
    const size = 3 * 1024 * 1024;
    const answers = Array.from({ length: Math.floor(MOST_COMPRESSING_BYTES / size) + 2 }, (_, i) => json(200, Buffer.alloc(size, 97 + i)));
    const forms = answers.map((a) => transportForm(a, 'br'));
    const queued = forms.filter((f) => f instanceof Promise);
    expect(queued.length).toBe(Math.floor(MOST_COMPRESSING_BYTES / size));
    // past the bound: at once, as they are
    for (const form of forms.slice(queued.length)) {
      expect(form).not.toBeInstanceOf(Promise);
      expect((form as { headers: Record<string, string> }).headers['Content-Encoding']).toBeUndefined();
    }
    await Promise.all(queued);
    // the bytes compressed are let go: the answer sent as it was is compressed when asked again
    const again = await transportForm(answers.at(-1)!, 'br');
    expect(again.headers['Content-Encoding']).toBe('br');
    expect(brotliDecompressSync(again.body as Buffer).equals(Buffer.alloc(size, 97 + answers.length - 1))).toBe(true);
  });
});
