import { describe, expect, it } from 'vitest';
import { renderSuggestion } from './autocomplete-suggestion.ts';

describe('renderSuggestion', () => {
  it('writes compact JSON in spec key order with a trailing line feed', () => {
    expect(renderSuggestion(1, 'campus.person', 'Dr. Anna Müller', null, null)).toBe(
      '{"id":1,"ctype":"campus.person","presentation":"Dr. Anna Müller\\n","level_id":null,"room_id":null}',
    );
  });

  it('keeps non-ASCII raw and writes room ids', () => {
    const s = renderSuggestion(7, 'geo.room', 'Hörsaal 1 (05.012)', 3, 42);
    expect(s).toBe('{"id":7,"ctype":"geo.room","presentation":"Hörsaal 1 (05.012)\\n","level_id":3,"room_id":42}');
    expect(s).not.toContain('\\u');
  });

  it('escapes quotes and backslashes in the presentation', () => {
    expect(JSON.parse(renderSuggestion(2, 'structure.organization', 'A "B" \\ C', null, null)).presentation).toBe('A "B" \\ C\n');
  });
});

describe('renderSuggestion, against JSON.stringify of the object', () => {
  it('gives the same bytes for any text and any numbers', () => {
    const chars = ['a', 'Ö', '"', '\\', '\n', '\t', '\u0001', '\u2028', '\u2029', '\ud83d\ude00', '\ud800', '</', ' ', '€'];
    const numbers = [0, -0, 1, 42, -7, 1.5, 2 ** 53, 1e21, 1e-7, NaN, Infinity, null];
    let seed = 1;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const pick = <T>(a: readonly T[]): T => a[Math.floor(next() * a.length)];
    for (let i = 0; i < 2000; i++) {
      const presentation = Array.from({ length: Math.floor(next() * 12) }, () => pick(chars)).join('');
      const id = pick(numbers) ?? i;
      const ctype = pick(['campus.person', 'geo.room', 'structure.organization', 'odd "ctype"\\']);
      const level = pick(numbers);
      const room = pick(numbers);
      expect(renderSuggestion(id, ctype, presentation, level, room)).toBe(
        JSON.stringify({ id, ctype, presentation: presentation + '\n', level_id: level, room_id: room }),
      );
    }
  });
});
