import { describe, expect, it } from 'vitest';
import { compareCodePoints, encodeQuery, linkTo, pageQuery, quotePlus } from './links.ts';
import { QueryParams } from '../query/query-dict.ts';

describe('quotePlus', () => {
  it('encodes like Python quote_plus', () => {
    expect(quotePlus("a b:c+d,e/f~g_h.i-j!k*l'm(n)")).toBe("a+b%3Ac%2Bd%2Ce%2Ff~g_h.i-j%21k%2Al%27m%28n%29");
    expect(quotePlus('mül')).toBe('m%C3%BCl');
  });
});

describe('encodeQuery', () => {
  it('sorts by name, keeps repeated values in order, replaces and removes', () => {
    const params = QueryParams.parse('title__icontains=m%C3%BCl&limit=5&categories=7&categories=3&offset=9');
    expect(encodeQuery(params, { offset: '10', limit: '5' })).toBe('categories=7&categories=3&limit=5&offset=10&title__icontains=m%C3%BCl');
    expect(encodeQuery(params, { offset: null })).toBe('categories=7&categories=3&limit=5&title__icontains=m%C3%BCl');
  });
  it('keeps blank values and re-encodes + and spaces', () => {
    expect(encodeQuery(QueryParams.parse('q=a+b%2Bc&e'), {})).toBe('e=&q=a+b%2Bc');
  });
  it('orders names by code point, as Python does', () => {
    expect(compareCodePoints('\u{1F600}', '\uFF5E')).toBeGreaterThan(0);
    expect(['b', 'a', 'B', 'ä'].sort(compareCodePoints)).toEqual(['B', 'a', 'b', 'ä']);
  });
});

describe('linkTo', () => {
  it('builds absolute links on the base URL', () => {
    expect(linkTo('https://x.org/api', '/v1/cms/event/', QueryParams.parse(''), { limit: '20' })).toBe('https://x.org/api/v1/cms/event/?limit=20');
    expect(linkTo('https://x.org', '/v1/cms/event/', QueryParams.parse(''), {})).toBe('https://x.org/v1/cms/event/');
  });
});

describe('the fast paths of quotePlus and compareCodePoints', () => {
  it('agree with the general encoding and the code-point comparison on mixed strings', () => {
    const general = (text: string) =>
      encodeURIComponent(text.toWellFormed()).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`).replace(/%20/g, '+');
    const byCodePoint = (a: string, b: string) => {
      const x = Array.from(a, (c) => c.codePointAt(0)!);
      const y = Array.from(b, (c) => c.codePointAt(0)!);
      for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return Math.sign(x[i] - y[i]);
      return Math.sign(x.length - y.length);
    };
    const alphabet = ['a', 'Z', '0', '_', '.', '-', '~', ' ', '+', '!', '*', 'ä', '\uFF5E', '\u{1F600}', '%', '&', '='];
    let seed = 7;
    const pick = () => alphabet[(seed = (seed * 1103515245 + 12345) % 2147483648) % alphabet.length];
    const strings = Array.from({ length: 400 }, () => Array.from({ length: 1 + (seed % 5) }, pick).join(''));
    for (const text of strings) expect(quotePlus(text), text).toBe(general(text));
    for (let i = 1; i < strings.length; i++) expect(Math.sign(compareCodePoints(strings[i - 1], strings[i]))).toBe(byCodePoint(strings[i - 1], strings[i]));
  });
});


describe('encodeQuery on parameters encoded once per request', () => {
  it('gives what encoding from scratch gives, call after call on the same parameters', () => {
    // the former implementation: group, apply the changes, sort, encode
    const reference = (params: QueryParams, changes: Record<string, string | null>) => {
      const grouped = new Map<string, string[]>();
      for (const key of params.keys()) grouped.set(key, [...params.getAll(key)]);
      for (const [key, value] of Object.entries(changes)) {
        if (value === null) grouped.delete(key);
        else grouped.set(key, [value]);
      }
      const parts: string[] = [];
      for (const key of [...grouped.keys()].sort(compareCodePoints)) for (const v of grouped.get(key)!) parts.push(`${quotePlus(key)}=${quotePlus(v)}`);
      return parts.join('&');
    };
    // a few names (most requests: sorted by insertion), and some rounds with more than sixteen
    const names = ['limit', 'offset', 'a', 'Z', 'title__icontains', 'ä', '\u{1F600}', 'categories', 'x y'];
    const many = [...names, ...Array.from({ length: 30 }, (_, i) => `n${(i * 7) % 30}_${'ÿ'.repeat(i % 3)}`)];
    let seed = 11;
    const next = (n: number) => ((seed = (Math.imul(seed, 1103515245) + 12345) | 0) >>> 8) % n;
    for (let round = 0; round < 300; round++) {
      const pool = round % 10 === 0 ? many : names;
      const pairs = Array.from({ length: round % 10 === 0 ? 20 + next(40) : next(6) }, () => `${encodeURIComponent(pool[next(pool.length)])}=${encodeURIComponent(['1', 'mül', 'a b', '', '+'][next(5)])}`);
      const params = QueryParams.parse(pairs.join('&'));
      for (let call = 0; call < 3; call++) {
        const changes: Record<string, string | null> = {};
        for (const name of ['limit', 'offset', names[next(names.length)]]) if (next(3) > 0) changes[name] = next(4) === 0 ? null : String(next(100));
        expect(encodeQuery(params, changes), `${pairs.join('&')} ${JSON.stringify(changes)}`).toBe(reference(params, changes));
      }
    }
  });
});

describe('pageQuery', () => {
  it('is encodeQuery with limit and offset set (or offset removed), whatever names sort around them', () => {
    // names before `limit`, between `limit` and `offset` (location, n), after `offset`, beyond ASCII
    const names = ['limit', 'offset', 'a', 'Z', 'location', 'n', 'ordering', 'ä', '\u{1F600}', 'x y', 'limits', 'offse'];
    let seed = 5;
    // (Math.imul: a product past 2^53 would lose the low bits this takes)
    const next = (n: number) => ((seed = (Math.imul(seed, 1103515245) + 12345) | 0) >>> 8) % n;
    for (let round = 0; round < 400; round++) {
      const pairs = Array.from({ length: next(8) }, () => `${encodeURIComponent(names[next(names.length)])}=${encodeURIComponent(['1', 'mül', 'a b', '', '+'][next(5)])}`);
      const params = QueryParams.parse(pairs.join('&'));
      // a page's two links are made from the same parameters, one after the other
      for (const offset of [String(next(1000)), null]) {
        const limit = String(1 + next(100));
        expect(pageQuery(params, limit, offset), `${pairs.join('&')} ${limit} ${offset}`).toBe(encodeQuery(params, { limit, offset }));
      }
    }
  });
});
