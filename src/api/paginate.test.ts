import { describe, expect, it } from 'vitest';
import { envelope, envelopeOpen, joinResults, pageLinks, pageRange, pageWindow, parsePythonInt } from './paginate.ts';
import { isPooled } from '../store/read/page-buffers.ts';
import { QueryParams } from '../query/query-dict.ts';

const settings = { page_size: 20, max_page_size: 1000 };
const B = 'http://b';
const P = '/v1/cms/event/';
const win = (q: string) => pageWindow(QueryParams.parse(q), settings);
const links = (q: string, count: number) => {
  const { next, previous } = pageLinks(win(q), count, B, P, QueryParams.parse(q));
  return { next, previous };
};

describe('parsePythonInt', () => {
  it.each([['7', 7n], [' 7 ', 7n], ['+8', 8n], ['008', 8n], ['-5', -5n], ['1_000', 1000n], ['99999999999999999999', 99999999999999999999n]])('%j → %s', (t, v) => {
    expect(parsePythonInt(t)).toBe(v);
  });
  it.each(['7.0', 'abc', '', '1__0', '_1', '1e3', '0x10'])('%j is not an int', (t) => {
    expect(parsePythonInt(t)).toBeNull();
  });
});

describe('pageWindow', () => {
  it('defaults and clamps the limit as DRF does', () => {
    for (const q of ['', 'limit=0', 'limit=-1', 'limit=abc', 'limit=7.0', 'limit=']) expect(win(q).limit).toBe(20);
    expect(win('limit=%207').limit).toBe(7);
    expect(win('limit=1001').limit).toBe(1000);
    expect(win('limit=2&limit=3').limit).toBe(3);
  });
  it('reads bad offsets as 0', () => {
    for (const q of ['offset=-5', 'offset=abc', 'offset=2.5', 'offset=']) expect(win(q).offset).toBe(0n);
    expect(win('offset=5').offset).toBe(5n);
  });
});

describe('pageRange', () => {
  it('slices within the count and is empty beyond it', () => {
    expect(pageRange(win('offset=5&limit=7'), 300)).toEqual([5, 12]);
    expect(pageRange(win('offset=295'), 300)).toEqual([295, 300]);
    expect(pageRange(win('offset=400'), 300)).toEqual([0, 0]);
    expect(pageRange(win('offset=1'), 0)).toEqual([0, 0]);
  });
});

describe('pageLinks', () => {
  it('first page: next with limit and offset, no previous', () => {
    expect(links('', 300)).toEqual({ next: `${B}${P}?limit=20&offset=20`, previous: null });
  });
  it('drops the offset from previous when it would be ≤ 0', () => {
    expect(links('offset=5', 300).previous).toBe(`${B}${P}?limit=20`);
    expect(links('limit=7&offset=5', 300)).toEqual({ next: `${B}${P}?limit=7&offset=12`, previous: `${B}${P}?limit=7` });
  });
  it('last and beyond-the-end pages', () => {
    expect(links('limit=1&offset=300', 300)).toEqual({ next: null, previous: `${B}${P}?limit=1&offset=299` });
    expect(links('offset=400', 300)).toEqual({ next: null, previous: `${B}${P}?limit=20&offset=380` });
    expect(links('offset=280', 300).next).toBeNull();
  });
  it('writes the clamped limit into links', () => {
    expect(links('limit=5000&offset=297', 300)).toEqual({ next: null, previous: `${B}${P}?limit=1000` });
  });
  it('keeps every other parameter, sorted, with the raw (untrimmed) value', () => {
    expect(links('title=%20Workshop%20&format=json&offset=20', 300)).toEqual({
      next: `${B}${P}?format=json&limit=20&offset=40&title=+Workshop+`,
      previous: `${B}${P}?format=json&limit=20&title=+Workshop+`,
    });
  });
  it('repeats huge offsets exactly', () => {
    expect(links('offset=100000000000000000000', 3).previous).toBe(`${B}${P}?limit=20&offset=99999999999999999980`);
  });
});

describe('envelope', () => {
  it('joins pre-serialized results in the DRF key order', () => {
    expect(envelope(2, { next: null, previous: 'http://b/?a=1' }, ['{"id":1}', '{"id":2}'])).toBe(
      '{"count":2,"next":null,"previous":"http://b/?a=1","results":[{"id":1},{"id":2}]}',
    );
  });

  it('joins stored results into one buffer on the page pool, the same bytes as the text envelope', () => {
    const results = ['{"id":1}', '{"id":2,"presentation":"Zoë\\n"}'];
    const joined = joinResults(envelopeOpen(2, { next: 'http://b/?q=z%C3%B6', previous: null }), results.map((r) => Buffer.from(r)));
    // the server gives it back once written, and its cache holds it counted by its block
    expect(isPooled(joined)).toBe(true);
    expect(joined.toString()).toBe(envelope(2, { next: 'http://b/?q=z%C3%B6', previous: null }, results));
  });
});

describe('envelopeOpen', () => {
  it('writes the links as JSON.stringify does, on any base URL', () => {
    for (const base of [B, 'https://x.org/api', 'http://b/"q\\', 'http://bü.example', 'http://b/\u2028']) {
      for (const q of ['offset=40', 'limit=5&offset=5&title__icontains=m%C3%BCl', 'ordering=-title&limit=20&offset=20&location__istartswith=a']) {
        const made = pageLinks(win(q), 100, base, P, QueryParams.parse(q));
        expect(made.next).not.toBeNull();
        expect(made.previous).not.toBeNull();
        const text = `{"count":100,"next":${JSON.stringify(made.next)},"previous":${JSON.stringify(made.previous)},"results":[`;
        expect(envelopeOpen(100, made).toString(), `${base} ${q}`).toBe(text);
      }
    }
  });
});
