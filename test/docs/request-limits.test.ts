// docs/operating.md's request limits, as a server answers them: a head of the size the page gives
// is answered, one byte more is the status and body it quotes, and the connection is closed.
// (test/hardening/head-bytes.test.ts proves the limit in every shape; this holds the page to it.)
import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { fixtureSite } from '../helpers.ts';
import { docText } from './doc-blocks.ts';

const site = fixtureSite();

/** The section's text, its lines joined. */
function section(): string {
  const text = docText('docs/operating.md');
  const start = text.indexOf('### Request limits\n');
  return text.slice(start, text.indexOf('\n### ', start + 1)).replace(/\s*\n\s*/g, ' ');
}

/** Sends `head` raw and reads until the server closes or a whole answer to a kept connection arrived. */
function send(head: string): Promise<{ status: number; closed: boolean; body: string }> {
  const { port } = new URL(site.url);
  return new Promise((ok, fail) => {
    const socket = connect(Number(port), '127.0.0.1', () => socket.write(head));
    let raw = '';
    const done = (closed: boolean) => {
      const [top, body = ''] = raw.split('\r\n\r\n');
      ok({ status: Number(top.split(' ')[1]), closed, body });
    };
    socket.on('data', (d) => {
      raw += d;
      const length = /content-length: (\d+)/i.exec(raw);
      const end = raw.indexOf('\r\n\r\n');
      if (length && end >= 0 && raw.length >= end + 4 + Number(length[1]) && !/connection: close/i.test(raw.slice(0, end))) {
        socket.destroy();
        done(false);
      }
    });
    socket.on('end', () => done(true));
    socket.on('error', fail);
  });
}

describe('docs/operating.md: request limits', () => {
  it('a head of the bytes it gives is answered; one byte more is the 431 it quotes, and the connection closes', async () => {
    const [, kib, bytes] = /more than (\d+) KiB \(([\d,]+) bytes\)/.exec(section())!;
    const limit = Number(bytes.replace(/,/g, ''));
    expect(limit).toBe(Number(kib) * 1024);
    const [, status, body] = /is `(\d+) (\{[^`]+\})`, and the connection is closed/.exec(section())!;
    // request line, one header padded to the size, the empty line; no space after a colon, as
    // spaces around a value are not counted
    const head = (size: number) => {
      const start = 'GET /healthz HTTP/1.1\r\nHost:x\r\nX-Pad:';
      return `${start}${'a'.repeat(size - start.length - 4)}\r\n\r\n`;
    };
    expect(head(limit).length).toBe(limit);
    expect(await send(head(limit))).toMatchObject({ status: 200, closed: false });
    const over = await send(head(limit + 1));
    expect([over.status, over.closed, JSON.parse(over.body)]).toEqual([Number(status), true, JSON.parse(body)]);
  });
});
