import { describe, expect, it } from 'vitest';
import { compareProblems, describeValue, formatKey, formatProblem, problemLines, type Problem } from './problems.ts';

const p = (file: string, line: number, column: number, key = '', message = 'm'): Problem => ({ file, line, column, key, message });

describe('problems', () => {
  it('formats `file:line:column key: message`, leaving out an empty key', () => {
    expect(formatProblem(p('events/a.md', 5, 6, 'end', 'is before start'))).toBe('events/a.md:5:6 end: is before start');
    expect(formatProblem(p('events/a.md', 1, 1, '', 'not valid UTF-8'))).toBe('events/a.md:1:1 not valid UTF-8');
  });

  it('prints the first thousand problems, then how many more there are', () => {
    const many = Array.from({ length: 1_200 }, (_, i): Problem => ({ file: 'events/a.yaml', line: i + 1, column: 1, key: 'id', message: 'x' }));
    const lines = problemLines(many);
    expect(lines).toHaveLength(1_001);
    expect(lines[999]).toBe('events/a.yaml:1000:1 id: x');
    expect(lines[1_000]).toBe('... and 200 more problems (the first 1000 lines are shown)');
    expect(problemLines(many.slice(0, 1_000))).toHaveLength(1_000);
    // a counting line among those not printed stands for the problems it counts
    const counted = [...many.slice(0, 1_050), { ...many[1_050], message: 'and 150 more problems in this file', more: 150 }];
    expect(problemLines(counted)[1_000]).toBe('... and 200 more problems (the first 1000 lines are shown)');
  });

  it('sorts by file, line and column, keeping the order of ties', () => {
    const list = [p('b', 1, 1), p('a', 2, 1), p('a', 1, 9), p('a', 1, 2, 'x'), p('a', 1, 2, 'y')];
    expect(list.sort(compareProblems).map(formatProblem)).toEqual(['a:1:2 x: m', 'a:1:2 y: m', 'a:1:9 m', 'a:2:1 m', 'b:1:1 m']);
  });

  it('writes key paths with dots and brackets', () => {
    expect(formatKey(['related_media', 1, 'media'])).toBe('related_media[1].media');
    expect(formatKey(['categories', 0])).toBe('categories[0]');
    expect(formatKey([])).toBe('');
  });

  it('describes values briefly', () => {
    expect([describeValue('abc'), describeValue(1.5), describeValue(null), describeValue([1]), describeValue({}), describeValue(true)]).toEqual([
      '"abc"', '1.5', 'null', 'a list', 'a mapping', 'true',
    ]);
    expect(describeValue('x'.repeat(100))).toBe(`"${'x'.repeat(37)}..."`);
  });
});
