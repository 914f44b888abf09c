import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { toYaml } from './yaml-writer.ts';

describe('toYaml', () => {
  // Strings built from the characters and words that decide between plain, literal and
  // quoted forms; the common troublemakers weighted up so that combinations like "a: b",
  // " x\ny" or "a #b" occur often.
  const tricky = fc.oneof(
    { arbitrary: fc.constantFrom('a', ' ', ':', '#', '-', '\n', '0'), weight: 8 },
    {
      arbitrary: fc.constantFrom(
        'Ö', 'ß', '\t', '\r', '?', '|', '>', '"', "'", '\\', '%', '@', '`', '[', '{', ',', '.', 'e', 'x', '~', '&', '*', '!',
        'null', 'true', 'No', '.inf', '0x1f', '1e3', '\u2028', '\u0085', '\ufeff', '\u0000', '2025-05-09T16:00', '2025-05-09 16:00:00',
      ),
      weight: 3,
    },
  );

  it('reads back as the same value (tricky strings)', () => {
    fc.assert(
      fc.property(fc.jsonValue({ stringUnit: tricky, maxDepth: 3 }), (value) => {
        expect(parse(toYaml(value))).toEqual(JSON.parse(JSON.stringify(value)));
      }),
      { numRuns: 2000 },
    );
  });

  it('reads back as the same value (any code points)', () => {
    fc.assert(
      fc.property(fc.jsonValue({ stringUnit: 'grapheme', maxDepth: 3 }), (value) => {
        expect(parse(toYaml(value))).toEqual(JSON.parse(JSON.stringify(value)));
      }),
      { numRuns: 1000 },
    );
  });

  it('writes the plain block style', () => {
    const text = toYaml([{ id: 1, title: 'Hörsaal 1', start: '2025-05-09 16:00:00', tags: [], list: [1, 2], body: 'a\nb', t: 'x: y' }]);
    expect(text).toBe(
      '- id: 1\n  title: Hörsaal 1\n  start: 2025-05-09 16:00:00\n  tags: []\n  list:\n    - 1\n    - 2\n  body: |-\n    a\n    b\n  t: "x: y"\n',
    );
  });
});
