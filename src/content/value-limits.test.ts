import { describe, expect, it } from 'vitest';
import { checkValue, MAX_DEPTH, NOT_FINITE, positionOf, scanNesting } from './value-limits.ts';

const nested = (depth: number): unknown => {
  let v: unknown = 1;
  for (let i = 0; i < depth; i++) v = [v];
  return v;
};

describe('checkValue', () => {
  it('finds the first value deeper than the limit, without recursion', () => {
    expect(checkValue(nested(MAX_DEPTH)).tooDeep).toBeNull();
    expect(checkValue(nested(MAX_DEPTH + 1)).tooDeep).toEqual(Array(MAX_DEPTH).fill(0));
    expect(checkValue(nested(200_000)).tooDeep).toHaveLength(MAX_DEPTH);
    expect(checkValue({ a: { b: nested(MAX_DEPTH) } }).tooDeep).toEqual(['a', 'b', ...Array(MAX_DEPTH - 2).fill(0)]);
  });

  it('turns safe BigInts into numbers in place and reports the others as written', () => {
    const value = { id: 5n, list: [1n, 9007199254740993n], deep: { n: -9007199254740995n } };
    const limits = checkValue(value);
    expect(value.id).toBe(5);
    expect(value.list[0]).toBe(1);
    // in the order of the file
    expect(limits.unsafe).toEqual([
      { path: ['list', 1], text: '9007199254740993' },
      { path: ['deep', 'n'], text: '-9007199254740995' },
    ]);
  });

  it('flags rounded integers from JSON.parse (without digits) so the caller reads them again', () => {
    expect(checkValue(JSON.parse('{"id": 9007199254740993, "x": 1.5, "y": 12}')).unsafe).toEqual([{ path: ['id'], text: '' }]);
  });


  it('reports values JSON cannot hold by their path: non-finite numbers and objects other than lists and mappings', () => {
    const limits = checkValue({ a: [1, Number.NaN], b: { c: Buffer.from('hi') }, d: new Set([1]), e: new Map(), f: new Date(0), g: -Infinity });
    // (in no particular order: the problems made of them are sorted by position)
    const byPath = new Map(limits.unreadable.map((u) => [u.path.join('.'), u.message]));
    expect([...byPath.keys()].sort()).toEqual(['a.1', 'b.c', 'd', 'e', 'f', 'g']);
    expect(byPath.get('a.1')).toBe(NOT_FINITE);
    expect(byPath.get('g')).toBe(NOT_FINITE);
    expect(byPath.get('b.c')).toMatch(/^a !!binary value/);
    expect(byPath.get('f')).toMatch(/^a !!timestamp/);
    expect(checkValue(Number.POSITIVE_INFINITY).unreadable).toEqual([{ path: [], message: NOT_FINITE }]);
    expect(checkValue(new Set()).unreadable).toEqual([{ path: [], message: expect.stringMatching(/^a !!set/) }]);
    expect(checkValue(JSON.parse('{"a": [1.5, -0, 1e308], "b": {}}')).unreadable).toEqual([]);
  });
});

describe('scanNesting', () => {
  it('counts brackets outside strings and comments', () => {
    expect(scanNesting(`${'['.repeat(64)}${']'.repeat(64)}`)).toBe(-1);
    expect(scanNesting(`${'['.repeat(65)}`)).toBe(64);
    expect(scanNesting(`"${'['.repeat(100)}"`)).toBe(-1);
    expect(scanNesting(`a: '${'{'.repeat(100)}'`)).toBe(-1);
    expect(scanNesting(`# ${'['.repeat(100)}\na: 1`)).toBe(-1);
    expect(scanNesting(`title: it's [not] a quote ${'['.repeat(70)}`)).toBeGreaterThan(0);
  });

  it('counts YAML block indentation and `- ` items', () => {
    let yaml = '';
    for (let i = 0; i < 100; i++) yaml += `${' '.repeat(i)}a:\n`;
    expect(scanNesting(yaml)).toBeGreaterThan(0);
    expect(scanNesting(`${'- '.repeat(80)}x\n`)).toBe(0);
    expect(scanNesting('id: 1\nlist:\n  - a\n  - {b: [1, 2]}\n')).toBe(-1);
  });

  it('positionOf gives 1-based line and column', () => {
    expect(positionOf('ab\ncd\nef', 4)).toEqual({ line: 2, column: 2 });
    expect(positionOf('ab', 0)).toEqual({ line: 1, column: 1 });
  });
});
