import { describe, expect, it } from 'vitest';
import { bodyBytes, bodyInto } from './body-bytes.ts';

const bytes = (n: number, seed = 7) => Uint8Array.from({ length: n }, (_, i) => (i * seed + 3) & 0xff);

/** A body of bytes arriving in chunks of `chunk` bytes, as a byte stream (BYOB readable) or not. */
function chunked(all: Uint8Array, chunk: number, type?: 'bytes'): Response {
  let at = 0;
  const source = {
    type,
    pull(controller: { close(): void; enqueue(chunk: Uint8Array): void; byobRequest?: { respond(n: number): void } | null }) {
      if (at >= all.byteLength) {
        controller.close();
        // (a BYOB read waiting on a closed byte stream is answered with its view, empty)
        controller.byobRequest?.respond(0);
        return;
      }
      controller.enqueue(all.slice(at, at + chunk));
      at += chunk;
    },
  };
  return new Response(new ReadableStream(source as ConstructorParameters<typeof ReadableStream>[0]) as unknown as ConstructorParameters<typeof Response>[0]);
}

describe('bodyBytes', () => {
  it('reads a body of the expected size, in one piece or in chunks, as sent', async () => {
    const all = bytes(300_000);
    expect(Buffer.from(await bodyBytes(new Response(all), all.byteLength)).equals(Buffer.from(all))).toBe(true);
    for (const chunk of [1000, 65_536, 300_000]) {
      const got = await bodyBytes(chunked(all, chunk, 'bytes'), all.byteLength);
      expect(Buffer.from(got).equals(Buffer.from(all)), String(chunk)).toBe(true);
    }
  });

  it('a body shorter or longer than expected is read as sent, so its length shows it', async () => {
    const all = bytes(100_000);
    for (const expected of [0, 1, 99_999, 100_001, 250_000]) {
      for (const response of [() => new Response(all), () => chunked(all, 4096, 'bytes')]) {
        const got = await bodyBytes(response(), expected);
        expect(Buffer.from(got).equals(Buffer.from(all)), String(expected)).toBe(true);
      }
    }
    expect((await bodyBytes(new Response(null), 10)).byteLength).toBe(0);
  });

  it('a stream that is not of bytes is read whole', async () => {
    const all = bytes(50_000);
    expect(Buffer.from(await bodyBytes(chunked(all, 7000), all.byteLength)).equals(Buffer.from(all))).toBe(true);
  });
});

describe('bodyInto', () => {
  it('reads a body into its place in a buffer, the bytes around it kept; a shorter one as sent, a longer one refused', async () => {
    const all = bytes(100_000);
    for (const response of [() => new Response(all), () => chunked(all, 4096, 'bytes'), () => chunked(all, 7000)]) {
      const run = new Uint8Array(100_000 + 300).fill(9);
      const got = await bodyInto(response(), run.subarray(100, 100 + all.byteLength));
      expect(got).not.toBeNull();
      expect(got!.byteOffset).toBe(100);
      expect(Buffer.from(got!).equals(Buffer.from(all))).toBe(true);
      // (the buffer given is the stream's while it reads: the view returned is over the same bytes)
      const whole = new Uint8Array(got!.buffer, 0, all.byteLength + 300);
      expect([whole[99], whole[100 + all.byteLength]]).toEqual([9, 9]);
      expect((await bodyInto(response(), new Uint8Array(all.byteLength + 10)))!.byteLength).toBe(all.byteLength);
      expect(await bodyInto(response(), new Uint8Array(all.byteLength - 1))).toBeNull();
    }
    expect((await bodyInto(new Response(null), new Uint8Array(10)))!.byteLength).toBe(0);
  });
});
