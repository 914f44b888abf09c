import { validateHeaderValue } from 'node:http';
import { describe, expect, it } from 'vitest';
import { isHeaderValue, sendableHeaderValue } from './header-value.ts';

const nodeSends = (value: string) => {
  try {
    validateHeaderValue('cache-control', value);
    return true;
  } catch {
    return false;
  }
};

describe('header values', () => {
  it('agrees with node:http on every character of the first 512 code points, and beyond', () => {
    for (let c = 0; c < 512; c++) {
      const value = `max-age=60${String.fromCharCode(c)}`;
      expect([c, isHeaderValue(value)]).toEqual([c, nodeSends(value)]);
    }
    for (const value of ['', 'public, max-age=60', 'no-cache\t', 'x\u2028y', 'x\u{1f600}', 'caf\u00e9', 'a\r\nSet-Cookie: x=1']) {
      expect([value, isHeaderValue(value)]).toEqual([value, nodeSends(value)]);
    }
  });

  it('refuses with one line naming the option, its control characters escaped', () => {
    expect(sendableHeaderValue('cacheControl', 'public, max-age=60')).toBe('public, max-age=60');
    expect(() => sendableHeaderValue('cacheControl', 'max-age=60\r\nSet-Cookie: x=1')).toThrow(
      new TypeError('aula: cacheControl "max-age=60\\r\\nSet-Cookie: x=1" cannot be sent as a header value: printable characters only, no line breaks'),
    );
    expect(() => sendableHeaderValue('cacheControl', 42 as unknown as string)).toThrow(/^aula: cacheControl 42 cannot be sent/);
  });
});
