import { describe, expect, it } from 'vitest';
import { stringEnd, valueEnd } from './json-scan.ts';

const at = (json: string, from = 0, end?: number) => valueEnd(Buffer.from(json), from, end);

describe('json-scan', () => {
  it("finds the end of each value JSON.stringify writes, escapes and brackets inside strings included", () => {
    const values: unknown[] = ['', 'a"b', 'ends \\', '\\"', '}]{[,:', 0, -1.5e-7, true, null, [], {}, [1, ['x]', { y: '\\' }]], { a: { b: [null, '"'] } }, 'Öl „x“ 🎉'];
    for (const v of values) {
      const json = JSON.stringify(v);
      // followed by more, as inside an object or a list
      expect(at(`${json},1]`), json).toBe(Buffer.byteLength(json));
      expect(at(`[${json}]`, 1), json).toBe(1 + Buffer.byteLength(json));
    }
  });

  it('says -1 for a value cut short, an empty one, or one that would end past `end`', () => {
    expect(at('"abc')).toBe(-1);
    expect(at('"a\\"')).toBe(-1);
    expect(at('[1,[2]')).toBe(-1);
    expect(at(',')).toBe(-1);
    expect(at('')).toBe(-1);
    expect(at('"abc"', 0, 4)).toBe(-1);
    expect(at('[1,2]', 0, 4)).toBe(-1);
    expect(stringEnd(Buffer.from('x"a\\\\"y'), 1)).toBe(6);
  });
});
