import { describe, expect, it } from 'vitest';
import { toJson } from './json.ts';

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
