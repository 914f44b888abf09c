import { describe, expect, it } from 'vitest';
import { parseSearch } from './terms.ts';

const terms = (value: string) => {
  const r = parseSearch(value);
  if (!r.ok) throw new Error(r.error);
  return r.terms;
};

// The expectations are what DRF 3.15's search_smart_split (over Django's smart_split) returns.
describe('search terms, split as DRF splits them', () => {
  it('splits on whitespace and commas, dropping empty terms', () => {
    expect(terms('herz kurs')).toEqual(['herz', 'kurs']);
    expect(terms('herz,kurs')).toEqual(['herz', 'kurs']);
    expect(terms('  herz ,, kurs,  ')).toEqual(['herz', 'kurs']);
    expect(terms('herz\tkurs\nwien\u00a0x\u3000y')).toEqual(['herz', 'kurs', 'wien', 'x', 'y']);
    expect(terms(',,, ')).toEqual([]);
    expect(terms('')).toEqual([]);
  });

  it('keeps a quoted phrase whole, unescaping its quote and backslashes', () => {
    expect(terms('"herz kurs" wien')).toEqual(['herz kurs', 'wien']);
    expect(terms("'herz, kurs'")).toEqual(['herz, kurs']);
    expect(terms('"a \\"b\\" c"')).toEqual(['a "b" c']);
    expect(terms('"a\\\\b"')).toEqual(['a\\b']);
    expect(terms('"herz kurs",')).toEqual(['herz kurs']);
    expect(terms('""')).toEqual(['']);
  });

  it('treats a quote that never closes as an ordinary character', () => {
    expect(terms('"herz kurs')).toEqual(['"herz', 'kurs']);
    expect(terms('o\'reilly kurs')).toEqual(["o'reilly", 'kurs']);
    expect(terms('a"b"c"d e')).toEqual(['a"b"c', '"d', 'e']);
    expect(terms('x"a b"y')).toEqual(['x"a b"y']);
  });

  it('refuses a NUL character', () => {
    expect(parseSearch('a\0b')).toEqual({ ok: false, error: 'Null characters are not allowed.' });
  });

  it('splits a long value of unclosed quotes in linear time', () => {
    const value = '"'.repeat(50_000) + ' x';
    const start = process.cpuUsage();
    expect(terms(value)).toHaveLength(2);
    const used = process.cpuUsage(start);
    expect((used.user + used.system) / 1000).toBeLessThan(2_000);
  });
});
