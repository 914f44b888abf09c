import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseDocument, stringify } from 'yaml';
import { parseYamlSubset } from './yaml-subset.ts';

/** What `yaml` makes of a text: its value, or 'error'. */
function reference(text: string): { value: unknown } | 'error' {
  const doc = parseDocument(text);
  return doc.errors.length > 0 ? 'error' : { value: doc.toJS() };
}

/** The property: the subset reader either declines or agrees with `yaml` exactly. */
function expectAgreement(text: string): void {
  const fast = parseYamlSubset(text);
  if (fast === undefined) return;
  const ref = reference(text);
  expect(ref, `yaml rejects what the subset reader accepted:\n${text}`).not.toBe('error');
  expect(fast.value, text).toStrictEqual((ref as { value: unknown }).value);
  // the keys in the same order too (toStrictEqual does not compare it)
  expect(JSON.stringify(fast.value), text).toBe(JSON.stringify((ref as { value: unknown }).value));
  expect(fast.depth, text).toBe(depthOf(fast.value));
}

/** How deep lists and mappings nest in `value`, as checkValue counts (value-limits.ts). */
function depthOf(value: unknown): number {
  if (value === null || typeof value !== 'object') return 0;
  return 1 + Math.max(0, ...Object.values(value).map(depthOf));
}

const TRICKY = [
  'null', 'Null', 'NULL', '~', 'nil', 'true', 'True', 'TRUE', 'tRue', 'false', 'yes', 'no', 'on', 'off',
  '0', '-0', '+5', '007', '12', '-12', '9007199254740993', '0x1F', '0o17', '0b1', '1.5', '1.', '.5', '1e3',
  '1E-3', '.inf', '-.Inf', '.nan', '1_000', '2025-05-12', '2025-05-12T18:00:00+02:00', '12:30', '1:2',
  'a: b', 'a:b', 'a:', ':a', 'a #b', 'a#b', 'http://x/#y', '-', '--', '---', '- a', '-a', '?', '? a', '?a',
  '"q"', '"a\\tb"', '"a\\x41"', '"\\u00e9"', '"\\u00"', '"a" b', "'s'", "'it''s'", "'a' b", '[1, 2]', '[a, [b]]',
  '[a,b]', '[ ]', '[]', '[a:b]', '[a: b]', '[1,]', '{}', '{a: 1}', '|', '|-', '|+', '>', '&a x', '*a', '!t x',
  '!!str 5', '%x', '@x', '`x', ',x', 'x,y', 'Hörsaal 1', 'a  b', 'a ', '""', "''", '#c', 'a # c', 'é', '<p>x</p>',
  'a\u00a0', '\u00a0a', 'a\u3000', // white space to JavaScript, not to YAML
];

const scalarArb = fc.oneof(
  fc.constantFrom(...TRICKY),
  fc.stringMatching(/^[a-z0-9 :#\-'"[\],.]{1,8}$/),
);
const keyArb = fc.oneof(fc.constantFrom('id', 'title', 'a', 'b', 'true', 'null', 'x-y', '__proto__'), fc.stringMatching(/^[a-z]{1,3}$/));
const indentArb = fc.constantFrom('', '', '', ' ', '  ', '  ', '    ', '   ');
const lineArb = fc.oneof(
  fc.tuple(indentArb, keyArb, scalarArb).map(([i, k, v]) => `${i}${k}: ${v}`),
  fc.tuple(indentArb, keyArb).map(([i, k]) => `${i}${k}:`),
  fc.tuple(indentArb, scalarArb).map(([i, v]) => `${i}- ${v}`),
  fc.tuple(indentArb, keyArb, scalarArb).map(([i, k, v]) => `${i}- ${k}: ${v}`),
  fc.tuple(indentArb, keyArb).map(([i, k]) => `${i}- ${k}:`),
  indentArb.map((i) => `${i}-`),
  indentArb.map((i) => `${i}- - x`),
  fc.tuple(indentArb, keyArb, fc.constantFrom('|', '|-')).map(([i, k, h]) => `${i}${k}: ${h}`),
  fc.tuple(indentArb, scalarArb).map(([i, v]) => `${i}${v}`),
  fc.constantFrom('', '# comment', '  # indented comment', '   ', '---', '...'),
);
const soupArb = fc.tuple(fc.array(lineArb, { maxLength: 10 }), fc.boolean()).map(([lines, nl]) => lines.join('\n') + (nl ? '\n' : ''));

// Values as a content generator would write them, dumped by `yaml` in its various styles.
const leafArb = fc.oneof(
  fc.integer({ min: -1e6, max: 1e6 }),
  fc.boolean(),
  fc.constant(null),
  fc.constantFrom(...TRICKY),
  fc.string({ maxLength: 12 }),
  fc.string({ unit: 'grapheme', maxLength: 12 }),
  fc.constantFrom('<p>Hello</p>\n<p>World</p>\n', 'line one\nline two', 'x\n\n\ny\n', '  indented\nfirst'),
);
const valueArb = fc.letrec((tie) => ({
  value: fc.oneof({ depthSize: 'small' }, leafArb, tie('list'), tie('map')),
  list: fc.array(tie('value'), { maxLength: 4 }),
  map: fc.dictionary(fc.stringMatching(/^[a-z_][a-z0-9_]{0,6}$/), tie('value'), { maxKeys: 5 }),
}));
const dumpOptions = fc.record({
  indent: fc.constantFrom(2, 4),
  indentSeq: fc.boolean(),
  lineWidth: fc.constantFrom(0, 80),
  flowCollectionPadding: fc.boolean(),
  defaultStringType: fc.constantFrom('PLAIN', 'QUOTE_DOUBLE', 'QUOTE_SINGLE', 'BLOCK_LITERAL') as fc.Arbitrary<
    'PLAIN' | 'QUOTE_DOUBLE' | 'QUOTE_SINGLE' | 'BLOCK_LITERAL'
  >,
});

describe('parseYamlSubset', () => {
  it('reads the usual front matter shapes', () => {
    const text = [
      'id: 12',
      'title: "Vortrag: \\"Neues\\""',
      "organizer: 'O''Brien'",
      'start: 2025-05-12T18:00:00+02:00',
      'allday: false',
      'page: null',
      'url: https://example.org/a#b',
      'categories: [1, 4]',
      'media: []',
      'gallery:',
      'related_media:',
      '  - id: 1',
      '    media: 34',
      '    title: ~',
      'groups:',
      '- 1',
      '- two',
      'body: |',
      '  <p>One</p>',
      '',
      '    <p>Two</p>',
      '',
      'extra:',
      '  nested:',
      '    deep: [a, b]',
      '',
    ].join('\n');
    expect(parseYamlSubset(text)).toStrictEqual({
      value: {
        id: 12,
        title: 'Vortrag: "Neues"',
        organizer: "O'Brien",
        start: '2025-05-12T18:00:00+02:00',
        allday: false,
        page: null,
        url: 'https://example.org/a#b',
        categories: [1, 4],
        media: [],
        gallery: null,
        related_media: [{ id: 1, media: 34, title: null }],
        groups: [1, 'two'],
        body: '<p>One</p>\n\n  <p>Two</p>\n',
        extra: { nested: { deep: ['a', 'b'] } },
      },
      depth: 4,
    });
    expectAgreement(text);
  });

  it('reads a list of objects and an empty document', () => {
    expect(parseYamlSubset('- model: geo.Room\n  id: 1\n- model: campus.Person\n  id: 2\n')).toStrictEqual({
      value: [{ model: 'geo.Room', id: 1 }, { model: 'campus.Person', id: 2 }],
      depth: 2,
    });
    expect(parseYamlSubset('# nothing\n\n')).toStrictEqual({ value: null, depth: 0 });
  });

  it.each([
    'a: 1\na: 2\n', // duplicate key
    'a: b: c\n', // nested mapping on one line
    'a: x\n  y\n', // multi-line plain scalar
    'a: "x\n  y"\n', // multi-line quoted scalar
    'a: 1.5\n', // float
    'a: 0x10\n', // hex
    'a: &x 1\n', // anchor
    'a: >\n  folded\n', // folded scalar
    'a:\tb\n', // tab
    'a: 1\r\n', // CR
    '---\na: 1\n', // document marker
    '  a: 1\n', // indented top level
    'a: x # comment\n',
    'a: 9007199254740993\n', // beyond safe integers
  ])('declines %j', (text) => {
    expect(parseYamlSubset(text)).toBeUndefined();
  });

  it('agrees with yaml on the tricky scalars', () => {
    for (const s of TRICKY) {
      expectAgreement(`k: ${s}\n`);
      expectAgreement(`- ${s}\n`);
      expectAgreement(`k: [${s}]\n`);
    }
  });

  it('agrees with yaml on generated line soups', () => {
    fc.assert(fc.property(soupArb, expectAgreement), { numRuns: 20_000 });
  });

  it('agrees with yaml on dumped values', () => {
    fc.assert(
      fc.property(valueArb.value, dumpOptions, (value, options) => expectAgreement(stringify(value, options))),
      { numRuns: 5_000 },
    );
  });

  it('agrees with yaml on mappings of many keys, in any order and nested', () => {
    // (from DICTIONARY_KEYS keys on, a mapping is made as a dictionary: the same object to a reader)
    const leaf = fc.oneof(fc.integer({ min: -1e6, max: 1e6 }), fc.boolean(), fc.constant(null), fc.string({ maxLength: 8 }), fc.constantFrom('Hörsaal 1', 'a: b', 'x # y'));
    const key = fc.stringMatching(/^[a-z_][a-z0-9_-]{0,9}$/);
    const small = fc.dictionary(key, leaf, { maxKeys: 4 });
    const many = fc.dictionary(key, fc.oneof(leaf, fc.array(leaf, { maxLength: 3 }), small, fc.array(small, { maxLength: 2 })), { minKeys: 9, maxKeys: 40 });
    const doc = fc.oneof(many, fc.array(many, { minLength: 1, maxLength: 3 }), fc.dictionary(key, many, { minKeys: 1, maxKeys: 3 }));
    let read = 0;
    fc.assert(
      fc.property(doc, dumpOptions, (value, options) => {
        const text = stringify(value, options);
        expectAgreement(text);
        if (parseYamlSubset(text) !== undefined) read++;
      }),
      { numRuns: 600 },
    );
    // (most are read, not declined: the dictionaries are made)
    expect(read).toBeGreaterThan(100);
  });

  it('reads (rather than declines) records as `yaml` dumps them', () => {
    // Guards against a fast path that silently declines the files it exists for.
    const text = fc.string({ maxLength: 12 });
    const leaf = fc.oneof(fc.integer(), fc.boolean(), fc.constant(null), text, fc.constant('<p>Hello</p>\n<p>World</p>\n'));
    const key = fc.stringMatching(/^[a-z_]{1,8}$/);
    const record = fc.dictionary(
      key,
      fc.oneof(leaf, fc.array(leaf, { maxLength: 3 }), fc.array(fc.dictionary(key, leaf, { minKeys: 1, maxKeys: 3 }), { maxLength: 2 })),
      { minKeys: 1, maxKeys: 8 },
    );
    const samples = fc.sample(fc.oneof(record, fc.array(record, { minLength: 1, maxLength: 3 })), { numRuns: 500, seed: 1 });
    const declined = samples.map((v) => stringify(v)).filter((t) => parseYamlSubset(t) === undefined);
    expect(declined).toEqual([]);
  });

  it('reads keys it knew before as themselves, however many keys share what it remembers them by', () => {
    // thousands of keys: remembered keys give way to others, and each key is still itself
    const keys = Array.from({ length: 3000 }, (_, i) => `k${i.toString(36)}_${i % 7}`);
    for (let pass = 0; pass < 2; pass++) {
      for (let i = 0; i < keys.length; i += 3) {
        const some = pass === 0 ? keys.slice(i, i + 3) : keys.slice(i, i + 3).reverse();
        const text = some.map((k, j) => `${k}: ${j}\n`).join('');
        expect(parseYamlSubset(text)?.value).toEqual(Object.fromEntries(some.map((k, j) => [k, j])));
      }
    }
    // and a key that reads as something else than a string is declined, seen before or not
    for (let pass = 0; pass < 2; pass++) {
      expect(parseYamlSubset('a: 1\nnull: 2\n')).toBeUndefined();
      expect(parseYamlSubset('a: 1\ntrue: 2\n')).toBeUndefined();
      expect(parseYamlSubset('__proto__: 1\n')).toBeUndefined();
      expect(parseYamlSubset('a: 1\na: 2\n')).toBeUndefined();
    }
  });
});
