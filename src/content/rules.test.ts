import { describe, expect, it } from 'vitest';
import { Fields } from './fields.ts';
import { IssueSink, type Issue } from './problems.ts';
import { bool, int, intList, shape, string, stringOrNull, timestamp } from './rules.ts';
import { CATEGORY, DIRECTORY_KINDS, DIRECTORY_OBJECT, EVENT, MEDIA, PAGE, RELATED_MEDIA, SITE } from './shapes.ts';

/** Reads `obj` with `read` and returns the value and the problems as `key: message`. */
function readWith<T>(obj: Record<string, unknown>, read: (f: Fields) => T): [T, string[]] {
  const issues: Issue[] = [];
  const value = read(new Fields(obj, new IssueSink(null, issues)));
  return [value, issues.map((i) => `${i.key.join('.')}: ${i.message}`)];
}

const S = shape('test', 'A test object.', {
  n: int('A count.', { minimum: { value: 1, expected: 'a positive integer' }, default: 5 }),
  id: int('An id.', { excluded: { value: 0, message: 'id 0 is taken' } }),
  colour: string('A colour.', { oneOf: ['red', 'green'], default: 'red' }),
  label: string('A label.', { requiredUnless: 'source' }),
  source: stringOrNull('Where the label comes from.'),
  flag: bool('A flag.', true),
  ids: intList('Some ids.'),
  at: timestamp('A moment.'),
}).fields;

describe('rules', () => {
  it('are named after their key by shape', () => {
    for (const s of [SITE, PAGE, CATEGORY, MEDIA, RELATED_MEDIA, EVENT, DIRECTORY_OBJECT, ...Object.values(DIRECTORY_KINDS)]) {
      for (const [key, rule] of Object.entries(s.fields)) expect(rule.key, `${s.name}.${key}`).toBe(key);
    }
  });

  it('give the fallback for an absent optional key and report an absent required one', () => {
    const [value, problems] = readWith({}, (f) => [f.read(S.n), f.read(S.colour), f.read(S.flag), f.read(S.ids), f.read(S.id)]);
    expect(value).toEqual([5, 'red', true, [], undefined]);
    expect(problems).toEqual(['id: required key is missing']);
  });

  it('read a value that breaks a limit as the fallback, with the limit in the message', () => {
    const [value, problems] = readWith({ n: 0, id: 0, colour: 'blue' }, (f) => [f.read(S.n), f.read(S.id), f.read(S.colour)]);
    expect(value).toEqual([5, undefined, 'red']);
    expect(problems).toEqual(['n: expected a positive integer, got 0', 'id: id 0 is taken', 'colour: expected one of red, green, got "blue"']);
  });

  it('report a mistyped value and a mistyped list element', () => {
    const [value, problems] = readWith({ n: '3', flag: 'yes', ids: [1, 'x'] }, (f) => [f.read(S.n), f.read(S.flag), f.read(S.ids)]);
    expect(value).toEqual([5, true, []]);
    expect(problems).toEqual(['n: expected an integer, got "3"', 'flag: expected a boolean (true or false), got "yes"', 'ids.1: expected an integer, got "x"']);
  });

  it('require a requiredUnless key only when the other key holds no string', () => {
    expect(readWith({ source: 'a.txt' }, (f) => f.read(S.label))).toEqual([null, []]);
    expect(readWith({ source: null }, (f) => f.read(S.label))).toEqual([undefined, ['label: required key is missing']]);
    expect(readWith({ source: 5 }, (f) => f.read(S.label))).toEqual([undefined, ['label: required key is missing']]);
  });

  it('read timestamps in the given zone', () => {
    expect(readWith({ at: '2025-01-01T00:00' }, (f) => f.timestamp(S.at, 'UTC'))).toEqual([Date.UTC(2025, 0, 1), []]);
    expect(readWith({}, (f) => f.timestamp(S.at, 'UTC'))).toEqual([undefined, ['at: required key is missing']]);
  });
});
