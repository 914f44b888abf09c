import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { HeadScanner } from './head-limit.ts';

/** One request as sent, and where its head and its trailer section (if any) lie in it. */
interface Sent {
  bytes: string;
  /** [start, end) of each counted section: the head (with the empty lines before it), the trailers */
  sections: [number, number][];
}

const token = fc.stringMatching(/^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,12}$/);
const ows = fc.stringMatching(/^[ \t]{0,40}$/);
const value = fc.stringMatching(/^[!-~]([ -~]{0,30}[!-~])?$/);
const header = fc.tuple(token, ows, fc.option(value, { nil: '' }), ows).map(([name, before, v, after]) => `${name}:${before}${v}${v === '' ? '' : after}\r\n`);

/** A request llhttp takes, in one of the framings: none, Content-Length, chunked (with extensions and trailers), CONNECT. */
const request = fc
  .record({
    leading: fc.stringMatching(/^(\r\n|\r|\n){0,4}$/),
    method: fc.constantFrom('GET', 'HEAD', 'OPTIONS', 'POST'),
    target: fc.stringMatching(/^\/[a-z0-9/?=&%]{0,60}$/),
    headers: fc.array(header, { maxLength: 12 }),
    framing: fc.oneof(
      fc.constant({ kind: 'none' as const }),
      fc.record({ kind: fc.constant('length' as const), name: fc.constantFrom('Content-Length', 'content-length', 'CONTENT-LENGTH'), body: fc.string({ maxLength: 300 }), zeros: fc.nat(3) }),
      fc.record({
        kind: fc.constant('chunked' as const),
        name: fc.constantFrom('Transfer-Encoding', 'transfer-encoding'),
        codings: fc.constantFrom('chunked', 'gzip, chunked', 'CHUNKED', ' chunked '),
        chunks: fc.array(fc.tuple(fc.string({ minLength: 1, maxLength: 80 }), fc.constantFrom('', ';a=b', ';x'), fc.boolean()), { maxLength: 4 }),
        trailers: fc.array(header, { maxLength: 3 }),
      }),
    ),
  })
  .map(({ leading, method, target, headers, framing }): Sent => {
    let head = `${leading}${method} ${target} HTTP/1.1\r\n${headers.join('')}`;
    let rest = '';
    const sections: [number, number][] = [];
    if (framing.kind === 'length') {
      const body = Buffer.from(framing.body).toString('latin1');
      head += `${framing.name}: ${'0'.repeat(framing.zeros)}${body.length}\r\n`;
      rest = body;
    }
    if (framing.kind === 'chunked') {
      head += `${framing.name}:${framing.codings}\r\n`;
      for (const [data, extension, upper] of framing.chunks) {
        const size = Buffer.from(data).toString('latin1');
        const hex = size.length.toString(16);
        rest += `${upper ? hex.toUpperCase() : hex}${extension}\r\n${size}\r\n`;
      }
      rest += '0\r\n';
    }
    head += '\r\n';
    sections.push([0, head.length]);
    if (framing.kind === 'chunked') {
      const trailer = `${framing.trailers.join('')}\r\n`;
      sections.push([head.length + rest.length, head.length + rest.length + trailer.length]);
      rest += trailer;
    }
    return { bytes: head + rest, sections };
  });

/** The requests one after another, and the byte at which the first section over `limit` passes it (-1: none). */
function stream(requests: Sent[], limit: number): { bytes: Buffer; passes: number } {
  let at = 0;
  let passes = -1;
  for (const r of requests) {
    for (const [start, end] of r.sections) if (passes < 0 && end - start > limit) passes = at + start + limit;
    at += r.bytes.length;
  }
  return { bytes: Buffer.from(requests.map((r) => r.bytes).join(''), 'latin1'), passes };
}

/** Feeds `bytes` in chunks cut at `cuts`; the index of the chunk `scan` refused first, or -1. */
function refusedAt(scanner: HeadScanner, bytes: Buffer, cuts: number[]): { chunk: number; ends: number[] } {
  const ends = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b).concat(bytes.length);
  let from = 0;
  for (let i = 0; i < ends.length; i++) {
    if (!scanner.scan(bytes.subarray(from, ends[i]))) return { chunk: i, ends };
    from = ends[i];
  }
  return { chunk: -1, ends };
}

describe('HeadScanner', () => {
  it('refuses at the chunk holding the first byte past the limit of a head or trailer section, and only then', () => {
    fc.assert(
      fc.property(fc.array(request, { minLength: 1, maxLength: 6 }), fc.integer({ min: 20, max: 400 }), fc.array(fc.nat(), { maxLength: 8 }), (requests, limit, cuts) => {
        const { bytes, passes } = stream(requests, limit);
        const { chunk, ends } = refusedAt(new HeadScanner(limit), bytes, cuts);
        const expected = passes < 0 ? -1 : ends.findIndex((end) => end > passes);
        expect(chunk).toBe(expected);
      }),
      { numRuns: 3_000 },
    );
  });

  it('a head of exactly the limit passes, one byte more does not, in one chunk or byte by byte', () => {
    const head = (n: number) => {
      const start = 'GET / HTTP/1.1\r\nHost: x\r\nX: ';
      return Buffer.from(`${start}${'a'.repeat(n - start.length - 4)}\r\n\r\n`);
    };
    for (const limit of [100, 16_384]) {
      expect(head(limit)).toHaveLength(limit);
      expect(new HeadScanner(limit).scan(head(limit))).toBe(true);
      expect(new HeadScanner(limit).scan(head(limit + 1))).toBe(false);
      const scanner = new HeadScanner(limit);
      const bytes = head(limit + 1);
      const refused = [...bytes].findIndex((b) => !scanner.scan(Uint8Array.of(b)));
      expect(refused).toBe(limit);
    }
  });

  it('counts what node does not: empty headers, whitespace, empty lines before a request, a request line padded with spaces', () => {
    const limit = 16_384;
    const over = (text: string) => !new HeadScanner(limit).scan(Buffer.from(text));
    expect(over(`GET / HTTP/1.1\r\nHost: x\r\n${'a:\r\n'.repeat(16_300)}\r\n`)).toBe(true);
    expect(over(`GET / HTTP/1.1\r\nHost: x\r\nX:${' '.repeat(20_000)}v\r\n\r\n`)).toBe(true);
    expect(over(`${'\r\n'.repeat(10_000)}GET / HTTP/1.1\r\n\r\n`)).toBe(true);
    expect(over(`GET${' '.repeat(20_000)}/ HTTP/1.1\r\n\r\n`)).toBe(true);
    // many requests, each small, on one connection: each head counted on its own
    expect(over('GET / HTTP/1.1\r\nHost: x\r\n\r\n'.repeat(10_000))).toBe(false);
    // a body is not a head, however large: 1 MB of it, then a request
    expect(over(`GET / HTTP/1.1\r\nContent-Length: 1000000\r\n\r\n${'\r\n'.repeat(500_000)}GET / HTTP/1.1\r\n\r\n`)).toBe(false);
    // after CONNECT the connection is no longer HTTP (node hands it over)
    expect(over(`CONNECT x:443 HTTP/1.1\r\n\r\n${'a:\r\n'.repeat(16_300)}`)).toBe(false);
  });
});
