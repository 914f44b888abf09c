import { describe, expect, it } from 'vitest';
import { needsEscaping, toJson } from './json.ts';

describe('toJson', () => {
  it('writes compact JSON with raw UTF-8', () => {
    expect(toJson({ a: 'Müller €', b: [1, null] })).toBe('{"a":"Müller €","b":[1,null]}');
  });
  it('escapes U+2028 and U+2029 every time, like DRF', () => {
    for (let i = 0; i < 3; i++) {
      expect(toJson('a\u2028b\u2029c')).toBe('"a\\u2028b\\u2029c"');
      expect(toJson('x')).toBe('"x"');
    }
  });
});

describe('needsEscaping', () => {
  it('is true exactly where a string holds U+2028 or U+2029, one-byte and two-byte strings alike', () => {
    const pieces = ['', 'a', 'ü', '„x“', '\u2028', '\u2029', '\u2027', '\u202a', '😀', '"\\', ' '.repeat(3000)];
    let seed = 7;
    const next = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0);
    for (let n = 0; n < 2000; n++) {
      let text = '';
      for (let k = next() % 6; k > 0; k--) text += pieces[next() % pieces.length];
      expect(needsEscaping(text), JSON.stringify(text)).toBe(/[\u2028\u2029]/.test(text));
    }
  });
});
