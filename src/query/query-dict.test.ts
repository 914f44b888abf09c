import { describe, expect, it } from 'vitest';
import { QueryParams } from './query-dict.ts';

describe('QueryParams.parse', () => {
  it('reads pairs as URLSearchParams does: escapes, +, invalid escapes and UTF-8, empty and repeated pairs', () => {
    const alphabet = ['a', '=', '&', '+', '%', '%2', '%20', '%C3%BC', '%C3', '%zz', '%2B', '%26', '%3D', 'ü', '\uD800', '%ED%A0%80', '%F0%9F%98%80', '%EF%BB%BF', ' ', '#', '%00', '&&', '=='];
    let seed = 3;
    const pick = () => alphabet[(seed = (seed * 1103515245 + 12345) % 2147483648) % alphabet.length];
    for (let n = 0; n < 20000; n++) {
      const q = Array.from({ length: 1 + (seed % 9) }, pick).join('');
      expect(QueryParams.parse(q).pairs, q).toEqual([...new URLSearchParams(q)]);
    }
  });

  it('keeps the last value for get and every value for getAll', () => {
    const params = QueryParams.parse('a=1&b=x+y&a=2&c');
    expect(params.get('a')).toBe('2');
    expect(params.getAll('a')).toEqual(['1', '2']);
    expect(params.get('b')).toBe('x y');
    expect(params.get('c')).toBe('');
    expect(params.keys()).toEqual(['a', 'b', 'c']);
  });
});
