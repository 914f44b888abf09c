import { describe, expect, it } from 'vitest';
import { renderSuggestion } from './suggestion.ts';

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
