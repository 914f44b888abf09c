import { describe, expect, it } from 'vitest';
import { compareCodePoints, encodeQuery, linkTo, quotePlus } from './links.ts';
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
