// DRF parity of odd values (issue 10.10): numbers written in any script's digits are numbers to
// Python's int() and Decimal(), so DRF uses them; CONNECT and an unknown Expect get JSON errors.
import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { fixtureSite } from '../helpers.ts';

const site = fixtureSite();

/** One raw request, the whole answer as text (the server closes after these). */
function raw(text: string): Promise<string> {
  const { hostname, port } = new URL(site.url);
  return new Promise((ok, fail) => {
    const socket = connect(Number(port), hostname, () => socket.write(text));
    let answer = '';
    socket.setEncoding('latin1');
    socket.on('data', (d) => (answer += d));
    socket.on('end', () => ok(answer));
    socket.on('error', fail);
    // a safety net: the server closes after each of these
    setTimeout(() => {
      socket.destroy();
      ok(answer);
    }, 100_000).unref();
  });
}

const resultCount = async (query: string) => (await site.get(`/v1/cms/event/?${query}`)).json().results.length;

describe('Unicode digits are read as Python reads them', () => {
  it('limit and offset: Arabic-Indic, fullwidth, Devanagari digits, Unicode spaces around them', async () => {
    // page_size 2, max_page_size 3 in the fixture: 3 results only if the limit was read
    for (const limit of ['٣', '３', '३', '\u3000٣\u2003', '𝟑', '+３']) {
      expect(await resultCount(`limit=${encodeURIComponent(limit)}`), limit).toBe(3);
    }
    const offset = (await site.get(`/v1/cms/event/?offset=${encodeURIComponent('١')}&limit=1`)).json();
    expect(offset.previous).not.toBeNull();
    expect(offset.results[0].id).toBe((await site.get('/v1/cms/event/?offset=1&limit=1')).json().results[0].id);
    // not digits to Python: superscripts (category No), Roman numerals (Nl), mixed with a letter
    for (const limit of ['³', 'Ⅲ', '٣a']) expect(await resultCount(`limit=${encodeURIComponent(limit)}`), limit).toBe(2);
  });

  it('ids and number filters', async () => {
    const detail = await site.get(`/v1/cms/event/${encodeURIComponent('٤٢')}/`);
    expect(detail.status).toBe(200);
    expect(detail.json().id).toBe(42);
    expect((await site.get(`/v1/cms/event/?id=${encodeURIComponent('４２')}`)).json().count).toBe(1);
    expect((await site.get(`/v1/cms/event/?dfp_points=${encodeURIComponent('٤.٠')}`)).json().count).toBeGreaterThan(0);
    // an id in other digits is an int to Python but not the text of a choice: Django's message
    const category = await site.get(`/v1/cms/event/?categories=${encodeURIComponent('٣')}`);
    expect(category.status).toBe(400);
    expect(category.json()).toEqual({ categories: ['Select a valid choice. ٣ is not one of the available choices.'] });
  });
});

describe('CONNECT and Expect', () => {
  it('CONNECT → 405 JSON with Allow, then close', async () => {
    const answer = await raw('CONNECT example.org:443 HTTP/1.1\r\nHost: example.org:443\r\n\r\n');
    expect(answer).toMatch(/^HTTP\/1\.1 405 Method Not Allowed\r\n/);
    expect(answer).toMatch(/\r\nAllow: GET, HEAD, OPTIONS\r\n/i);
    expect(answer).toMatch(/\r\nContent-Type: application\/json\r\n/i);
    expect(answer.slice(answer.indexOf('\r\n\r\n') + 4)).toBe('{"detail":"Method \\"CONNECT\\" not allowed."}');
  });

  it('an unknown Expect → 417 with a JSON body; 100-continue still works', async () => {
    const answer = await raw('GET /v1/cms/event/ HTTP/1.1\r\nHost: x\r\nExpect: 200-ok\r\n\r\n');
    expect(answer).toMatch(/^HTTP\/1\.1 417 Expectation Failed\r\n/);
    expect(answer).toMatch(/\r\nContent-Type: application\/json\r\n/i);
    expect(JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4))).toEqual({ detail: 'Expectation failed: only "Expect: 100-continue" is supported.' });
    const continued = await raw('GET /v1/cms/event/?limit=1 HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nConnection: close\r\n\r\n');
    expect(continued).toMatch(/HTTP\/1\.1 200 OK\r\n/);
  });
});
